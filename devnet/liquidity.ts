// Initial pool amounts from reference prices: deterministic bigint math, no floats.

export interface Priced {
  decimals: number;
  /** Reference price in micro-USD (6 decimals). */
  priceMicroUsd: bigint;
}

/** Half of `depthUsd` on each side at the reference prices; the B side scaled by `skewBps`. */
export function poolAmounts(
  a: Priced,
  b: Priced,
  depthUsd: bigint,
  skewBps = 0,
): { amountA: bigint; amountB: bigint } {
  const side = (t: Priced) => (depthUsd * 10n ** BigInt(t.decimals) * 1_000_000n) / (2n * t.priceMicroUsd);
  return { amountA: side(a), amountB: (side(b) * BigInt(10_000 + skewBps)) / 10_000n };
}
