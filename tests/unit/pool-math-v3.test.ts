// pool-math/v3.ts: the bigint twin of UniswapV3Pool's swap. On-chain exactness is proven by
// tests/integration/service-exec.test.ts (100 executed quotes, V3 legs included); these pin the
// building blocks to v3-core's own published test vectors and to its documented bounds.
import { describe, expect, it } from 'vitest';
import {
  computeSwapStep,
  encodeSqrtRatioX96,
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  leastSignificantBit,
  liquidityForAmounts,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  mostSignificantBit,
  mulDivRoundingUp,
  nextInitializedTickWithinOneWord,
  Q96,
  swapExactInput,
  type V3PoolState,
} from '../../service/pool-math/v3';
import { floatPool, swapFloat, type V3FloatPool } from '../../service/routing/v3';
import { rng } from '../support/random';

const E18 = 10n ** 18n;

/** A pool state with these initialized ticks (liquidityNet by tick) and every word loaded. */
function stateWith(
  ticks: Record<number, bigint>,
  options: { tick: number; sqrtPriceX96?: bigint; liquidity: bigint; fee?: number; spacing?: number },
): V3PoolState {
  const spacing = options.spacing ?? 1;
  const bitmap = new Map<number, bigint>();
  for (const tick of Object.keys(ticks).map(Number)) {
    const compressed = Math.floor(tick / spacing);
    const word = Math.floor(compressed / 256);
    const bit = BigInt(compressed - word * 256);
    bitmap.set(word, (bitmap.get(word) ?? 0n) | (1n << bit));
  }
  return {
    sqrtPriceX96: options.sqrtPriceX96 ?? getSqrtRatioAtTick(options.tick),
    tick: options.tick,
    liquidity: options.liquidity,
    fee: options.fee ?? 3000,
    tickSpacing: spacing,
    bitmap,
    // Every word from MIN_TICK to MAX_TICK at this spacing.
    minWord: Math.floor(Math.floor(MIN_TICK / spacing) / 256),
    maxWord: Math.floor(Math.floor(MAX_TICK / spacing) / 256),
    liquidityNet: new Map(Object.entries(ticks).map(([tick, net]) => [Number(tick), net])),
  };
}

describe('TickMath', () => {
  it('meets the documented bounds and the price 1 at tick 0', () => {
    expect(getSqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO);
    expect(getSqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO);
    expect(getSqrtRatioAtTick(0)).toBe(Q96);
    expect(() => getSqrtRatioAtTick(MAX_TICK + 1)).toThrow(/out of range/);
    expect(getTickAtSqrtRatio(MIN_SQRT_RATIO)).toBe(MIN_TICK);
    expect(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n)).toBe(MAX_TICK - 1);
  });

  it('getTickAtSqrtRatio is the greatest tick whose ratio is at most the price', () => {
    for (const tick of [-887271, -500_000, -69_082, -1, 1, 50, 76_012, 200_000, 887_271]) {
      const ratio = getSqrtRatioAtTick(tick);
      expect(getTickAtSqrtRatio(ratio)).toBe(tick);
      expect(getTickAtSqrtRatio(ratio - 1n)).toBe(tick - 1);
      expect(getTickAtSqrtRatio(ratio + 1n)).toBe(tick);
    }
  });
});

describe('SwapMath.computeSwapStep (v3-core SwapMath.spec vectors)', () => {
  it('exact amount in that gets capped at the price target, one for zero', () => {
    const price = encodeSqrtRatioX96(1n, 1n);
    const target = encodeSqrtRatioX96(101n, 100n);
    const step = computeSwapStep(price, target, 2n * E18, E18, 600);
    expect(step.amountIn).toBe(9975124224178055n);
    expect(step.feeAmount).toBe(5988667735148n);
    expect(step.amountOut).toBe(9925619580021728n);
    expect(step.sqrtNext).toBe(target);
  });

  it('exact amount in that is fully spent before the target, one for zero', () => {
    const price = encodeSqrtRatioX96(1n, 1n);
    const target = encodeSqrtRatioX96(1000n, 100n);
    const step = computeSwapStep(price, target, 2n * E18, E18, 600);
    expect(step.amountIn).toBe(999400000000000000n);
    expect(step.feeAmount).toBe(600000000000000n);
    expect(step.amountOut).toBe(666399946655997866n);
    expect(step.amountIn + step.feeAmount).toBe(E18);
    expect(step.sqrtNext < target).toBe(true);
  });
});

