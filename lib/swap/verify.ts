// Checks 1 and 2 of docs/ARCHITECTURE.md ("Before anything is signed"), run before anything is signed: the quote answers what was
// asked, and `minReceived` really is `outAmount` minus the slippage. Pure, no I/O.
import type { UserMessage } from '@/lib/api/messages';
import { type Quote, type QuoteRequest, sameAddress } from '@/lib/api/schema';

export type VerifyFailure =
  | { code: 'CHAIN_MISMATCH'; expected: number; actual: number }
  | { code: 'TOKEN_IN_MISMATCH'; expected: string; actual: string }
  | { code: 'TOKEN_OUT_MISMATCH'; expected: string; actual: string }
  | { code: 'AMOUNT_MISMATCH'; expected: string; actual: string }
  | { code: 'SLIPPAGE_MISMATCH'; expected: number; actual: number }
  | { code: 'MIN_RECEIVED_ABOVE_OUT'; outAmount: string; minReceived: string }
  | { code: 'MIN_RECEIVED_INCONSISTENT'; expected: string; actual: string }
  /** A value the arithmetic cannot use: amount not a decimal integer, slippage not in [0, 100]. */
  | { code: 'MALFORMED_VALUE'; field: 'outAmount' | 'minReceived' | 'slippage'; value: string };

export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };

const OK: VerifyResult = { ok: true };
const fail = (reason: VerifyFailure): VerifyResult => ({ ok: false, reason });

/** Check 1: chainId, tokens (any letter case), inAmount and slippage are the ones requested. */
export function verifyQuoteAnswersRequest(request: QuoteRequest, quote: Quote): VerifyResult {
  if (quote.chainId !== request.chainId) {
    return fail({ code: 'CHAIN_MISMATCH', expected: request.chainId, actual: quote.chainId });
  }
  if (!sameAddress(quote.inToken, request.inToken)) {
    return fail({ code: 'TOKEN_IN_MISMATCH', expected: request.inToken, actual: quote.inToken });
  }
  if (!sameAddress(quote.outToken, request.outToken)) {
    return fail({ code: 'TOKEN_OUT_MISMATCH', expected: request.outToken, actual: quote.outToken });
  }
  const asked = parseAmount(request.inAmount);
  if (asked === null || asked !== parseAmount(quote.inAmount)) {
    return fail({ code: 'AMOUNT_MISMATCH', expected: request.inAmount, actual: quote.inAmount });
  }
  // Exact number equality is right: a JSON number round-trips to the very same double.
  if (quote.slippage !== request.slippage) {
    return fail({ code: 'SLIPPAGE_MISMATCH', expected: request.slippage, actual: quote.slippage });
  }
  return OK;
}

/**
 * Check 2: minReceived <= outAmount, and minReceived = floor(outAmount * (100 - slippage) / 100)
 * within 1 unit (servers may round either way). All in bigint, slippage scaled to micro-percent.
 */
export function verifyMinReceived(
  quote: Pick<Quote, 'outAmount' | 'minReceived' | 'slippage'>,
): VerifyResult {
  const out = parseAmount(quote.outAmount);
  if (out === null)
    return fail({ code: 'MALFORMED_VALUE', field: 'outAmount', value: String(quote.outAmount) });
  const min = parseAmount(quote.minReceived);
  if (min === null)
    return fail({ code: 'MALFORMED_VALUE', field: 'minReceived', value: String(quote.minReceived) });
  const slippage = scaledSlippage(quote.slippage);
  if (slippage === null)
    return fail({ code: 'MALFORMED_VALUE', field: 'slippage', value: String(quote.slippage) });
  if (min > out) {
    return fail({
      code: 'MIN_RECEIVED_ABOVE_OUT',
      outAmount: quote.outAmount,
      minReceived: quote.minReceived,
    });
  }
  // Larger slippage, smaller minimum: `high` bounds the lowest acceptable value, `low` the highest.
  const highest = minReceivedFor(out, slippage.low);
  const lowest = minReceivedFor(out, slippage.high);
  if (min < lowest - 1n || min > highest + 1n) {
    return fail({
      code: 'MIN_RECEIVED_INCONSISTENT',
      expected: highest.toString(),
      actual: quote.minReceived,
    });
  }
  return OK;
}

