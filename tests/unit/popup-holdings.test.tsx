// @vitest-environment happy-dom
// The home's holdings hook (entrypoints/popup/hooks/useHoldings.ts): the last popup's snapshot is in
// the first render, read once (a second read in the mount's effect parsed it again and rendered the
// screen a second time before it was ready), and read anew when the network changes. Fresh balances
// keep the snapshot's prices, said to be "as of" their time (after a short grace in which fresh ones
// usually land), until fresh prices land.
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/preact';
import { render as renderNow } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_FRAME_ROWS, Holdings } from '@/components/Holdings';
import { readHoldingsSnapshot, writeHoldingsSnapshot } from '@/entrypoints/popup/holdings-snapshot';
import { STALE_NOTE_GRACE_MS, useHoldings } from '@/entrypoints/popup/hooks/useHoldings';

const background = vi.hoisted(() => ({
  prices: new Promise<Record<string, string | null>>(() => undefined),
  balance: '9000000000000000000',
}));

vi.mock('@/lib/messaging/client', () => ({
  callBackground: async (request: { type: string }) => {
    if (request.type === 'holdings')
      return {
        chainId: 1,
        account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        balances: { '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee': background.balance },
        failed: 0,
      };
    if (request.type === 'getPrices') return background.prices;
    throw new Error(`unexpected ${request.type}`);
  },
}));

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const row = (balance: bigint) => ({ address: ETH, symbol: 'ETH', decimals: 18, balance, price: null });

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('useHoldings', () => {
  it('shows the snapshot in the first render, reads it once, and again for another network', () => {
    writeHoldingsSnapshot(ACCOUNT, 1, [row(5n)]);
    writeHoldingsSnapshot(ACCOUNT, 8453, [row(7n)]);
    const read = vi.spyOn(Storage.prototype, 'getItem');
    const view = renderHook(
      ({ chainId }) => useHoldings(chainId, ACCOUNT, () => undefined, false, undefined),
      {
        initialProps: { chainId: 1 },
      },
    );
    expect(view.result.current.rows?.[0]?.balance).toBe(5n);
    expect(read).toHaveBeenCalledTimes(1);
    view.rerender({ chainId: 8453 });
    expect(read).toHaveBeenCalledTimes(2);
    expect(view.result.current.rows?.[0]?.balance).toBe(7n);
    expect(view.result.current.fresh).toBe(false);
  });

  it('fresh balances keep the snapshot\'s prices, "as of" their time past the grace, until fresh ones land', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const hourAgo = Date.now() - 3_600_000;
    writeHoldingsSnapshot(ACCOUNT, 1, [{ ...row(5n), price: 300_000_000_000n, pricedAt: hourAgo }]);
    let answer: (prices: Record<string, string | null>) => void = () => undefined;
    background.prices = new Promise((resolve) => {
      answer = resolve;
    });
    const view = renderHook(() => useHoldings(1, ACCOUNT, () => undefined, true, undefined));
    expect(view.result.current.pricesAsOf, 'no note that would go a moment later').toBeNull();
    await waitFor(() => expect(view.result.current.fresh).toBe(true));
    expect(view.result.current.pricesAsOf).toBeNull();
    await act(() => {
      vi.advanceTimersByTime(STALE_NOTE_GRACE_MS);
    });
    expect(view.result.current.pricesAsOf, "still the last popup's prices: said so").toBe(hourAgo);
    expect(view.result.current.rows?.[0]?.balance, 'the fresh balance').toBe(9n * 10n ** 18n);
    expect(view.result.current.rows?.[0]?.price, "the last popup's price, not a blank").toBe(
      300_000_000_000n,
    );
    expect(view.result.current.pricesAsOf).toBe(hourAgo);
    answer({ [ETH]: '310000000000' });
    await waitFor(() => expect(view.result.current.rows?.[0]?.price).toBe(310_000_000_000n));
    expect(view.result.current.pricesAsOf, 'every price on screen is fresh').toBeNull();
    // The next popup's snapshot carries the new price and its time.
    const kept = readHoldingsSnapshot(ACCOUNT, 1)?.[0];
    expect(kept?.price).toBe(310_000_000_000n);
    expect(kept?.pricedAt).toBeGreaterThan(hourAgo);
  });

  it('a snapshot whose price time is not a time is not read', () => {
    localStorage.setItem(
      'swaplane.holdings.v2:1',
      JSON.stringify({
        account: ACCOUNT,
        chainId: 1,
        rows: [{ address: ETH, symbol: 'ETH', decimals: 18, balance: '5', price: '1', pricedAt: 'soon' }],
      }),
    );
    expect(readHoldingsSnapshot(ACCOUNT, 1)).toBeNull();
  });
});

