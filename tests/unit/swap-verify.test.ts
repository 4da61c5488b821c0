import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Quote, QuoteRequest } from '@/lib/api/schema';
import {
  scaledSlippage,
  type VerifyFailure,
  verifyFailureMessage,
  verifyMinReceived,
  verifyQuoteAnswersRequest,
} from '@/lib/swap/verify';
import { DAI, USDC, WETH } from '../support/addresses';
import { quoteFixture, requestOf } from '../support/quotes';

function quote(overrides: Partial<Quote> = {}): Quote {
  return quoteFixture({ inToken: WETH, blockNumber: 1, ...overrides });
}

/** 1 WETH for USDC on Ethereum at 0.5%: what quote() answers. */
const request: QuoteRequest = requestOf(quote());

const reasonOf = (result: ReturnType<typeof verifyMinReceived>): VerifyFailure | undefined =>
  result.ok ? undefined : result.reason;

describe('verifyQuoteAnswersRequest', () => {
  it('accepts a quote that answers the request', () => {
    expect(verifyQuoteAnswersRequest(request, quote())).toEqual({ ok: true });
  });

  it('compares token addresses case-insensitively', () => {
    const q = quote({ inToken: WETH.toLowerCase(), outToken: USDC.toUpperCase().replace('0X', '0x') });
    expect(verifyQuoteAnswersRequest(request, q)).toEqual({ ok: true });
  });

  it.each<[string, Partial<Quote>, VerifyFailure]>([
    ['another chain', { chainId: 10 }, { code: 'CHAIN_MISMATCH', expected: 1, actual: 10 }],
    ['another input token', { inToken: DAI }, { code: 'TOKEN_IN_MISMATCH', expected: WETH, actual: DAI }],
    ['another output token', { outToken: DAI }, { code: 'TOKEN_OUT_MISMATCH', expected: USDC, actual: DAI }],
    [
      'another amount',
      { inAmount: '999999999999999999' },
      { code: 'AMOUNT_MISMATCH', expected: '1000000000000000000', actual: '999999999999999999' },
    ],
    ['another slippage', { slippage: 5 }, { code: 'SLIPPAGE_MISMATCH', expected: 0.5, actual: 5 }],
    [
      'a slightly different slippage',
      { slippage: 0.50000001 },
      { code: 'SLIPPAGE_MISMATCH', expected: 0.5, actual: 0.50000001 },
    ],
  ])('refuses %s', (_label, overrides, reason) => {
    expect(verifyQuoteAnswersRequest(request, quote(overrides))).toEqual({ ok: false, reason });
  });

  it('swapped tokens are caught', () => {
    const result = verifyQuoteAnswersRequest(request, quote({ inToken: USDC, outToken: WETH }));
    expect(result).toMatchObject({ ok: false, reason: { code: 'TOKEN_IN_MISMATCH' } });
  });
});

describe('verifyMinReceived', () => {
  it.each([
    ['0.5 %', '3000000000', 0.5, '2985000000'],
    ['0 %', '3000000000', 0, '3000000000'],
    ['1 %', '1000', 1, '990'],
    ['0.05 %', '1000000', 0.05, '999500'],
    ['0.1 %', '123456789', 0.1, '123333332'], // floor(123456789 * 99.9 / 100) = 123333332.211
    ['49.9 %', '1000', 49.9, '501'],
    ['100 %', '1000', 100, '0'],
    ['out 0', '0', 3, '0'],
    ['one unit above the floor (service rounded up)', '123456789', 0.1, '123333333'],
    ['one unit below the floor', '123456789', 0.1, '123333331'],
  ])('accepts %s', (_label, outAmount, slippage, minReceived) => {
    expect(verifyMinReceived(quote({ outAmount, slippage, minReceived }))).toEqual({ ok: true });
  });

  it('refuses minReceived above outAmount', () => {
    const result = verifyMinReceived(quote({ outAmount: '1000', slippage: 0, minReceived: '1001' }));
    expect(reasonOf(result)).toEqual({
      code: 'MIN_RECEIVED_ABOVE_OUT',
      outAmount: '1000',
      minReceived: '1001',
    });
  });

  it.each([
    ['two units off', '1000', 1, '988', '990'],
    ['a zero minimum', '3000000000', 0.5, '0', '2985000000'],
    ['slippage ignored', '3000000000', 0.5, '3000000000', '2985000000'],
    ['slippage applied twice', '3000000000', 0.5, '2970075000', '2985000000'],
    ['0.5 read as 5', '3000000000', 0.5, '2850000000', '2985000000'],
  ])('refuses %s', (_label, outAmount, slippage, minReceived, expected) => {
    const result = verifyMinReceived(quote({ outAmount, slippage, minReceived }));
    expect(reasonOf(result)).toEqual({ code: 'MIN_RECEIVED_INCONSISTENT', expected, actual: minReceived });
  });

  it('works on amounts far beyond Number precision', () => {
    const out = 2n ** 200n + 12345n;
    const min = (out * (100_000_000n - 300_000n)) / 100_000_000n; // 0.3 %
    expect(
      verifyMinReceived(quote({ outAmount: out.toString(), slippage: 0.3, minReceived: min.toString() })),
    ).toEqual({
      ok: true,
    });
    const off = (min - 2n).toString();
    expect(
      reasonOf(verifyMinReceived(quote({ outAmount: out.toString(), slippage: 0.3, minReceived: off }))),
    ).toMatchObject({
      code: 'MIN_RECEIVED_INCONSISTENT',
    });
  });

  it.each([
    ['slippage above 100', { slippage: 150 }, 'slippage'],
    ['negative slippage', { slippage: -1 }, 'slippage'],
    ['NaN slippage', { slippage: Number.NaN }, 'slippage'],
    ['decimal outAmount', { outAmount: '1.5' }, 'outAmount'],
    ['hex minReceived', { minReceived: '0x10' }, 'minReceived'],
  ] as const)('refuses %s as malformed', (_label, overrides, field) => {
    expect(reasonOf(verifyMinReceived(quote(overrides)))).toMatchObject({ code: 'MALFORMED_VALUE', field });
  });
});