/** Slippage in micro-percent: 1 = 0.000001 %, so 100 % = 10^8. */
export const SLIPPAGE_SCALE = 1_000_000n;
const HUNDRED_PERCENT = 100n * SLIPPAGE_SCALE;

/** floor(out * (100 - s) / 100) with s given in micro-percent. */
export function minReceivedFor(out: bigint, slippageMicro: bigint): bigint {
  return (out * (HUNDRED_PERCENT - slippageMicro)) / HUNDRED_PERCENT;
}

/**
 * Slippage as micro-percent bounds [low, high]. The number is read through its shortest decimal
 * form (String(0.1) is "0.1", not the binary value 0.1000000000000000055...), which is what the
 * sender wrote in JSON. Up to 6 decimals it is exact (low = high). A value with more decimals (or
 * in exponent form such as 1e-7) is not representable at this scale: it is bracketed by the two
 * neighbouring micro-percents, and the check accepts any minReceived between their two results
 * (a range narrower than out * 1e-8, plus the 1-unit tolerance), so it neither guesses a rounding
 * nor refuses a service that computes more precisely. Null when not a finite value in [0, 100].
 */
export function scaledSlippage(slippage: number): { low: bigint; high: bigint } | null {
  if (typeof slippage !== 'number' || !Number.isFinite(slippage) || slippage < 0 || slippage > 100)
    return null;
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(slippage));
  if (!match) return null;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const mantissa = BigInt(whole + fraction);
  // value = mantissa * 10^(exponent - fraction.length); scaled = value * 10^6.
  const power = Number(exponent) - fraction.length + 6;
  if (power >= 0) {
    const exact = mantissa * 10n ** BigInt(power);
    return { low: exact, high: exact };
  }
  const divisor = 10n ** BigInt(-power);
  const low = mantissa / divisor;
  return { low, high: mantissa % divisor === 0n ? low : low + 1n };
}

function parseAmount(value: unknown): bigint | null {
  return typeof value === 'string' && /^[0-9]{1,78}$/.test(value) ? BigInt(value) : null;
}

/** Words for a refused quote; amounts stay generic here because this layer does not know decimals. */
export function verifyFailureMessage(reason: VerifyFailure): UserMessage {
  const action = 'Nothing was signed. Get a new quote; if this repeats, check the swap service in Settings.';
  switch (reason.code) {
    case 'CHAIN_MISMATCH':
      return {
        title: 'Quote is for another network',
        detail: `You asked for chain ${reason.expected}, the quote is for chain ${reason.actual}.`,
        action,
      };
    case 'TOKEN_IN_MISMATCH':
      return {
        title: 'Quote sells a different token',
        detail: 'The token you pay does not match your request.',
        action,
      };
    case 'TOKEN_OUT_MISMATCH':
      return {
        title: 'Quote buys a different token',
        detail: 'The token you receive does not match your request.',
        action,
      };
    case 'AMOUNT_MISMATCH':
      return {
        title: 'Quote is for a different amount',
        detail: 'The amount you pay does not match your request.',
        action,
      };
    case 'SLIPPAGE_MISMATCH':
      return {
        title: 'Quote uses a different slippage',
        detail: `You asked for ${reason.expected}% slippage, the quote uses ${reason.actual}%.`,
        action,
      };
    case 'MIN_RECEIVED_ABOVE_OUT':
      return {
        title: 'Quote is inconsistent',
        detail: 'Its minimum received is larger than the expected output.',
        action,
      };
    case 'MIN_RECEIVED_INCONSISTENT':
      return {
        title: 'Minimum received does not match slippage',
        detail: 'The guaranteed minimum is not the expected output minus your slippage.',
        action,
      };
    case 'MALFORMED_VALUE':
      return { title: 'Quote is malformed', detail: `Its ${reason.field} is not a usable value.`, action };
  }
}
