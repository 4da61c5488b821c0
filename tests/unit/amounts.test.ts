import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AmountErrorCode,
  AmountParseError,
  formatAmount,
  formatAmountExact,
  fromDecimalString,
  isValidDecimals,
  MAX_UINT256,
  parseAmount,
  toDecimalString,
} from '@/lib/amounts';
import { bigMax, bigMin } from '@/lib/amounts/min-max';

const E18 = 10n ** 18n;

function expectValue(input: string, decimals: number): bigint {
  const result = parseAmount(input, decimals);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to parse: ${result.error.message}`);
  return result.value;
}

function expectError(input: string, decimals: number) {
  const result = parseAmount(input, decimals);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to fail, got ${result.value}`);
  expect(result.error.message.length).toBeGreaterThan(0);
  return result.error;
}

describe('parseAmount: accepted input', () => {
  it.each<[string, number, bigint]>([
    ['1', 18, E18],
    ['1.5', 18, 1_500_000_000_000_000_000n],
    ['.5', 6, 500_000n],
    ['1.', 6, 1_000_000n],
    ['1.', 0, 1n],
    ['0.000001', 6, 1n],
    ['007', 6, 7_000_000n],
    ['007.50', 2, 750n],
    ['0', 18, 0n],
    ['0.0', 18, 0n],
    ['.0', 6, 0n],
    ['000', 0, 0n],
    ['  42  ', 0, 42n],
    ['\t\n1.25\u00a0', 2, 125n],
    ['123', 0, 123n],
    ['0.000000000000000001', 18, 1n],
    ['1234567.891234', 6, 1_234_567_891_234n],
    // Trailing zeros past the token's precision don't change the value.
    ['1.50', 1, 15n],
    ['1.000000000', 6, 1_000_000n],
    ['5.0', 0, 5n],
    ['115792089237316195423570985008687907853269984665640564039457584007913129639935', 0, MAX_UINT256],
    ['115792089237316195423570985008687907853269984665640564039457.584007913129639935', 18, MAX_UINT256],
    [`0.${'0'.repeat(254)}1`, 255, 1n],
  ])('%j with %i decimals -> %s', (input, decimals, value) => {
    expect(expectValue(input, decimals)).toBe(value);
  });
});

