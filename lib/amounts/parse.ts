// User input -> exact amount in the token's smallest unit.
// Pure string arithmetic into bigint: going through Number would silently lose digits past 2^53.

/** The largest amount an ERC-20 balance (uint256) can hold, in smallest units. */
export const MAX_UINT256 = (1n << 256n) - 1n;

/** ERC-20 `decimals()` is a uint8. */
export const MAX_TOKEN_DECIMALS = 255;

/** 2^256 - 1 has 78 digits: anything with more significant digits is too large without computing it. */
const MAX_UINT256_DIGITS = 78;

export type AmountError =
  | { readonly code: 'EMPTY'; readonly message: string }
  | { readonly code: 'NEGATIVE'; readonly message: string }
  | { readonly code: 'EXPONENT'; readonly message: string }
  | { readonly code: 'TOO_MANY_DECIMALS'; readonly message: string; readonly maxDecimals: number }
  | { readonly code: 'MULTIPLE_POINTS'; readonly message: string }
  | { readonly code: 'INVALID_CHARACTERS'; readonly message: string; readonly character: string }
  | { readonly code: 'TOO_LARGE'; readonly message: string }
  | { readonly code: 'INVALID_DECIMALS'; readonly message: string; readonly decimals: unknown };

export type AmountErrorCode = AmountError['code'];

export type ParseAmountResult =
  | { readonly ok: true; readonly value: bigint }
  | { readonly ok: false; readonly error: AmountError };

/** Thrown by `fromDecimalString`, for strings that are supposed to be valid already. */
export class AmountParseError extends Error {
  override readonly name = 'AmountParseError';
  readonly error: AmountError;
  constructor(error: AmountError) {
    super(error.message);
    this.error = error;
  }
}

/** True for an integer in 0..255 (the range of ERC-20 `decimals()`). */
export function isValidDecimals(decimals: unknown): decimals is number {
  return (
    typeof decimals === 'number' &&
    Number.isInteger(decimals) &&
    decimals >= 0 &&
    decimals <= MAX_TOKEN_DECIMALS
  );
}

// Scientific notation, including half-typed forms like `1e`: worth its own message, not "invalid 'e'".
// Written so no two branches can match the same digits: a long pasted number must stay linear-time.
const EXPONENT_RE = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][+-]?[0-9]*$/;

/**
 * Parse a user-typed decimal amount into smallest units.
 *
 * Accepted: digits with at most one `.` and at least one digit (`1`, `1.5`, `.5`, `1.`, `007`),
 * surrounding whitespace trimmed. Trailing fractional zeros beyond the token's decimals are accepted
 * (`1.500` for a 1-decimal token) because they do not change the value; only non-zero digits past the
 * token's precision are TOO_MANY_DECIMALS. A lone `.` is EMPTY (nothing entered yet), not an error
 * worth shouting about while the user is typing `.5`. Never throws.
 */
export function parseAmount(input: string, decimals: number): ParseAmountResult {
  if (!isValidDecimals(decimals)) {
    return fail({
      code: 'INVALID_DECIMALS',
      decimals,
      message: `Token decimals must be a whole number from 0 to ${MAX_TOKEN_DECIMALS} (got ${describeValue(decimals)}).`,
    });
  }
  if (typeof input !== 'string') {
    return fail({ code: 'EMPTY', message: 'Enter an amount.' });
  }
  const text = input.trim();
  if (text === '') return fail({ code: 'EMPTY', message: 'Enter an amount.' });

  // U+2212 is the typographic minus that some keyboards and copy-pastes produce.
  if (text.startsWith('-') || text.startsWith('\u2212')) {
    return fail({ code: 'NEGATIVE', message: "The amount can't be negative." });
  }
  if (/[eE]/.test(text) && EXPONENT_RE.test(text)) {
    return fail({
      code: 'EXPONENT',
      message: "Scientific notation (like 1e18) isn't supported: type the number in full.",
    });
  }
  // Iterate by code point so an astral character is named whole, not as half a surrogate pair.
  for (const ch of text) {
    if ((ch >= '0' && ch <= '9') || ch === '.') continue;
    return fail({ code: 'INVALID_CHARACTERS', character: ch, message: invalidCharacterMessage(ch) });
  }

  const parts = text.split('.');
  if (parts.length > 2) {
    return fail({ code: 'MULTIPLE_POINTS', message: 'An amount can have only one decimal point.' });
  }
  const intRaw = parts[0] ?? '';
  const fracRaw = parts[1] ?? '';
  if (intRaw === '' && fracRaw === '') {
    return fail({ code: 'EMPTY', message: 'Enter an amount: a decimal point alone is not a number.' });
  }

  const frac = stripTrailingZeros(fracRaw);
  if (frac.length > decimals) {
    return fail({
      code: 'TOO_MANY_DECIMALS',
      maxDecimals: decimals,
      message:
        decimals === 0
          ? 'This token has no decimal places: enter a whole number.'
          : `This token allows at most ${decimals} decimal place${decimals === 1 ? '' : 's'}.`,
    });
  }

  const int = stripLeadingZeros(intRaw);
  // Cheap bound first so a pasted megabyte of digits never reaches BigInt.
  if (int.length > 0 && int.length - 1 + decimals >= MAX_UINT256_DIGITS) return tooLarge();
  const value = BigInt(`${int}${frac.padEnd(decimals, '0')}` || '0');
  if (value > MAX_UINT256) return tooLarge();
  return { ok: true, value };
}

/**
 * Exact decimal string -> smallest units, throwing `AmountParseError` on anything `parseAmount` rejects.
 * For strings the code already trusts (config, fixtures, our own `toDecimalString` output).
 */
export function fromDecimalString(input: string, decimals: number): bigint {
  const result = parseAmount(input, decimals);
  if (!result.ok) throw new AmountParseError(result.error);
  return result.value;
}

function fail(error: AmountError): ParseAmountResult {
  return { ok: false, error };
}

function tooLarge(): ParseAmountResult {
  return fail({ code: 'TOO_LARGE', message: 'The amount is too large: no token balance can be that big.' });
}

function invalidCharacterMessage(ch: string): string {
  if (ch === ',') {
    return "Commas aren't accepted: use a point (.) for decimals and no thousands separators.";
  }
  if (ch === '+') return "Remove the '+' sign: amounts are written without a sign.";
  return `Invalid character ${describeCharacter(ch)}: use digits 0-9 and at most one decimal point.`;
}

/** Quote visible characters; name invisible ones (spaces, controls, format marks) by code point only. */
function describeCharacter(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (ch === ' ') return 'space (U+0020)';
  if (/[\p{C}\p{Z}]/u.test(ch)) return code;
  if (cp < 0x80) return `'${ch}'`;
  return `'${ch}' (${code})`;
}

function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return typeof value;
}

function stripLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length && digits.charCodeAt(i) === 48) i++;
  return digits.slice(i);
}

function stripTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return digits.slice(0, end);
}
