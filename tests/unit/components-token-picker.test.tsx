// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PickedToken, TokenPicker } from '@/components/TokenPicker';
import type { Token } from '@/lib/api/schema';
import { buildTokenSearchIndex } from '@/lib/tokens/search';

const token = (i: number, symbol = `TK${i}`, name = `Token ${i}`): Token => ({
  chainId: 1,
  address: `0x${i.toString(16).padStart(40, '0')}`,
  name,
  symbol,
  decimals: 18,
  logoURI: '',
});

const TOKENS = [token(1, 'ETH', 'Ether'), token(2, 'USDC', 'USD Coin'), token(3, 'DAI', 'Dai Stablecoin')];

function setup(tokens: Token[] = TOKENS, props: Partial<Parameters<typeof TokenPicker>[0]> = {}) {
  const onChange = vi.fn();
  render(
    <TokenPicker
      label="From"
      tokens={tokens}
      index={buildTokenSearchIndex(tokens)}
      value={null}
      onChange={onChange}
      {...props}
    />,
  );
  fireEvent.click(screen.getByTestId('from-picker'));
  return { onChange, search: screen.getByLabelText(/Search from token/i) as HTMLInputElement };
}

const rows = () => Array.from(document.querySelectorAll<HTMLButtonElement>('button[data-token]'));

afterEach(cleanup);

describe('TokenPicker', () => {
  it('filters the list by what is typed', () => {
    const { search } = setup();
    expect(rows()).toHaveLength(3);
    fireEvent.input(search, { target: { value: 'usd' } });
    expect(rows().map((row) => row.textContent)).toEqual([expect.stringContaining('USDC')]);
    fireEvent.input(search, { target: { value: 'zzz' } });
    expect(rows()).toHaveLength(0);
    expect(screen.getByText(/No token matches/)).toBeTruthy();
  });

  it('shows the balances the shortlist knows in search results too, held matches first', () => {
    const usdt = token(4, 'USDT', 'Tether USD');
    const tokens = [...TOKENS, usdt];
    const shortlist = {
      held: [
        {
          address: usdt.address.toUpperCase().replace('0X', '0x'),
          balance: 2_500_000_000_000_000_000n,
          price: 100_000_000n,
        },
      ],
      recent: [],
    };
    const { search } = setup(tokens, { shortlist });
    fireEvent.input(search, { target: { value: 'us' } });
    const found = rows().map((row) => row.textContent ?? '');
    // USDC matches "us" better by symbol, but USDT is held: it comes first, with its balance and USD.
    expect(found[0]).toContain('USDT');
    expect(found[0]).toContain('2.5');
    expect(found[0]).toContain('$2.50');
    expect(found.find((text) => text.includes('USDC'))).not.toMatch(/\d/);
  });

  it('says the list is loading (not that nothing matches) until it arrives, then lists it', () => {
    const props = { label: 'From', value: null, onChange: vi.fn() };
    const { rerender } = render(<TokenPicker {...props} tokens={[]} index={null} />);
    fireEvent.click(screen.getByTestId('from-picker'));
    fireEvent.input(screen.getByLabelText(/Search from token/i), { target: { value: 'dai' } });
    expect(screen.getByRole('status').textContent).toBe('Loading tokens…');
    expect(screen.queryByText(/No token matches/)).toBeNull();
    rerender(<TokenPicker {...props} tokens={TOKENS} index={buildTokenSearchIndex(TOKENS)} />);
    expect(screen.queryByText('Loading tokens…')).toBeNull();
    expect(rows().map((row) => row.textContent)).toEqual([expect.stringContaining('DAI')]);
  });

  it('says why when the list could not be loaded, instead of loading forever', () => {
    const props = { label: 'From', value: null, onChange: vi.fn() };
    render(
      <TokenPicker {...props} tokens={[]} index={null} unavailable="The swap service refused the request." />,
    );
    fireEvent.click(screen.getByTestId('from-picker'));
    expect(screen.getByRole('alert').textContent).toBe(
      'Tokens could not be loaded: The swap service refused the request.',
    );
    expect(screen.queryByText('Loading tokens…')).toBeNull();
  });

  it('shows the chosen token with its logo inside a compact picker', () => {
    const props = { label: 'From', onChange: vi.fn(), tokens: TOKENS, index: null };
    const { container } = render(
      <TokenPicker {...props} compact value={{ token: TOKENS[0] as Token, whitelisted: true }} />,
    );
    const button = screen.getByTestId('from-picker');
    expect(button.querySelector('.logo')).toBeTruthy();
    expect(button.textContent).toContain((TOKENS[0] as Token).symbol);
    expect(container.querySelector('.field-label')).toBeNull();
  });

  it('calls onChange with the chosen token and closes', () => {
    const { onChange } = setup();
    fireEvent.click(rows()[2] as HTMLButtonElement);
    expect(onChange).toHaveBeenCalledWith({ token: TOKENS[2], whitelisted: true });
    expect(screen.queryByLabelText(/Search from token/i)).toBeNull();
  });

  it('looks up a pasted unknown address and warns that it is not on this service’s list', async () => {
    const unknown = token(0xabc, 'SCAM', 'Not Listed');
    const onLookup = vi.fn(async (): Promise<PickedToken> => ({ token: unknown, whitelisted: false }));
    const { onChange, search } = setup(TOKENS, { onLookup });
    fireEvent.input(search, { target: { value: unknown.address } });
    expect(onLookup).toHaveBeenCalledWith(unknown.address);
    expect(await screen.findByText(/Not on this service’s list/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Use SCAM/ }));
    expect(onChange).toHaveBeenCalledWith({ token: unknown, whitelisted: false });
  });

  it('shows a lookup error', async () => {
    const onLookup = vi.fn(async () => ({ error: 'This address is not a token contract.' }));
    const { search } = setup(TOKENS, { onLookup });
    fireEvent.input(search, { target: { value: token(0xdef).address } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('not a token contract'));
  });

  it('renders only a window of a 10,000-token list', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => token(i + 1));
    setup(many);
    const rendered = rows().length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(30);
  });
});
