// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { qrDataUrl, ReceivePanel } from '@/components/ReceivePanel';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

afterEach(cleanup);

describe('ReceivePanel', () => {
  it('shows the whole address, a QR code of it, and copies it', async () => {
    const copy = vi.fn(() => Promise.resolve());
    const onClose = vi.fn();
    render(
      <ReceivePanel
        address={ADDRESS}
        accountName="Account 1"
        networkNames={['Ethereum', 'Base']}
        onClose={onClose}
        copy={copy}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Receive' })).toBeTruthy();
    expect(screen.getByTestId('receive-address').textContent).toBe(ADDRESS);
    const qr = screen.getByRole('img', { name: `QR code of the address ${ADDRESS}` }) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/svg+xml')).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    });
    expect(copy).toHaveBeenCalledWith(ADDRESS);
    expect(screen.getByRole('status').textContent).toBe('Address copied.');
    fireEvent.click(screen.getByRole('button', { name: 'Back to swap' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('says how to copy by hand when the clipboard refuses', async () => {
    render(
      <ReceivePanel
        address={ADDRESS}
        accountName="Account 1"
        networkNames={['Ethereum']}
        onClose={() => {}}
        copy={() => Promise.reject(new Error('denied'))}
      />,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    });
    expect(screen.getByRole('status').textContent).toContain('copy it by hand');
  });

  it('encodes the address itself in the QR code (different addresses, different codes)', () => {
    const svg = decodeURIComponent(qrDataUrl(ADDRESS).split(',')[1] ?? '');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(qrDataUrl(ADDRESS)).not.toBe(qrDataUrl(ADDRESS.replace('f39', 'f38')));
  });
});
