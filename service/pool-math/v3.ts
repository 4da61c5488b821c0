// Uniswap V3 arithmetic in bigint, step for step as the pool contract does it (TickMath,
// SqrtPriceMath, SwapMath, TickBitmap), so an exact-input swap computed here pays to the wei
// what UniswapV3Pool.swap pays. Shared by the devnet (sizing positions) and the service (quotes).

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;
export const Q96 = 1n << 96n;
const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;

/** The fee tiers v3-core's factory enables, with their tick spacings. */
export const FEE_TICK_SPACING: Readonly<Record<number, number>> = { 500: 10, 3000: 60, 10000: 200 };

export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  return (a * b) / denominator;
}

// Rounding up tells an exact quotient by multiplying back: one bigint division per call, not two
// (a division and a remainder); a bigint multiply costs a fraction of a divide at these widths.
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  const product = a * b;
  const result = product / denominator;
  return result * denominator === product ? result : result + 1n;
}

function divRoundingUp(a: bigint, b: bigint): bigint {
  const result = a / b;
  return result * b === a ? result : result + 1n;
}

// TickMath.getSqrtRatioAtTick's factors: sqrt(1.0001)^-(2^i) in Q128.
const TICK_FACTORS: readonly bigint[] = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

const sqrtRatioCache = new Map<number, bigint>();

/** sqrt(1.0001^tick) * 2^96, rounded up as the contract does. */
export function getSqrtRatioAtTick(tick: number): bigint {
  const cached = sqrtRatioCache.get(tick);
  if (cached !== undefined) return cached;
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK)
    throw new Error(`tick ${tick} out of range`);
  const absTick = Math.abs(tick);
  let ratio = absTick & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 0x100000000000000000000000000000000n;
  for (let bit = 1; bit < 20; bit++) {
    if (absTick & (1 << bit)) ratio = (ratio * (TICK_FACTORS[bit - 1] as bigint)) >> 128n;
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  const result = (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
  if (sqrtRatioCache.size > 50_000) sqrtRatioCache.clear();
  sqrtRatioCache.set(tick, result);
  return result;
}

/** The greatest tick whose sqrt ratio is at most `sqrtPriceX96` (what TickMath.getTickAtSqrtRatio returns). */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO)
    throw new Error('sqrt price out of range');
  // A float estimate lands within a tick or two; the exact ratios settle it.
  const estimate = Math.floor(Math.log((Number(sqrtPriceX96) / 2 ** 96) ** 2) / Math.log(1.0001));
  let tick = Math.min(MAX_TICK, Math.max(MIN_TICK, estimate));
  while (tick > MIN_TICK && getSqrtRatioAtTick(tick) > sqrtPriceX96) tick--;
  while (tick < MAX_TICK && getSqrtRatioAtTick(tick + 1) <= sqrtPriceX96) tick++;
  return tick;
}

export function getAmount0Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB];
  const numerator1 = liquidity << 96n;
  const numerator2 = upper - lower;
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower)
    : mulDiv(numerator1, numerator2, upper) / lower;
}

export function getAmount1Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB];
  return roundUp ? mulDivRoundingUp(liquidity, upper - lower, Q96) : mulDiv(liquidity, upper - lower, Q96);
}

function nextSqrtPriceFromAmount0Up(sqrtP: bigint, liquidity: bigint, amount: bigint): bigint {
  if (amount === 0n) return sqrtP;
  const numerator1 = liquidity << 96n;
  const product = amount * sqrtP;
  // The contract takes the precise formula only when neither product nor sum overflows 256 bits.
  if (product <= MAX_UINT256 && numerator1 + product <= MAX_UINT256) {
    return mulDivRoundingUp(numerator1, sqrtP, numerator1 + product);
  }
  return divRoundingUp(numerator1, numerator1 / sqrtP + amount);
}

function nextSqrtPriceFromAmount1Down(sqrtP: bigint, liquidity: bigint, amount: bigint): bigint {
  const quotient = amount <= MAX_UINT160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity);
  return sqrtP + quotient;
}

