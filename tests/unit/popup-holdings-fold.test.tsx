// @vitest-environment happy-dom
// When the home's holdings fold to their heading line (entrypoints/popup/HomeHoldings.tsx): on the
// pair the popup opens on, and on the user's own picks; never on a pair that lands after the first
// frame (a restore once the list is in, an explorer's prefill), which would move the swap form up or
// down under the pointer.
import { cleanup, renderHook } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { useHoldingsFold } from '@/entrypoints/popup/HomeHoldings';

afterEach(cleanup);

describe('useHoldingsFold', () => {
  it('folds from the first render when the popup opens on a pair, and stays folded', () => {
    const { result, rerender } = renderHook(({ pair, picks }) => useHoldingsFold(pair, picks), {
      initialProps: { pair: true, picks: 0 },
    });
    expect(result.current).toBe(true);
    rerender({ pair: true, picks: 0 });
    expect(result.current).toBe(true);
  });

  it('keeps its first state when a pair lands or goes without a pick (restore, prefill)', () => {
    const { result, rerender } = renderHook(({ pair, picks }) => useHoldingsFold(pair, picks), {
      initialProps: { pair: false, picks: 0 },
    });
    expect(result.current).toBe(false);
    rerender({ pair: true, picks: 0 });
    expect(result.current, 'a restored pair does not fold the list').toBe(false);

    const opened = renderHook(({ pair, picks }) => useHoldingsFold(pair, picks), {
      initialProps: { pair: true, picks: 0 },
    });
    opened.rerender({ pair: false, picks: 0 });
    expect(opened.result.current, 'a prefill clearing the pair does not open the list').toBe(true);
  });

  it("follows the pair on each of the user's picks", () => {
    const { result, rerender } = renderHook(({ pair, picks }) => useHoldingsFold(pair, picks), {
      initialProps: { pair: false, picks: 0 },
    });
    rerender({ pair: true, picks: 1 });
    expect(result.current, 'the pick that completes the pair folds').toBe(true);
    rerender({ pair: false, picks: 2 });
    expect(result.current, 'a network change that clears the pair unfolds').toBe(false);
    rerender({ pair: true, picks: 2 });
    expect(result.current, 'then a pair landing without a pick leaves it').toBe(false);
  });
});
