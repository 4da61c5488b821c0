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
  /** The ranges a falling price (zeroForOne) crosses, from the current price down. */
  readonly down: FloatRanges;
  /** The ranges a rising price crosses, from the current price up. */
  readonly up: FloatRanges;
}

/**
 * The liquidity ranges a swap walks in one direction, each with what does not depend on the
 * amount: the price it starts at, its liquidity, the input that uses it up (`reach`) and the
 * output of using it up (`full`). Computed once per pool and block with the very operations the
 * walk did on every pricing, so a swap's output is the same number, bit for bit.
 */
export interface FloatRanges {
  readonly start: Float64Array;
  readonly liquidity: Float64Array;
  /** Input that uses the range up; NaN for a range with no liquidity (dust), which is skipped. */
  readonly reach: Float64Array;
  readonly full: Float64Array;
}

export function floatPool(state: V3PoolState): V3FloatPool {
  const ticks = Int32Array.from([...state.liquidityNet.keys()].sort((a, b) => a - b));
  const q96 = Number(Q96);
  const sqrtPrice = Number(state.sqrtPriceX96) / q96;
  const liquidity = Number(state.liquidity);
  const sqrtAt = Float64Array.from(ticks, (tick) => Number(getSqrtRatioAtTick(tick)) / q96);
  const net = Float64Array.from(ticks, (tick) => Number(state.liquidityNet.get(tick) ?? 0n));
  const dust =
    1e-9 * [...state.liquidityNet.values()].reduce((sum, delta) => sum + Math.abs(Number(delta)), liquidity);
  // The split search prices each path ~100 times per quote: the start and the ranges are found once here.
  const above = upperBound(ticks, state.tick);
  const walk = { sqrtPrice, liquidity, sqrtAt, net, dust, above };
  return {
    sqrtPrice,
    tick: state.tick,
    liquidity,
    feeFactor: 1 - state.fee / 1e6,
    ticks,
    above,
    sqrtAt,
    net,
    dust,
    down: rangesDown(walk),
    up: rangesUp(walk),
  };
}

interface RangeWalk {
  sqrtPrice: number;
  liquidity: number;
  sqrtAt: Float64Array;
  net: Float64Array;
  dust: number;
  above: number;
}

function ranges(count: number): FloatRanges {
  return {
    start: new Float64Array(count),
    liquidity: new Float64Array(count),
    reach: new Float64Array(count),
    full: new Float64Array(count),
  };
}

/** Price falls: initialized ticks at or below the current tick, highest first, then down to 0. */
function rangesDown({ sqrtPrice, liquidity, sqrtAt, net, dust, above }: RangeWalk): FloatRanges {
  const out = ranges(above + 1);
  let s = sqrtPrice;
  let l = liquidity;
  for (let k = 0, i = above - 1; k <= above; k++, i--) {
    const target = i >= 0 ? (sqrtAt[i] as number) : 0;
    out.start[k] = s;
    out.liquidity[k] = l;
    out.reach[k] = l > dust ? (target > 0 ? l * (1 / target - 1 / s) : Number.POSITIVE_INFINITY) : Number.NaN;
    out.full[k] = l * (s - target);
    if (i >= 0) l -= net[i] as number;
    s = target;
  }
  return out;
}

/** Price rises: initialized ticks above the current tick, lowest first, then without bound. */
function rangesUp({ sqrtPrice, liquidity, sqrtAt, net, dust, above }: RangeWalk): FloatRanges {
  const count = sqrtAt.length - above + 1;
  const out = ranges(count);
  let s = sqrtPrice;
  let l = liquidity;
  for (let k = 0, i = above; k < count; k++, i++) {
    const target = i < sqrtAt.length ? (sqrtAt[i] as number) : Number.POSITIVE_INFINITY;
    out.start[k] = s;
    out.liquidity[k] = l;
    out.reach[k] = l > dust ? l * (target - s) : Number.NaN;
    out.full[k] = l * (1 / s - 1 / target);
    if (i < sqrtAt.length) l += net[i] as number;
    s = target;
  }
  return out;
}

/** Output of an exact-input swap in floats; 0 when the loaded ticks cannot absorb the input. */
export function swapFloat(pool: V3FloatPool, zeroForOne: boolean, amountIn: number): number {
  let left = amountIn * pool.feeFactor;
  let out = 0;
  const { start, liquidity, reach, full } = zeroForOne ? pool.down : pool.up;
  for (let k = 0; k < reach.length; k++) {
    const use = reach[k] as number;
    if (Number.isNaN(use)) continue; // a range without liquidity
    if (left <= use) {
      const s = start[k] as number;
      const l = liquidity[k] as number;
      if (zeroForOne) return out + l * (s - (l * s) / (l + left * s));
      return out + l * (1 / s - 1 / (s + left / l));
    }
    out += full[k] as number;
    left -= use;
  }
  return 0;
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