describe('TickBitmap.nextInitializedTickWithinOneWord (v3-core TickBitmap.spec vectors)', () => {
  const initialized = [-200, -55, -4, 70, 78, 84, 139, 240, 535];
  const state = stateWith(Object.fromEntries(initialized.map((t) => [t, 1n])), { tick: 0, liquidity: 0n });
  const next = (tick: number, lte: boolean) => nextInitializedTickWithinOneWord(state, tick, lte);

  it('to the right (lte = false)', () => {
    expect(next(78, false)).toEqual({ next: 84, initialized: true });
    expect(next(-55, false)).toEqual({ next: -4, initialized: true });
    expect(next(77, false)).toEqual({ next: 78, initialized: true });
    expect(next(-56, false)).toEqual({ next: -55, initialized: true });
    expect(next(255, false)).toEqual({ next: 511, initialized: false });
    expect(next(-257, false)).toEqual({ next: -200, initialized: true });
  });

  it('to the left (lte = true)', () => {
    expect(next(78, true)).toEqual({ next: 78, initialized: true });
    expect(next(79, true)).toEqual({ next: 78, initialized: true });
    expect(next(258, true)).toEqual({ next: 256, initialized: false });
    expect(next(256, true)).toEqual({ next: 256, initialized: false });
    expect(next(72, true)).toEqual({ next: 70, initialized: true });
    expect(next(-257, true)).toEqual({ next: -512, initialized: false });
    expect(next(1023, true)).toEqual({ next: 768, initialized: false });
    expect(next(900, true)).toEqual({ next: 768, initialized: false });
  });

  it('says so, instead of guessing, when the word was not read', () => {
    const narrow = { ...state, minWord: 0, maxWord: 0 };
    expect(nextInitializedTickWithinOneWord(narrow, 255, false)).toBeNull();
    expect(nextInitializedTickWithinOneWord(narrow, -1, true)).toBeNull();
  });
});

