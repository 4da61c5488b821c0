// @vitest-environment happy-dom
// The picker's shortlist: held tokens (largest USD value first) and recent ones, while nothing is typed.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenPicker } from '@/components/TokenPicker';
import type { Token } from '@/lib/api/schema';
import { heldCandidates, withRecent } from '@/lib/tokens/recent';
import { buildTokenSearchIndex } from '@/lib/tokens/search';

const token = (symbol: string, n: number, decimals = 18): Token =>
  ({
    chainId: 1,
    address: `0x${n.toString(16).padStart(40, '0')}`,
    symbol,
    name: `${symbol} token`,
    decimals,
    logoURI: '',
  }) as Token;
const TOKENS = [token('AAA', 1), token('BBB', 2, 6), token('CCC', 3), token('DDD', 4)];
const [AAA, BBB, CCC] = TOKENS as [Token, Token, Token];

afterEach(cleanup);

describe('recent tokens and the held check', () => {
  it('moves a token to the front once, capped at 8', () => {
    let list: string[] = [];
    for (let i = 0; i < 10; i++) list = withRecent(list, `0x${String(i).padStart(40, '0')}`);
    list = withRecent(list, `0x${'9'.padStart(40, '0')}`.toUpperCase().replace('0X', '0x'));
    expect(list).toHaveLength(8);
    expect(list[0]).toBe(`0x${'9'.padStart(40, '0')}`);
    expect(new Set(list).size).toBe(8);
  });
  it('checks recent tokens, then the top of the list, each once', () => {
    expect(heldCandidates(['0xB'], ['0xa', '0xb', '0xc'])).toEqual(['0xb', '0xa', '0xc']);
  });
});

describe('TokenPicker › shortlist', () => {
  it('offers held tokens by USD value with balances, and recent ones, until something is typed', () => {
    const onChange = vi.fn();
    render(
      <TokenPicker
        label="From"
        tokens={TOKENS}
        index={buildTokenSearchIndex(TOKENS)}
        value={null}
        onChange={onChange}
        shortlist={{
          held: [
            { address: AAA.address, balance: 2n * 10n ** 18n, price: 1n * 10n ** 8n }, // $2
            { address: BBB.address, balance: 5_000_000n, price: 1n * 10n ** 8n }, // $5
            { address: CCC.address, balance: 10n ** 18n, price: null }, // unknown
          ],
          recent: [CCC.address],
        }}
      />,
    );
    fireEvent.click(screen.getByTestId('from-picker'));
    const held = screen.getByRole('list', { name: 'Your From tokens' });
    const symbols = [...held.querySelectorAll('button strong')].map((b) => b.textContent);
    const amounts = [...held.querySelectorAll('button .muted')].map((b) => b.textContent);
    expect(symbols).toEqual(['BBB', 'AAA', 'CCC']);
    expect(amounts).toEqual(['5 · $5.00', '2 · $2.00', '1 · —']);
    expect(screen.getByRole('group', { name: 'Recent From tokens' }).textContent).toBe('CCC');
    fireEvent.click(held.querySelector(`[data-held-token="${BBB.address}"]`) as Element);
    expect(onChange).toHaveBeenCalledWith({ token: BBB, whitelisted: true });
  });

  it('hides the shortlist while searching', () => {
    render(
      <TokenPicker
        label="To"
        tokens={TOKENS}
        index={buildTokenSearchIndex(TOKENS)}
        value={null}
        onChange={() => undefined}
        shortlist={{ held: [{ address: AAA.address, balance: 1n, price: null }], recent: [AAA.address] }}
      />,
    );
    fireEvent.click(screen.getByTestId('to-picker'));
    expect(screen.queryByRole('list', { name: 'Your To tokens' })).not.toBeNull();
    fireEvent.input(screen.getByLabelText(/Search To token/), { target: { value: 'BBB' } });
    expect(screen.queryByRole('list', { name: 'Your To tokens' })).toBeNull();
  });
});
