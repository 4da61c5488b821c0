// One block's state for every pool of a chain, indexed like PoolGraph.pools: reserves for V2
// pairs, slot0/liquidity/ticks for V3 pools. Bigints are the truth; the float copies only steer
// the optimizer's search.
import { floatPool, type V3FloatPool, type V3PoolState } from './v3';

export interface ReserveSnapshot {
  readonly block: bigint;
  readonly reserve0: readonly bigint[];
  readonly reserve1: readonly bigint[];
  readonly float0: Float64Array;
  readonly float1: Float64Array;
  /** V3 pools' state by pool index (undefined for V2 pairs and for pools that failed to read). */
  readonly v3: readonly (V3PoolState | undefined)[];
  readonly v3Float: readonly (V3FloatPool | undefined)[];
}

export function makeSnapshot(
  block: bigint,
  reserves: readonly (readonly [bigint, bigint])[],
  v3: readonly (V3PoolState | undefined)[] = [],
): ReserveSnapshot {
  const reserve0 = reserves.map(([r0]) => r0);
  const reserve1 = reserves.map(([, r1]) => r1);
  return {
    block,
    reserve0,
    reserve1,
    float0: Float64Array.from(reserve0, Number),
    float1: Float64Array.from(reserve1, Number),
    v3,
    v3Float: v3.map((state) => (state ? floatPool(state) : undefined)),
  };
}

/** True when the pool can trade at all at this block. */
export function poolIsLive(snapshot: ReserveSnapshot, pool: number): boolean {
  const v3 = snapshot.v3[pool];
  if (v3) return v3.liquidity > 0n || v3.liquidityNet.size > 0;
  return (snapshot.reserve0[pool] ?? 0n) > 0n && (snapshot.reserve1[pool] ?? 0n) > 0n;
}
