// One block's reserves for every pool of a chain, indexed like PoolGraph.pools.
// Bigints are the truth; the float copies only steer the optimizer's search.

export interface ReserveSnapshot {
  readonly block: bigint;
  readonly reserve0: readonly bigint[];
  readonly reserve1: readonly bigint[];
  readonly float0: Float64Array;
  readonly float1: Float64Array;
}

export function makeSnapshot(
  block: bigint,
  reserves: readonly (readonly [bigint, bigint])[],
): ReserveSnapshot {
  const reserve0 = reserves.map(([r0]) => r0);
  const reserve1 = reserves.map(([, r1]) => r1);
  return {
    block,
    reserve0,
    reserve1,
    float0: Float64Array.from(reserve0, Number),
    float1: Float64Array.from(reserve1, Number),
  };
}
