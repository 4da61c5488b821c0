// Smallest units -> text. Two forms: exact (input fields, round-trips through parseAmount) and
// display (truncated toward zero, never rounded up: a wallet must not show more than the user has).
import { isValidDecimals, MAX_TOKEN_DECIMALS, parseAmount } from './parse';

export interface FormatAmountOptions {
  /**
   * Significant digits shown for amounts below 1 (leading zeros don't count): 0.000123456789 -> 0.000123456.
   * For amounts of 1 or more it is the budget for integer + fraction digits; integer digits are never
   * dropped, so the fraction gets what is left, but never less than `minFractionDigits`. Default 6.
   */
  maxSignificant?: number;
  /**
   * Smallest non-zero magnitude shown as digits, as a decimal string. Anything non-zero below it renders
   * as `<0.000001` (so 1 wei never reads as 0). '0' turns the tiny form off. Default '0.000001'.
   */
  minDisplay?: string;
  /**
   * Fraction digits an amount of 1 or more may always keep, even when the integer part uses up
   * `maxSignificant`: 1234567.891234 -> 1,234,567.89. Trailing zeros are still trimmed. Default 2.
   */
  minFractionDigits?: number;
  /** Thousands separators (`,`) in the integer part. Default true. */
  grouping?: boolean;
}

const DEFAULT_MAX_SIGNIFICANT = 6;
const DEFAULT_MIN_DISPLAY = '0.000001';
const DEFAULT_MIN_FRACTION_DIGITS = 2;

/**
 * Exact decimal string of `value` smallest units: no grouping, no truncation, trailing fractional
 * zeros trimmed, no trailing point (`1500000n, 6` -> `1.5`; `0n` -> `0`). Negative values get a `-`.
 * Throws RangeError for decimals outside 0..255 (a programming error, not user input).
 */
export function toDecimalString(value: bigint, decimals: number): string {
  assertDecimals(decimals);
  const negative = value < 0n;
  const { int, frac } = splitUnits(negative ? -value : value, decimals);
  const fracTrimmed = frac.replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${fracTrimmed ? `.${fracTrimmed}` : ''}`;
}

/**
 * The exact amount for an input field (e.g. after Max): `parseAmount(formatAmountExact(x, d), d)`
 * gives back exactly `x` for every 0 <= x <= 2^256-1.
 */
export function formatAmountExact(value: bigint, decimals: number): string {
  return toDecimalString(value, decimals);
}

/**
 * Human display: significant-digit truncation toward zero, thousands separators, trailing zeros
 * trimmed, `0` for zero and `<0.000001` for non-zero amounts too small to show.
 * Examples (defaults): 1234567.891234 USDC -> `1,234,567.89`; 0.000123456789 ETH -> `0.000123456`;
 * 12.3456789 -> `12.3456`; 1 wei -> `<0.000001`.
 * Negative values show the magnitude's display with a `-` (still truncated toward zero); a tiny
 * negative shows as `>-0.000001`. Throws RangeError for invalid decimals or options.
 */
export function formatAmount(value: bigint, decimals: number, options: FormatAmountOptions = {}): string {
  assertDecimals(decimals);
  const maxSignificant = options.maxSignificant ?? DEFAULT_MAX_SIGNIFICANT;
  const minFractionDigits = options.minFractionDigits ?? DEFAULT_MIN_FRACTION_DIGITS;
  const grouping = options.grouping ?? true;
  if (!Number.isInteger(maxSignificant) || maxSignificant < 1) {
    throw new RangeError(`maxSignificant must be a positive integer (got ${maxSignificant})`);
  }
  if (!Number.isInteger(minFractionDigits) || minFractionDigits < 0) {
    throw new RangeError(`minFractionDigits must be a non-negative integer (got ${minFractionDigits})`);
  }
  const min = minDisplayOf(options.minDisplay);

  if (value === 0n) return '0';
  const negative = value < 0n;
  const magnitude = negative ? -value : value;

  // Compare at a common scale: magnitude / 10^decimals < min.units / 10^min.scale.
  if (magnitude * 10n ** BigInt(min.scale) < min.units * 10n ** BigInt(decimals)) {
    const shown = group(min.text, grouping);
    return negative ? `>-${shown}` : `<${shown}`;
  }

  const { int, frac } = splitUnits(magnitude, decimals);
  let fracShown: string;
  if (int !== '0') {
    fracShown = frac.slice(0, Math.max(maxSignificant - int.length, minFractionDigits));
  } else {
    // Below 1: count significant digits from the first non-zero one (frac has one, magnitude > 0).
    const firstNonZero = frac.search(/[1-9]/);
    fracShown = frac.slice(0, firstNonZero + maxSignificant);
  }
  fracShown = fracShown.replace(/0+$/, '');
  return `${negative ? '-' : ''}${group(int, grouping)}${fracShown ? `.${fracShown}` : ''}`;
}

function assertDecimals(decimals: number): void {
  if (!isValidDecimals(decimals)) {
    throw new RangeError(`decimals must be an integer from 0 to ${MAX_TOKEN_DECIMALS} (got ${decimals})`);
  }
}

/** Integer digits (no leading zeros, `0` when none) and exactly `decimals` fraction digits. */
function splitUnits(magnitude: bigint, decimals: number): { int: string; frac: string } {
  const digits = magnitude.toString().padStart(decimals + 1, '0');
  const cut = digits.length - decimals;
  return { int: digits.slice(0, cut), frac: digits.slice(cut) };
}

/** Thousands separators in the integer part of a plain decimal string. */
function group(text: string, grouping: boolean): string {
  if (!grouping) return text;
  const point = text.indexOf('.');
  const int = point === -1 ? text : text.slice(0, point);
  const rest = point === -1 ? '' : text.slice(point);
  return `${int.replace(/\B(?=(\d{3})+$)/g, ',')}${rest}`;
}

interface MinDisplay {
  units: bigint;
  scale: number;
  text: string;
}

const defaultMinDisplay = parseMinDisplay(DEFAULT_MIN_DISPLAY);

function minDisplayOf(minDisplay: string | undefined): MinDisplay {
  return minDisplay === undefined ? defaultMinDisplay : parseMinDisplay(minDisplay);
}

function parseMinDisplay(minDisplay: string): MinDisplay {
  const fractionLength = minDisplay.trim().split('.')[1]?.length ?? 0;
  const scale = Math.min(fractionLength, MAX_TOKEN_DECIMALS);
  const parsed = parseAmount(minDisplay, scale);
  if (!parsed.ok) {
    throw new RangeError(`minDisplay must be a non-negative decimal string (${parsed.error.message})`);
  }
  return { units: parsed.value, scale, text: toDecimalString(parsed.value, scale) };
}