describe('Holdings', () => {
  it("says how old the USD values on screen are while they are the last popup's", () => {
    const at = new Date(2026, 10, 26, 9, 5).getTime();
    render(
      <Holdings
        networkName="Ethereum"
        nativeSymbol="ETH"
        rows={[{ ...row(10n ** 18n), price: 300_000_000_000n, pricedAt: at }]}
        updating={false}
        error={null}
        onRetry={() => undefined}
        onSwap={() => undefined}
        logoUrl={() => null}
        collapsed={false}
        pricesAsOf={at}
      />,
    );
    expect(screen.getByTestId('holdings-as-of').textContent).toMatch(/^USD values as of .*09.05/);
  });

  it('renders the rows in view in the first frame and the rest right after it', async () => {
    // Twelve tokens of one dollar each (a whole token, priced at $1).
    const rows = Array.from({ length: 12 }, (_, i) => ({
      ...row(10n ** 18n),
      price: 100_000_000n,
      address: `0x${String(i + 1).padStart(40, '0')}`,
      symbol: `T${i}`,
    }));
    const host = document.createElement('div');
    document.body.append(host);
    // Preact's own render, not the testing library's (its act() would run the effects at once).
    renderNow(
      <Holdings
        networkName="Ethereum"
        nativeSymbol="ETH"
        rows={rows}
        updating={false}
        error={null}
        onRetry={() => undefined}
        onSwap={() => undefined}
        logoUrl={() => null}
        collapsed={false}
      />,
      host,
    );
    const listed = () => [...host.querySelectorAll('#holdings-list li')].map((li) => li.textContent);
    expect(listed()).toHaveLength(FIRST_FRAME_ROWS);
    expect(listed()[0]).toContain('T0');
    expect(
      host.querySelector('[data-testid="holdings-total"]')?.textContent,
      'the total counts every row',
    ).toBe('$12.00');
    await waitFor(() => expect(listed()).toHaveLength(12));
    expect(listed()[11]).toContain('T11');
    renderNow(null, host);
    host.remove();
  });

  it('keeps the rows where they were first shown while prices land and re-rank them by value', () => {
    const token = (address: string, symbol: string, price: bigint | null) => ({
      address,
      symbol,
      decimals: 18,
      balance: 10n ** 18n,
      price,
    });
    const props = {
      networkName: 'Ethereum',
      nativeSymbol: 'ETH',
      updating: false,
      error: null,
      onRetry: () => undefined,
      onSwap: () => undefined,
      logoUrl: () => null,
      collapsed: false,
    };
    const A = `0x${'a'.repeat(40)}`;
    const B = `0x${'b'.repeat(40)}`;
    const view = render(<Holdings {...props} rows={[token(A, 'AAA', null), token(B, 'BBB', null)]} />);
    const order = () =>
      [...view.container.querySelectorAll('#holdings-list li')].map((li) => li.getAttribute('data-testid'));
    expect(order()).toEqual(['holding-AAA', 'holding-BBB']);
    // BBB is worth more: the total says so, the rows stay under the pointer.
    view.rerender(
      <Holdings {...props} rows={[token(A, 'AAA', 10n ** 18n), token(B, 'BBB', 5n * 10n ** 18n)]} />,
    );
    expect(order()).toEqual(['holding-AAA', 'holding-BBB']);
  });
});
