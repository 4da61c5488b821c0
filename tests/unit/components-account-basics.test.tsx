// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PasswordInput } from '@/components/PasswordInput';
import { PhraseBox } from '@/components/PhraseBox';

const PHRASE = 'test test test test test test test test test test test junk';

afterEach(cleanup);

describe('PasswordInput', () => {
  it('hides the password until Show, keeps the same field, and focuses when asked', () => {
    const onInput = vi.fn();
    render(
      <>
        <label for="pw">Password</label>
        <PasswordInput
          id="pw"
          value="secret"
          onInput={onInput}
          autocomplete="current-password"
          focusOnMount
        />
      </>,
    );
    const field = screen.getByLabelText('Password') as HTMLInputElement;
    expect(field.type).toBe('password');
    expect(document.activeElement).toBe(field);
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(field.type).toBe('text');
    expect(screen.getByLabelText('Password')).toBe(field);
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(field.type).toBe('password');
    fireEvent.input(field, { target: { value: 'secret2' } });
    expect(onInput).toHaveBeenCalledWith('secret2');
  });
});

describe('PhraseBox', () => {
  it('masks the recovery phrase until asked, and copies it', async () => {
    let board = '';
    const copy = vi.fn(async (text: string) => {
      board = text;
    });
    render(<PhraseBox mnemonic={PHRASE} clipboard={{ writeText: copy, readText: async () => board }} />);
    const phrase = screen.getByTestId('recovery-phrase');
    expect(phrase.className).toContain('masked');
    expect(phrase.getAttribute('aria-hidden')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Show the phrase' }));
    expect(phrase.className).not.toContain('masked');
    expect(phrase.querySelectorAll('li')).toHaveLength(12);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(copy).toHaveBeenCalledWith(PHRASE);
    expect((await screen.findByRole('status')).textContent).toContain(
      'clears it from the clipboard in 30 seconds',
    );
  });

  it('clears the copied phrase from the clipboard after the delay, if it is still there', async () => {
    let board = '';
    const clipboard = {
      writeText: async (text: string) => {
        board = text;
      },
      readText: async () => board,
    };
    render(<PhraseBox mnemonic={PHRASE} clipboard={clipboard} clearAfterMs={20} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(board).toBe(PHRASE);
    await waitFor(() => expect(board).toBe(''));
    expect(screen.getByRole('status').textContent).toBe(
      'The recovery phrase was cleared from the clipboard.',
    );
  });
});