describe('scaledSlippage (micro-percent)', () => {
  it.each([
    [0, 0n],
    [0.000001, 1n],
    [0.05, 50_000n],
    [0.1, 100_000n],
    [0.5, 500_000n],
    [1, 1_000_000n],
    [49.9, 49_900_000n],
    [99.999999, 99_999_999n],
    [100, 100_000_000n],
  ])('%d is exact', (slippage, micro) => {
    expect(scaledSlippage(slippage)).toEqual({ low: micro, high: micro });
  });

  it('brackets values finer than a micro-percent', () => {
    expect(scaledSlippage(0.1234567)).toEqual({ low: 123_456n, high: 123_457n });
    expect(scaledSlippage(1e-7)).toEqual({ low: 0n, high: 1n });
    expect(scaledSlippage(1.5e-7)).toEqual({ low: 0n, high: 1n });
  });

  it('accepts the results of either neighbour for a non-representable slippage', () => {
    const out = 10n ** 30n;
    const floorWith = (micro: bigint) => ((out * (100_000_000n - micro)) / 100_000_000n).toString();
    for (const minReceived of [floorWith(123_456n), floorWith(123_457n)]) {
      expect(
        verifyMinReceived(quote({ outAmount: out.toString(), slippage: 0.1234567, minReceived })),
      ).toEqual({
        ok: true,
      });
    }
    const tooLow = (BigInt(floorWith(123_457n)) - 2n).toString();
    expect(
      verifyMinReceived(quote({ outAmount: out.toString(), slippage: 0.1234567, minReceived: tooLow })).ok,
    ).toBe(false);
  });
});

describe('property: the service-side formula always verifies', () => {
  // Slippages as the service reads them (their decimal form), in micro-percent.
  const slippages: [number, bigint][] = [
    [0, 0n],
    [0.1, 100_000n],
    [0.5, 500_000n],
    [1, 1_000_000n],
    [3, 3_000_000n],
    [49.9, 49_900_000n],
  ];

  it('floor(out * (100 - s) / 100) for out up to 2^128', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 128n }),
        fc.constantFrom(...slippages),
        (out, [slippage, micro]) => {
          const minReceived = (out * (100_000_000n - micro)) / 100_000_000n;
          const q = quote({ outAmount: out.toString(), slippage, minReceived: minReceived.toString() });
          return verifyMinReceived(q).ok;
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('anything more than one unit away is refused', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n, max: 2n ** 128n }),
        fc.constantFrom(...slippages),
        fc.bigInt({ min: 2n, max: 10n ** 6n }),
        (out, [slippage, micro], offset) => {
          const minReceived = (out * (100_000_000n - micro)) / 100_000_000n - offset;
          fc.pre(minReceived >= 0n);
          const q = quote({ outAmount: out.toString(), slippage, minReceived: minReceived.toString() });
          return !verifyMinReceived(q).ok;
        },
      ),
    );
  });
});

describe('verifyFailureMessage', () => {
  const reasons: VerifyFailure[] = [
    { code: 'CHAIN_MISMATCH', expected: 1, actual: 10 },
    { code: 'TOKEN_IN_MISMATCH', expected: WETH, actual: DAI },
    { code: 'TOKEN_OUT_MISMATCH', expected: USDC, actual: DAI },
    { code: 'AMOUNT_MISMATCH', expected: '1', actual: '2' },
    { code: 'SLIPPAGE_MISMATCH', expected: 0.5, actual: 5 },
    { code: 'MIN_RECEIVED_ABOVE_OUT', outAmount: '1', minReceived: '2' },
    { code: 'MIN_RECEIVED_INCONSISTENT', expected: '990', actual: '900' },
    { code: 'MALFORMED_VALUE', field: 'slippage', value: '150' },
  ];

  it('gives every reason its own title, a detail and an action', () => {
    const messages = reasons.map(verifyFailureMessage);
    expect(new Set(messages.map((m) => m.title)).size).toBe(reasons.length);
    for (const message of messages) {
      expect(message.detail.length).toBeGreaterThan(0);
      expect(message.action).toMatch(/Nothing was signed/);
    }
    expect(verifyFailureMessage(reasons[0] as VerifyFailure).detail).toContain('chain 10');
  });
});
