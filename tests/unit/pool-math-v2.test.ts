// The off-chain twin of the executor's math: the V2 formula, the share rule, sequential routes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getAmountOut, type PoolReserves, simulateRoute, splitAmounts } from '../../service/pool-math/v2.ts';

describe('getAmountOut', () => {
  it('is the Uniswap V2 formula with the 0.3% fee, rounded down', () => {
    // 1 ETH into 1,000 ETH / 3,000,000 USDC
    const out = getAmountOut(10n ** 18n, 1000n * 10n ** 18n, 3_000_000n * 10n ** 6n);
    expect(out).toBe(
      (10n ** 18n * 997n * 3_000_000_000_000n) / (1000n * 10n ** 18n * 1000n + 10n ** 18n * 997n),
    );
    expect(out).toBe(2_988_020_943n);
    expect(getAmountOut(1000n, 1000n, 1000n)).toBe(499n);
  });

  it('gives nothing for nothing and for empty pools', () => {
    expect(getAmountOut(0n, 10n, 10n)).toBe(0n);
    expect(getAmountOut(0n, 0n, 0n)).toBe(0n);
    expect(getAmountOut(10n, 0n, 0n)).toBe(0n);
  });

  it('never drains the pool and grows with the input', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 112n }),
        fc.bigInt({ min: 1n, max: 2n ** 112n }),
        fc.bigInt({ min: 1n, max: 2n ** 112n }),
        (amountIn, reserveIn, reserveOut) => {
          const out = getAmountOut(amountIn, reserveIn, reserveOut);
          expect(out).toBeLessThan(reserveOut);
          expect(getAmountOut(amountIn + 1n, reserveIn, reserveOut)).toBeGreaterThanOrEqual(out);
        },
      ),
    );
  });

  it('rejects negative amounts', () => {
    expect(() => getAmountOut(-1n, 1n, 1n)).toThrow(RangeError);
  });
});

describe('splitAmounts', () => {
  it('floors every share but the last, which takes the rest', () => {
    expect(splitAmounts(1000n, [100])).toEqual([1000n]);
    expect(splitAmounts(101n, [50, 50])).toEqual([50n, 51n]);
    expect(splitAmounts(10n, [33, 33, 34])).toEqual([3n, 3n, 4n]);
    expect(splitAmounts(100n, [1, 99])).toEqual([1n, 99n]);
    expect(splitAmounts(99n, [1, 99])).toEqual([0n, 99n]);
  });

  it('always adds up to the input', () => {
    const percents = fc
      .array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 })
      .filter((p) => p.reduce((a, b) => a + b, 0) < 100)
      .map((p) => [...p, 100 - p.reduce((a, b) => a + b, 0)]);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 200n }), percents, (amount, shares) => {
        const parts = splitAmounts(amount, shares);
        expect(parts.reduce((a, b) => a + b, 0n)).toBe(amount);
        parts.slice(0, -1).forEach((part, i) => {
          expect(part).toBe((amount * BigInt(shares[i] ?? 0)) / 100n);
        });
      }),
    );
  });

  it('refuses percents the router refuses', () => {
    expect(() => splitAmounts(1n, [])).toThrow(/at least one/);
    expect(() => splitAmounts(1n, [60, 30])).toThrow(/sum to 100/);
    expect(() => splitAmounts(1n, [50.5, 49.5])).toThrow(/integer/);
    expect(() => splitAmounts(1n, [0, 100])).toThrow(/integer in 1..100/);
  });
});

describe('simulateRoute', () => {
  const A = '0x00000000000000000000000000000000000000aa';
  const B = '0x00000000000000000000000000000000000000bb';
  const C = '0x00000000000000000000000000000000000000cc';
  const pools = new Map<string, PoolReserves>([
    [
      '0x0000000000000000000000000000000000000001',
      { token0: A, token1: B, reserve0: 10n ** 24n, reserve1: 2n * 10n ** 24n },
    ],
    [
      '0x0000000000000000000000000000000000000002',
      { token0: B, token1: C, reserve0: 10n ** 24n, reserve1: 10n ** 12n },
    ],
    [
      '0x0000000000000000000000000000000000000003',
      { token0: C, token1: A, reserve0: 10n ** 12n, reserve1: 10n ** 24n },
    ],
  ]);
  const P1 = '0x0000000000000000000000000000000000000001';
  const P2 = '0x0000000000000000000000000000000000000002';
  const P3 = '0x0000000000000000000000000000000000000003';

  it('chains hops and sums shares', () => {
    const amount = 10n ** 21n;
    const result = simulateRoute(
      amount,
      [
        {
          percent: 70,
          hops: [
            { pool: P1, tokenIn: A, tokenOut: B },
            { pool: P2, tokenIn: B, tokenOut: C },
          ],
        },
        { percent: 30, hops: [{ pool: P3, tokenIn: A, tokenOut: C }] },
      ],
      pools,
    );
    const b = getAmountOut(7n * 10n ** 20n, 10n ** 24n, 2n * 10n ** 24n);
    const c1 = getAmountOut(b, 10n ** 24n, 10n ** 12n);
    const c2 = getAmountOut(3n * 10n ** 20n, 10n ** 24n, 10n ** 12n);
    expect(result.shareOutputs).toEqual([c1, c2]);
    expect(result.outAmount).toBe(c1 + c2);
    // The input map is untouched; the returned one moved.
    expect(pools.get(P1)?.reserve0).toBe(10n ** 24n);
    expect(result.reserves.get(P1)).toMatchObject({
      reserve0: 10n ** 24n + 7n * 10n ** 20n,
      reserve1: 2n * 10n ** 24n - b,
    });
  });

  it('prices a later share from reserves an earlier share moved', () => {
    const half = 5n * 10n ** 20n;
    const twice = simulateRoute(
      2n * half,
      [
        { percent: 50, hops: [{ pool: P1, tokenIn: A, tokenOut: B }] },
        { percent: 50, hops: [{ pool: P1, tokenIn: A, tokenOut: B }] },
      ],
      pools,
    );
    const first = getAmountOut(half, 10n ** 24n, 2n * 10n ** 24n);
    const second = getAmountOut(half, 10n ** 24n + half, 2n * 10n ** 24n - first);
    expect(twice.shareOutputs).toEqual([first, second]);
    expect(second).toBeLessThan(first);
  });

  it('throws where the executor reverts', () => {
    expect(() =>
      simulateRoute(10n, [{ percent: 100, hops: [{ pool: P2, tokenIn: A, tokenOut: B }] }], pools),
    ).toThrow(/does not trade/);
    expect(() =>
      simulateRoute(
        10n ** 18n,
        [
          {
            percent: 100,
            hops: [
              { pool: P1, tokenIn: A, tokenOut: B },
              { pool: P3, tokenIn: C, tokenOut: A },
            ],
          },
        ],
        pools,
      ),
    ).toThrow(/does not start/);
    expect(() =>
      simulateRoute(1n, [{ percent: 100, hops: [{ pool: P2, tokenIn: B, tokenOut: C }] }], pools),
    ).toThrow(/no output/);
    expect(() => simulateRoute(1n, [{ percent: 100, hops: [] }], pools)).toThrow(/no hops/);
  });
});