/** SwapMath.computeSwapStep for an exact input (`remaining` > 0). */
export function computeSwapStep(
  sqrtCurrent: bigint,
  sqrtTarget: bigint,
  liquidity: bigint,
  remaining: bigint,
  feePips: number,
): { sqrtNext: bigint; amountIn: bigint; amountOut: bigint; feeAmount: bigint } {
  const zeroForOne = sqrtCurrent >= sqrtTarget;
  const fee = BigInt(feePips);
  const remainingLessFee = mulDiv(remaining, 1_000_000n - fee, 1_000_000n);
  let amountIn = zeroForOne
    ? getAmount0Delta(sqrtTarget, sqrtCurrent, liquidity, true)
    : getAmount1Delta(sqrtCurrent, sqrtTarget, liquidity, true);
  let sqrtNext: bigint;
  if (remainingLessFee >= amountIn) sqrtNext = sqrtTarget;
  else {
    if (liquidity === 0n) throw new Error('no liquidity');
    sqrtNext = zeroForOne
      ? nextSqrtPriceFromAmount0Up(sqrtCurrent, liquidity, remainingLessFee)
      : nextSqrtPriceFromAmount1Down(sqrtCurrent, liquidity, remainingLessFee);
  }
  const max = sqrtNext === sqrtTarget;
  let amountOut: bigint;
  if (zeroForOne) {
    if (!max) amountIn = getAmount0Delta(sqrtNext, sqrtCurrent, liquidity, true);
    amountOut = getAmount1Delta(sqrtNext, sqrtCurrent, liquidity, false);
  } else {
    if (!max) amountIn = getAmount1Delta(sqrtCurrent, sqrtNext, liquidity, true);
    amountOut = getAmount0Delta(sqrtCurrent, sqrtNext, liquidity, false);
  }
  const feeAmount = !max ? remaining - amountIn : mulDivRoundingUp(amountIn, fee, 1_000_000n - fee);
  return { sqrtNext, amountIn, amountOut, feeAmount };
}

/** A V3 pool as read at one block: enough to replay any swap that stays inside the loaded words. */
export interface V3PoolState {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
  readonly fee: number;
  readonly tickSpacing: number;
  /** tickBitmap words by word position; only words in [minWord, maxWord] were read. */
  readonly bitmap: ReadonlyMap<number, bigint>;
  readonly minWord: number;
  readonly maxWord: number;
  /** liquidityNet of every initialized tick inside the loaded words. */
  readonly liquidityNet: ReadonlyMap<number, bigint>;
}

/** Word position of a compressed tick (TickBitmap.position). */
export function wordOf(compressed: number): number {
  return Math.floor(compressed / 256);
}

export function compress(tick: number, tickSpacing: number): number {
  return Math.floor(tick / tickSpacing);
}

/** Index of the highest set bit of a positive 256-bit word (BitMath.mostSignificantBit), by halving. */
export function mostSignificantBit(x: bigint): number {
  let bit = 0;
  for (let i = 0; i < MSB_SHIFTS.length; i++) {
    if (x >= (MSB_LIMITS[i] as bigint)) {
      x >>= MSB_SHIFTS[i] as bigint;
      bit += MSB_BITS[i] as number;
    }
  }
  return bit;
}

// The halving's shifts and their powers of two, made once (not on every call of a swap step).
const MSB_SHIFTS: readonly bigint[] = [128n, 64n, 32n, 16n, 8n, 4n, 2n, 1n];
const MSB_BITS: readonly number[] = MSB_SHIFTS.map(Number);
const MSB_LIMITS: readonly bigint[] = MSB_SHIFTS.map((shift) => 1n << shift);

/** Index of the lowest set bit (BitMath.leastSignificantBit). */
export function leastSignificantBit(x: bigint): number {
  return mostSignificantBit(x & -x);
}

// TickBitmap's masks for each bit position of a word, made once (three bigints per call before):
// the bits at or below the position, and the bits at or above it.
const AT_OR_BELOW_MASKS: readonly bigint[] = Array.from(
  { length: 256 },
  (_, bit) => (1n << BigInt(bit)) - 1n + (1n << BigInt(bit)),
);
const AT_OR_ABOVE_MASKS: readonly bigint[] = Array.from(
  { length: 256 },
  (_, bit) => ~((1n << BigInt(bit)) - 1n) & MAX_UINT256,
);

/**
 * TickBitmap.nextInitializedTickWithinOneWord, or null when the word it needs was not loaded:
 * the caller then cannot know the pool's liquidity there and must not price past it.
 */
export function nextInitializedTickWithinOneWord(
  state: V3PoolState,
  tick: number,
  lte: boolean,
): { next: number; initialized: boolean } | null {
  const spacing = state.tickSpacing;
  const compressed = compress(tick, spacing);
  if (lte) {
    const word = wordOf(compressed);
    if (word < state.minWord || word > state.maxWord) return null;
    const bitPos = compressed - word * 256;
    const mask = AT_OR_BELOW_MASKS[bitPos] as bigint;
    const masked = (state.bitmap.get(word) ?? 0n) & mask;
    const initialized = masked !== 0n;
    const next = initialized
      ? (compressed - (bitPos - mostSignificantBit(masked))) * spacing
      : (compressed - bitPos) * spacing;
    return { next, initialized };
  }
  const word = wordOf(compressed + 1);
  if (word < state.minWord || word > state.maxWord) return null;
  const bitPos = compressed + 1 - word * 256;
  const mask = AT_OR_ABOVE_MASKS[bitPos] as bigint;
  const masked = (state.bitmap.get(word) ?? 0n) & mask;
  const initialized = masked !== 0n;
  const next = initialized
    ? (compressed + 1 + (leastSignificantBit(masked) - bitPos)) * spacing
    : (compressed + 1 + (255 - bitPos)) * spacing;
  return { next, initialized };
}

