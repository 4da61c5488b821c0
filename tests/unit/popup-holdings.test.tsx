// @vitest-environment happy-dom
// The home's holdings hook (entrypoints/popup/hooks/useHoldings.ts): the last popup's snapshot is in
// the first render, read once (a second read in the mount's effect parsed it again and rendered the
// screen a second time before it was ready), and read anew when the network changes.
import { cleanup, renderHook } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeHoldingsSnapshot } from '@/entrypoints/popup/holdings-snapshot';
import { useHoldings } from '@/entrypoints/popup/hooks/useHoldings';

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const row = (balance: bigint) => ({ address: ETH, symbol: 'ETH', decimals: 18, balance, price: null });

afterEach(() => {
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
});