describe('swapExactInput', () => {
  // One position over [-6000, 6000] around price 1, one over [-600, 600] on top of it.
  const wide = liquidityForAmounts(Q96, -6000, 6000, 1_000n * E18, 1_000n * E18);
  const narrow = liquidityForAmounts(Q96, -600, 600, 1_000n * E18, 1_000n * E18);
  const state = stateWith(
    { [-6000]: wide, [-600]: narrow, 600: -narrow, 6000: -wide },
    {
      tick: 0,
      liquidity: wide + narrow,
      spacing: 60,
    },
  );

  it('stays within the active range for a small trade and matches the single-step formula', () => {
    const swapped = swapExactInput(state, true, E18);
    if (!swapped.ok) throw new Error(swapped.reason);
    const step = computeSwapStep(Q96, getSqrtRatioAtTick(-600), wide + narrow, E18, 3000);
    expect(swapped.amountOut).toBe(step.amountOut);
    expect(swapped.after.liquidity).toBe(wide + narrow);
  });

  it('crosses an initialized tick: liquidity drops by its liquidityNet and the price keeps falling', () => {
    const swapped = swapExactInput(state, true, 1_500n * E18);
    if (!swapped.ok) throw new Error(swapped.reason);
    expect(swapped.after.liquidity).toBe(wide);
    expect(swapped.after.tick).toBeLessThan(-600);
    // Going up crosses +600 the other way.
    const up = swapExactInput(state, false, 1_500n * E18);
    if (!up.ok) throw new Error(up.reason);
    expect(up.after.liquidity).toBe(wide);
    expect(up.after.tick).toBeGreaterThanOrEqual(600);
  });

  it('refuses a trade the pool cannot fill instead of quoting a partial fill', () => {
    const result = swapExactInput(state, true, 10_000n * E18);
    expect(result).toEqual({ ok: false, reason: 'a V3 pool runs out of liquidity for this amount' });
    const narrowWords = { ...state, minWord: -1, maxWord: 0 };
    expect(swapExactInput(narrowWords, true, 10_000n * E18)).toEqual({
      ok: false,
      reason: 'the amount moves a V3 pool past its loaded ticks',
    });
  });

  it('the float twin steering the split search agrees with the exact swap', () => {
    const pool = floatPool(state);
    for (const amount of [E18, 300n * E18, 1_500n * E18]) {
      for (const zeroForOne of [true, false]) {
        const exact = swapExactInput(state, zeroForOne, amount);
        if (!exact.ok) throw new Error(exact.reason);
        const float = swapFloat(pool, zeroForOne, Number(amount));
        expect(Math.abs(float - Number(exact.amountOut)) / Number(exact.amountOut)).toBeLessThan(1e-9);
      }
    }
    expect(swapFloat(pool, true, Number(10_000n * E18))).toBe(0);
  });

  it('the float twin starts at the first initialized tick above the current one, found once per pool', () => {
    const ticks = { [-120]: 5n * E18, [-60]: 3n * E18, 0: 2n * E18, 60: -3n * E18, 120: -7n * E18 };
    const at = (tick: number) => floatPool(stateWith(ticks, { tick, liquidity: 10n * E18 }));
    expect(at(0).above).toBe(3); // 0 is at or below: a rise crosses 60 first
    expect(at(-1).above).toBe(2);
    expect(at(-200).above).toBe(0);
    expect(at(500).above).toBe(5);
    // Starting there, a fall crosses 0 and -60 and a rise crosses 60: the exact swap's outputs.
    const state0 = stateWith(ticks, { tick: 0, liquidity: 10n * E18 });
    for (const [zeroForOne, amount] of [
      [true, 3n * 10n ** 16n],
      [false, 4n * 10n ** 16n],
    ] as const) {
      const exact = swapExactInput(state0, zeroForOne, amount);
      if (!exact.ok) throw new Error(exact.reason);
      expect(exact.after.liquidity).toBe(zeroForOne ? 5n * E18 : 7n * E18); // the ticks were crossed
      const float = swapFloat(floatPool(state0), zeroForOne, Number(amount));
      expect(Math.abs(float - Number(exact.amountOut)) / Number(exact.amountOut)).toBeLessThan(1e-9);
    }
  });
});

/** The float walk as it priced every call before its ranges were made once per pool (the reference). */
function walkFloat(pool: V3FloatPool, zeroForOne: boolean, amountIn: number): number {
  let left = amountIn * pool.feeFactor;
  let s = pool.sqrtPrice;
  let liquidity = pool.liquidity;
  let out = 0;
  const { ticks, sqrtAt, net } = pool;
  let i = zeroForOne ? pool.above - 1 : pool.above;
  for (;;) {
    if (zeroForOne) {
      const target = i >= 0 ? (sqrtAt[i] as number) : 0;
      if (liquidity > pool.dust) {
        const reach = target > 0 ? liquidity * (1 / target - 1 / s) : Number.POSITIVE_INFINITY;
        if (left <= reach) return out + liquidity * (s - (liquidity * s) / (liquidity + left * s));
        out += liquidity * (s - target);
        left -= reach;
      }
      if (i < 0) return 0;
      liquidity -= net[i] as number;
      s = target;
      i--;
    } else {
      const target = i < ticks.length ? (sqrtAt[i] as number) : Number.POSITIVE_INFINITY;
      if (liquidity > pool.dust) {
        const reach = liquidity * (target - s);
        if (left <= reach) return out + liquidity * (1 / s - 1 / (s + left / liquidity));
        out += liquidity * (1 / s - 1 / target);
        left -= reach;
      }
      if (i >= ticks.length) return 0;
      liquidity += net[i] as number;
      s = target;
      i++;
    }
  }
}

