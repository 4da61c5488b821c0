// Uniswap V3 pools for the router. The bigint swap lives in service/pool-math/v3.ts (shared with the devnet, the
// off-chain twin of UniswapV3Pool.swap), so quotes are exact to the wei; the float twin below
// only steers the optimizer's split search and never prices anything sent on chain.
import { getSqrtRatioAtTick, Q96, type V3PoolState } from '../pool-math/v3';

export { swapExactInput, type V3PoolState } from '../pool-math/v3';

/** A V3 pool's state in floats: initialized ticks in order, their sqrt prices and liquidity deltas. */
export interface V3FloatPool {
  readonly sqrtPrice: number;
  readonly tick: number;
  readonly liquidity: number;
  readonly feeFactor: number;
  readonly ticks: Int32Array;
  readonly sqrtAt: Float64Array;
  readonly net: Float64Array;
  /** Index of the first initialized tick above the current one (where a price rise crosses first). */
  readonly above: number;
  /** Float sums of liquidity deltas leave residue; below this an exhausted range reads as empty. */
  readonly dust: number;
}

export function floatPool(state: V3PoolState): V3FloatPool {
  const ticks = Int32Array.from([...state.liquidityNet.keys()].sort((a, b) => a - b));
  const q96 = Number(Q96);
  return {
    sqrtPrice: Number(state.sqrtPriceX96) / q96,
    tick: state.tick,
    liquidity: Number(state.liquidity),
    feeFactor: 1 - state.fee / 1e6,
    ticks,
    // The split search prices each path ~100 times per quote: the search for the start runs once here.
    above: upperBound(ticks, state.tick),
    sqrtAt: Float64Array.from(ticks, (tick) => Number(getSqrtRatioAtTick(tick)) / q96),
    net: Float64Array.from(ticks, (tick) => Number(state.liquidityNet.get(tick) ?? 0n)),
    dust:
      1e-9 *
      [...state.liquidityNet.values()].reduce(
        (sum, net) => sum + Math.abs(Number(net)),
        Number(state.liquidity),
      ),
  };
}

/** Output of an exact-input swap in floats; 0 when the loaded ticks cannot absorb the input. */
export function swapFloat(pool: V3FloatPool, zeroForOne: boolean, amountIn: number): number {
  let left = amountIn * pool.feeFactor;
  let s = pool.sqrtPrice;
  let liquidity = pool.liquidity;
  let out = 0;
  const { ticks, sqrtAt, net } = pool;
  if (zeroForOne) {
    // Price falls: cross initialized ticks at or below the current tick, highest first.
    let i = pool.above - 1;
    for (;;) {
      const target = i >= 0 ? (sqrtAt[i] as number) : 0;
      if (liquidity > pool.dust) {
        const reach = target > 0 ? liquidity * (1 / target - 1 / s) : Number.POSITIVE_INFINITY;
        if (left <= reach) {
          const next = (liquidity * s) / (liquidity + left * s);
          return out + liquidity * (s - next);
        }
        out += liquidity * (s - target);
        left -= reach;
      }
      if (i < 0) return 0;
      liquidity -= net[i] as number;
      s = target;
      i--;
    }
  }
  // Price rises: cross initialized ticks above the current tick, lowest first.
  let i = pool.above;
  for (;;) {
    const target = i < ticks.length ? (sqrtAt[i] as number) : Number.POSITIVE_INFINITY;
    if (liquidity > pool.dust) {
      const reach = liquidity * (target - s);
      if (left <= reach) {
        const next = s + left / liquidity;
        return out + liquidity * (1 / s - 1 / next);
      }
      out += liquidity * (1 / s - 1 / target);
      left -= reach;
    }
    if (i >= ticks.length) return 0;
    liquidity += net[i] as number;
    s = target;
    i++;
  }
}

/** Index of the first element greater than `value`. */
function upperBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