export type V3SwapResult =
  | {
      readonly ok: true;
      readonly amountOut: bigint;
      /** The pool after the swap, for the next hop of a route through the same pool. */
      readonly after: V3PoolState;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * UniswapV3Pool.swap for an exact input with the widest price limit (what Swaplane's executor
 * sends). Fails, instead of returning a partial fill, when the input would not be used up within
 * the loaded ticks: the executor reverts on a partial fill.
 */
export function swapExactInput(state: V3PoolState, zeroForOne: boolean, amountIn: bigint): V3SwapResult {
  if (amountIn <= 0n) return { ok: false, reason: 'a hop would receive a zero amount' };
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  let remaining = amountIn;
  let out = 0n;
  let sqrtPrice = state.sqrtPriceX96;
  let tick = state.tick;
  let liquidity = state.liquidity;
  while (remaining !== 0n && sqrtPrice !== limit) {
    const start = sqrtPrice;
    const step = nextInitializedTickWithinOneWord(state, tick, zeroForOne);
    if (!step) return { ok: false, reason: 'the amount moves a V3 pool past its loaded ticks' };
    const tickNext = Math.min(MAX_TICK, Math.max(MIN_TICK, step.next));
    const sqrtNextTick = getSqrtRatioAtTick(tickNext);
    const target = (zeroForOne ? sqrtNextTick < limit : sqrtNextTick > limit) ? limit : sqrtNextTick;
    const swapStep = computeSwapStep(sqrtPrice, target, liquidity, remaining, state.fee);
    sqrtPrice = swapStep.sqrtNext;
    remaining -= swapStep.amountIn + swapStep.feeAmount;
    out += swapStep.amountOut;
    if (sqrtPrice === sqrtNextTick) {
      if (step.initialized) {
        const net = state.liquidityNet.get(tickNext) ?? 0n;
        liquidity += zeroForOne ? -net : net;
        if (liquidity < 0n) return { ok: false, reason: 'a V3 pool reports inconsistent ticks' };
      }
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (sqrtPrice !== start) {
      tick = getTickAtSqrtRatio(sqrtPrice);
    }
  }
  if (remaining !== 0n) return { ok: false, reason: 'a V3 pool runs out of liquidity for this amount' };
  if (out <= 0n) return { ok: false, reason: 'a hop would return a zero amount' };
  return { ok: true, amountOut: out, after: { ...state, sqrtPriceX96: sqrtPrice, tick, liquidity } };
}

/** Liquidity a position over [tickLower, tickUpper] gets for at most these amounts (LiquidityAmounts). */
export function liquidityForAmounts(
  sqrtPriceX96: bigint,
  tickLower: number,
  tickUpper: number,
  amount0: bigint,
  amount1: bigint,
): bigint {
  const sqrtA = getSqrtRatioAtTick(tickLower);
  const sqrtB = getSqrtRatioAtTick(tickUpper);
  const for0 = (a: bigint, b: bigint) => mulDiv(mulDiv(a, b, Q96), amount0, b - a);
  const for1 = (a: bigint, b: bigint) => mulDiv(amount1, Q96, b - a);
  if (sqrtPriceX96 <= sqrtA) return for0(sqrtA, sqrtB);
  if (sqrtPriceX96 >= sqrtB) return for1(sqrtA, sqrtB);
  const l0 = for0(sqrtPriceX96, sqrtB);
  const l1 = for1(sqrtA, sqrtPriceX96);
  // bigint: Math.min does not apply.
  if (l0 < l1) return l0;
  return l1;
}

/** Integer square root (floor). */
export function sqrtBigint(value: bigint): bigint {
  if (value < 0n) throw new Error('square root of a negative number');
  if (value < 2n) return value;
  let x = BigInt(Math.floor(Math.sqrt(Number(value))));
  // Newton from a float start converges in a few steps; settle the floor exactly.
  for (;;) {
    const next = (x + value / x) >> 1n;
    if (next === x || next === x + 1n) break;
    x = next;
  }
  while (x * x > value) x--;
  while ((x + 1n) * (x + 1n) <= value) x++;
  return x;
}

/** sqrt(amount1 / amount0) * 2^96: the price at which a pool holds these amounts in that ratio. */
export function encodeSqrtRatioX96(amount1: bigint, amount0: bigint): bigint {
  return sqrtBigint((amount1 << 192n) / amount0);
}