describe('the float twin, ranges made once per pool', () => {
  it('prices every amount bit for bit as the walk it replaces, empty ranges and exhausted pools included', () => {
    const random = rng(28);
    for (let trial = 0; trial < 40; trial++) {
      // Positions at random tick ranges; some ranges in between hold no liquidity at all.
      const ticks: Record<number, bigint> = {};
      let active = 0n;
      const current = Math.floor(random() * 2000) - 1000;
      for (let p = 0; p < 1 + Math.floor(random() * 6); p++) {
        const lower = Math.floor(random() * 4000) - 2000;
        const upper = lower + 1 + Math.floor(random() * 1500);
        const amount = BigInt(Math.floor(random() * 1e6) + 1) * 10n ** 15n;
        ticks[lower] = (ticks[lower] ?? 0n) + amount;
        ticks[upper] = (ticks[upper] ?? 0n) - amount;
        if (lower <= current && current < upper) active += amount;
      }
      const pool = floatPool(stateWith(ticks, { tick: current, liquidity: active }));
      for (const zeroForOne of [true, false]) {
        for (let k = 0; k < 30; k++) {
          const amount = 10 ** (12 + random() * 14);
          expect(swapFloat(pool, zeroForOne, amount)).toBe(walkFloat(pool, zeroForOne, amount));
        }
      }
    }
  });
});

describe('BitMath', () => {
  it('most and least significant bits of 256-bit words', () => {
    for (const bit of [0, 1, 7, 8, 63, 64, 127, 128, 200, 255]) {
      expect(mostSignificantBit(1n << BigInt(bit))).toBe(bit);
      expect(leastSignificantBit(1n << BigInt(bit))).toBe(bit);
    }
    const all = (1n << 256n) - 1n;
    expect(mostSignificantBit(all)).toBe(255);
    expect(leastSignificantBit(all)).toBe(0);
    expect(mostSignificantBit(0b1011_0000n)).toBe(7);
    expect(leastSignificantBit(0b1011_0000n)).toBe(4);
    // Every bit length up to 256, with the bits below the top one set or clear.
    for (let bit = 0; bit < 256; bit++) {
      const top = 1n << BigInt(bit);
      expect(mostSignificantBit(top | (top - 1n))).toBe(bit);
      expect(mostSignificantBit(top | (top >> 1n))).toBe(bit);
    }
  });
});

describe('FullMath.mulDivRoundingUp', () => {
  it('is the quotient rounded up exactly when the remainder is not zero, at swap-step widths', () => {
    const sqrt = getSqrtRatioAtTick(-200_000);
    const cases: [bigint, bigint, bigint][] = [
      [6n, 4n, 3n], // exact: 8
      [7n, 4n, 3n], // 28 / 3 = 9 r 1 -> 10
      [(10n ** 24n) << 96n, sqrt, ((10n ** 24n) << 96n) + 123n * sqrt],
      [(10n ** 24n) << 96n, sqrt, ((10n ** 24n) << 96n) / sqrt],
      [MAX_SQRT_RATIO, MAX_SQRT_RATIO, Q96],
      [3n * Q96, Q96, Q96],
    ];
    for (const [a, b, d] of cases) {
      const product = a * b;
      const expected = product / d + (product % d === 0n ? 0n : 1n);
      expect(mulDivRoundingUp(a, b, d)).toBe(expected);
    }
    expect(mulDivRoundingUp(6n, 4n, 3n)).toBe(8n);
    expect(mulDivRoundingUp(7n, 4n, 3n)).toBe(10n);
  });
});