describe('parseAmount: rejected input', () => {
  it.each<[string, number, AmountErrorCode]>([
    ['', 18, 'EMPTY'],
    ['   ', 18, 'EMPTY'],
    ['\n\t', 18, 'EMPTY'],
    ['.', 18, 'EMPTY'],
    [' . ', 18, 'EMPTY'],
    ['-1', 18, 'NEGATIVE'],
    ['-0', 18, 'NEGATIVE'],
    ['-.5', 18, 'NEGATIVE'],
    [' -1', 18, 'NEGATIVE'],
    ['\u22121', 18, 'NEGATIVE'],
    ['-1e5', 18, 'NEGATIVE'],
    ['1e5', 18, 'EXPONENT'],
    ['1e18', 18, 'EXPONENT'],
    ['1E18', 18, 'EXPONENT'],
    ['1.5e3', 18, 'EXPONENT'],
    ['.5e3', 18, 'EXPONENT'],
    ['1.e3', 18, 'EXPONENT'],
    ['1e+5', 18, 'EXPONENT'],
    ['1e-5', 18, 'EXPONENT'],
    ['1e', 18, 'EXPONENT'],
    ['0.0000001', 6, 'TOO_MANY_DECIMALS'],
    ['1.5', 0, 'TOO_MANY_DECIMALS'],
    ['0.0000000000000000001', 18, 'TOO_MANY_DECIMALS'],
    ['1.01', 1, 'TOO_MANY_DECIMALS'],
    ['1..2', 18, 'MULTIPLE_POINTS'],
    ['1.2.3', 18, 'MULTIPLE_POINTS'],
    ['..', 18, 'MULTIPLE_POINTS'],
    ['1.2.', 18, 'MULTIPLE_POINTS'],
    ['1,000', 18, 'INVALID_CHARACTERS'],
    ['1,5', 18, 'INVALID_CHARACTERS'],
    ['+1', 18, 'INVALID_CHARACTERS'],
    ['abc', 18, 'INVALID_CHARACTERS'],
    ['Infinity', 18, 'INVALID_CHARACTERS'],
    ['NaN', 18, 'INVALID_CHARACTERS'],
    ['0x10', 18, 'INVALID_CHARACTERS'],
    ['0b1', 18, 'INVALID_CHARACTERS'],
    ['１２', 18, 'INVALID_CHARACTERS'],
    ['\u0661', 18, 'INVALID_CHARACTERS'], // Arabic-Indic one
    ['1 000', 18, 'INVALID_CHARACTERS'],
    ['1_000', 18, 'INVALID_CHARACTERS'],
    ['1\u200b', 18, 'INVALID_CHARACTERS'],
    ['$1', 18, 'INVALID_CHARACTERS'],
    ['e5', 18, 'INVALID_CHARACTERS'],
    ['1.2.x', 18, 'INVALID_CHARACTERS'],
    ['😀', 18, 'INVALID_CHARACTERS'],
    ['115792089237316195423570985008687907853269984665640564039457584007913129639936', 0, 'TOO_LARGE'],
    ['115792089237316195423570985008687907853269984665640564039458', 18, 'TOO_LARGE'],
    ['0.9', 255, 'TOO_LARGE'],
    ['1', -1, 'INVALID_DECIMALS'],
    ['1', 256, 'INVALID_DECIMALS'],
    ['1', 1.5, 'INVALID_DECIMALS'],
    ['1', Number.NaN, 'INVALID_DECIMALS'],
    ['1', Number.POSITIVE_INFINITY, 'INVALID_DECIMALS'],
  ])('%j with %s decimals -> %s', (input, decimals, code) => {
    expect(expectError(input, decimals).code).toBe(code);
  });

  it('stays fast and exact on huge pasted input', () => {
    const started = performance.now();
    expect(expectValue(`${'0'.repeat(100_000)}1`, 0)).toBe(1n);
    expect(expectValue(`1.${'0'.repeat(100_000)}`, 6)).toBe(1_000_000n);
    expect(expectError(`1${'0'.repeat(100_000)}`, 0).code).toBe('TOO_LARGE');
    expect(expectError(`${'1'.repeat(100_000)}e`, 0).code).toBe('EXPONENT');
    expect(expectError(`${'1'.repeat(100_000)}x`, 0).code).toBe('INVALID_CHARACTERS');
    expect(expectError(`1.${'1'.repeat(100_000)}`, 18).code).toBe('TOO_MANY_DECIMALS');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('checks the decimals before the input', () => {
    expect(expectError('', 300).code).toBe('INVALID_DECIMALS');
    expect(expectError('1', 300).message).toContain('300');
  });

  it('says how many decimals are allowed', () => {
    const six = expectError('0.1234567', 6);
    expect(six).toMatchObject({ code: 'TOO_MANY_DECIMALS', maxDecimals: 6 });
    expect(six.message).toContain('at most 6 decimal places');
    expect(expectError('0.12', 1).message).toContain('at most 1 decimal place.');
    expect(expectError('0.5', 0)).toMatchObject({
      maxDecimals: 0,
      message: expect.stringMatching(/whole number/),
    });
  });

  it('suggests a point when a comma was typed', () => {
    const error = expectError('1,5', 18);
    expect(error).toMatchObject({ code: 'INVALID_CHARACTERS', character: ',' });
    expect(error.message).toMatch(/point \(\.\) for decimals/);
  });

  it.each<[string, string, string]>([
    ['abc', 'a', "'a'"],
    ['Infinity', 'I', "'I'"],
    ['NaN', 'N', "'N'"],
    ['0x10', 'x', "'x'"],
    ['+1', '+', "'+'"],
    ['１', '１', 'U+FF11'],
    ['1 000', ' ', 'space'],
    ['1\u200b', '\u200b', 'U+200B'],
    ['😀1', '😀', 'U+1F600'],
  ])('names the first bad character of %j', (input, character, inMessage) => {
    const error = expectError(input, 18);
    expect(error).toMatchObject({ code: 'INVALID_CHARACTERS', character });
    expect(error.message).toContain(inMessage);
  });

  it('copes with non-string input from untyped callers', () => {
    expect(expectError(undefined as unknown as string, 18).code).toBe('EMPTY');
    expect(expectError(12 as unknown as string, 18).code).toBe('EMPTY');
  });
});

describe('fromDecimalString', () => {
  it('returns the value or throws a typed error', () => {
    expect(fromDecimalString('2.5', 6)).toBe(2_500_000n);
    expect(() => fromDecimalString('2,5', 6)).toThrow(AmountParseError);
    try {
      fromDecimalString('1e5', 6);
    } catch (error) {
      expect(error).toBeInstanceOf(AmountParseError);
      expect((error as AmountParseError).error.code).toBe('EXPONENT');
    }
  });
});

describe('isValidDecimals', () => {
  it.each<[unknown, boolean]>([
    [0, true],
    [18, true],
    [255, true],
    [256, false],
    [-1, false],
    [6.5, false],
    ['6', false],
    [6n, false],
    [undefined, false],
  ])('%s -> %s', (decimals, valid) => {
    expect(isValidDecimals(decimals)).toBe(valid);
  });
});

describe('toDecimalString / formatAmountExact', () => {
  it.each<[bigint, number, string]>([
    [0n, 18, '0'],
    [0n, 0, '0'],
    [1n, 18, '0.000000000000000001'],
    [E18, 18, '1'],
    [1_500_000n, 6, '1.5'],
    [1_234_567_891_234n, 6, '1234567.891234'],
    [100n, 0, '100'],
    [100n, 2, '1'],
    [101n, 2, '1.01'],
    [-1_500_000n, 6, '-1.5'],
    [MAX_UINT256, 18, '115792089237316195423570985008687907853269984665640564039457.584007913129639935'],
    [1n, 255, `0.${'0'.repeat(254)}1`],
  ])('%s with %i decimals -> %s', (value, decimals, text) => {
    expect(toDecimalString(value, decimals)).toBe(text);
    expect(formatAmountExact(value, decimals)).toBe(text);
  });

  it('rejects invalid decimals', () => {
    expect(() => formatAmountExact(1n, -1)).toThrow(RangeError);
    expect(() => toDecimalString(1n, 256)).toThrow(RangeError);
  });
});

describe('formatAmount', () => {
  it.each<[bigint, number, string]>([
    [0n, 18, '0'],
    [0n, 0, '0'],
    [1n, 18, '<0.000001'], // 1 wei
    [999_999_999_999n, 18, '<0.000001'],
    [1_000_000_000_000n, 18, '0.000001'],
    [1n, 6, '0.000001'], // 1 unit of USDC is exactly the threshold
    [1_234_567_891_234n, 6, '1,234,567.89'], // USDC
    [123_456_789_000_000n, 18, '0.000123456'], // 0.000123456789 ETH: truncated, not rounded
    [E18, 18, '1'],
    [1_500_000_000_000_000_000n, 18, '1.5'],
    [12_345_678_900_000_000_000n, 18, '12.3456'],
    [999_999_999_999_999_999n, 18, '0.999999'], // never rounds up to 1
    [1_999_999_999_999_999_999n, 18, '1.99999'],
    [123_456_789n, 0, '123,456,789'],
    [1_000n, 0, '1,000'],
    [999n, 0, '999'],
    [1_000_000_000_000_000_000_000n, 18, '1,000'],
    [1_000_000_010_000_000_000_000n, 18, '1,000'], // 1000.00001: beyond the 2 kept digits
    [1_000_990_000_000_000_000_000n, 18, '1,000.99'],
    [120n, 2, '1.2'], // trailing zero trimmed
    [
      MAX_UINT256,
      0,
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457,584,007,913,129,639,935',
    ],
    [MAX_UINT256, 18, '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.58'],
    [-1_500_000n, 6, '-1.5'],
    [-1_999_999n, 6, '-1.99999'], // toward zero
    [-1n, 18, '>-0.000001'],
  ])('%s with %i decimals -> %s', (value, decimals, text) => {
    expect(formatAmount(value, decimals)).toBe(text);
  });

  it('groups only when asked', () => {
    expect(formatAmount(1_234_567_891_234n, 6, { grouping: false })).toBe('1234567.89');
    expect(formatAmount(1_234_567_891_234n, 6, { grouping: true })).toBe('1,234,567.89');
    expect(formatAmount(1n, 0, { minDisplay: '1000.5', grouping: true })).toBe('<1,000.5');
  });

  it('honours maxSignificant', () => {
    expect(formatAmount(123_456_789_000_000n, 18, { maxSignificant: 2 })).toBe('0.00012');
    expect(formatAmount(12_345_678_900_000_000_000n, 18, { maxSignificant: 10 })).toBe('12.3456789');
    expect(formatAmount(12_345_678_900_000_000_000n, 18, { maxSignificant: 1 })).toBe('12.34');
    expect(formatAmount(12_345_678_900_000_000_000n, 18, { maxSignificant: 1, minFractionDigits: 0 })).toBe(
      '12',
    );
    expect(formatAmount(1_234_567_891_234n, 6, { minFractionDigits: 0 })).toBe('1,234,567');
  });

  it('honours minDisplay', () => {
    expect(formatAmount(9n, 3, { minDisplay: '0.01' })).toBe('<0.01');
    expect(formatAmount(10n, 3, { minDisplay: '0.01' })).toBe('0.01');
    expect(formatAmount(1n, 18, { minDisplay: '0' })).toBe('0.000000000000000001');
    expect(formatAmount(1n, 18, { minDisplay: '0.00000100' })).toBe('<0.000001');
    // A threshold finer than the token can express never triggers.
    expect(formatAmount(1n, 2, { minDisplay: '0.000000000000000000000001' })).toBe('0.01');
  });

  it('rejects invalid decimals and options', () => {
    expect(() => formatAmount(1n, 256)).toThrow(RangeError);
    expect(() => formatAmount(1n, 18, { maxSignificant: 0 })).toThrow(RangeError);
    expect(() => formatAmount(1n, 18, { maxSignificant: 1.5 })).toThrow(RangeError);
    expect(() => formatAmount(1n, 18, { minFractionDigits: -1 })).toThrow(RangeError);
    expect(() => formatAmount(1n, 18, { minDisplay: '-1' })).toThrow(RangeError);
    expect(() => formatAmount(1n, 18, { minDisplay: 'tiny' })).toThrow(RangeError);
  });
});

// ---- properties -----------------------------------------------------------------------------------

const uint256 = fc.bigInt({ min: 0n, max: MAX_UINT256 });
// Small values and values around 10^decimals matter more than uniform 256-bit ones.
const amount = fc.oneof(uint256, fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.bigInt({ min: 0n, max: 1000n }));
const decimalsArb = fc.integer({ min: 0, max: 36 });

/** Value of a plain decimal string (no grouping) at `scale` fraction digits. */
function atScale(text: string, scale: number): bigint {
  return fromDecimalString(text, scale);
}

// Thousands of generated cases each: a bound for a loaded machine (a hang guard, not a speed check).
describe('properties', { timeout: 30_000 }, () => {
  it('parseAmount(formatAmountExact(x, d), d) === x', () => {
    fc.assert(
      fc.property(uint256, decimalsArb, (x, d) => {
        expect(parseAmount(formatAmountExact(x, d), d)).toEqual({ ok: true, value: x });
      }),
      { numRuns: 2000 },
    );
  });

  it('parseAmount never throws and always answers with a value or a known error', () => {
    const codes = new Set<string>([
      'EMPTY',
      'NEGATIVE',
      'EXPONENT',
      'TOO_MANY_DECIMALS',
      'MULTIPLE_POINTS',
      'INVALID_CHARACTERS',
      'TOO_LARGE',
      'INVALID_DECIMALS',
    ]);
    const numberish = fc
      .array(fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', 'E', ',', ' ', '\u2212', '１'), {
        maxLength: 30,
      })
      .map((chars) => chars.join(''));
    const input = fc.oneof(
      fc.string(),
      // fast-check 4's replacement for fullUnicodeString (any code point, lone surrogates included).
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      numberish,
      // Valid-looking numbers wrapped in noise.
      fc
        .tuple(fc.string({ maxLength: 2 }), numberish, fc.string({ maxLength: 2 }))
        .map((parts) => parts.join('')),
      fc.stringMatching(/^\d{0,90}(\.\d{0,40})?$/),
    );
    const decimals = fc.oneof(decimalsArb, fc.integer({ min: -5, max: 300 }), fc.double());
    fc.assert(
      fc.property(input, decimals, (text, d) => {
        const result = parseAmount(text, d);
        if (result.ok) {
          expect(result.value >= 0n && result.value <= MAX_UINT256).toBe(true);
        } else {
          expect(codes.has(result.error.code)).toBe(true);
          expect(result.error.message).not.toBe('');
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('accepted input parses to the value of its digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,30}\.[0-9]{0,18}$/), (text) => {
        const result = parseAmount(text, 18);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const [int = '', frac = ''] = text.split('.');
        expect(result.value).toBe(BigInt(int) * E18 + BigInt(frac.padEnd(18, '0') || '0'));
      }),
    );
  });

  it('the display never exceeds the real value', () => {
    fc.assert(
      fc.property(amount, decimalsArb, fc.integer({ min: 1, max: 12 }), (x, d, maxSignificant) => {
        const display = formatAmount(x, d, { maxSignificant, grouping: false });
        expect(display).not.toContain(',');
        if (display.startsWith('<')) {
          // The tiny form claims 0 < x < threshold.
          const threshold = display.slice(1);
          const scale = Math.max(d, threshold.split('.')[1]?.length ?? 0);
          expect(x > 0n).toBe(true);
          expect(x * 10n ** BigInt(scale - d) < atScale(threshold, scale)).toBe(true);
        } else {
          const shown = atScale(display, d);
          expect(shown <= x).toBe(true);
          expect(x === 0n || shown > 0n).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('the display with grouping is the same number as without', () => {
    fc.assert(
      fc.property(amount, decimalsArb, (x, d) => {
        expect(formatAmount(x, d).replaceAll(',', '')).toBe(formatAmount(x, d, { grouping: false }));
      }),
    );
  });

  it('formatting the displayed value again gives the same display (truncation is idempotent)', () => {
    fc.assert(
      fc.property(amount, decimalsArb, (x, d) => {
        const display = formatAmount(x, d, { grouping: false });
        if (display.startsWith('<')) return;
        expect(formatAmount(atScale(display, d), d, { grouping: false })).toBe(display);
      }),
    );
  });

  it('the display is monotonic: a larger amount never shows less', () => {
    fc.assert(
      fc.property(amount, amount, decimalsArb, (a, b, d) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        // Rank in half smallest units: the tiny form sits strictly between 0 and the first shown amount.
        const value = (v: bigint) => {
          const display = formatAmount(v, d, { grouping: false });
          return display.startsWith('<') ? 1n : 2n * atScale(display, d);
        };
        expect(value(lo) <= value(hi)).toBe(true);
      }),
    );
  });

  it('shows at most maxSignificant significant digits below 1', () => {
    fc.assert(
      fc.property(
        amount,
        fc.integer({ min: 1, max: 36 }),
        fc.integer({ min: 1, max: 12 }),
        (x, d, maxSignificant) => {
          const display = formatAmount(x, d, { maxSignificant, minDisplay: '0' });
          if (!display.startsWith('0.')) return;
          expect(display.slice(2).replace(/^0+/, '').length).toBeLessThanOrEqual(maxSignificant);
        },
      ),
    );
  });
});

describe('bigMin / bigMax', () => {
  it('pick the smaller and the larger of any two bigints, beyond Number precision', () => {
    fc.assert(
      fc.property(fc.bigInt(), fc.bigInt(), (a, b) => {
        const [low, high] = a < b ? [a, b] : [b, a];
        expect([bigMin(a, b), bigMax(a, b)]).toEqual([low, high]);
      }),
    );
    expect(bigMin(MAX_UINT256, MAX_UINT256 - 1n)).toBe(MAX_UINT256 - 1n);
    expect(bigMax(-1n, 0n)).toBe(0n);
  });
});
