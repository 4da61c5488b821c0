// Check 3 of docs/ARCHITECTURE.md ("Before anything is signed") (plus 1 and 2 again, on the quote the build was made from),
// run before anything is signed. Pure, no I/O: the caller reads the router pin.
import { type Address, decodeFunctionData, getAbiItem, getAddress, type Hex, toFunctionSelector } from 'viem';
import type { UserMessage } from '@/lib/api/messages';
import {
  type BuildResult,
  isNativeToken,
  type Quote,
  type QuoteRequest,
  sameAddress,
} from '@/lib/api/schema';
import { ROUTER_SWAP_ABI } from './router-abi';
import {
  type VerifyFailure,
  verifyFailureMessage,
  verifyMinReceived,
  verifyQuoteAnswersRequest,
} from './verify';

export type CalldataField = 'inToken' | 'outToken' | 'inAmount' | 'minReceived' | 'recipient';

export type BuildCheckFailure =
  | { code: 'QUOTE_MISMATCH'; verify: VerifyFailure }
  | { code: 'CALLDATA_EMPTY' }
  | { code: 'CALLDATA_MALFORMED' }
  | { code: 'VALUE_MISMATCH'; expected: string; actual: string }
  | { code: 'CALLDATA_MISMATCH'; field: CalldataField; expected: string; actual: string }
  /** Consent, not an error: the first router seen on this chain. */
  | { code: 'ROUTER_UNPINNED'; router: Address }
  /** Consent, not an error: a router other than the pinned one. */
  | { code: 'ROUTER_CHANGED'; router: Address; pinned: Address };

export type BuildCheckResult =
  | {
      ok: true;
      router: Address;
      /** The user consented to this router now: pin it. */
      pin: boolean;
      /** Whether the calldata was recognised as the router's `swap` and its arguments checked. */
      calldata: 'router-swap' | 'unknown';
    }
  | { ok: false; reason: BuildCheckFailure };

export interface BuildCheckInput {
  request: QuoteRequest;
  quote: Quote;
  build: BuildResult;
  /** Who signs: the swap's output must go to this account. */
  account: string;
  pinnedRouter: string | undefined;
  /** A router address the user has just consented to. */
  consentRouter?: string;
}

const SWAP_SELECTOR = toFunctionSelector(getAbiItem({ abi: ROUTER_SWAP_ABI, name: 'swap' }));
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

const fail = (reason: BuildCheckFailure): BuildCheckResult => ({ ok: false, reason });

export function isConsentReason(
  reason: BuildCheckFailure,
): reason is Extract<BuildCheckFailure, { code: 'ROUTER_UNPINNED' | 'ROUTER_CHANGED' }> {
  return reason.code === 'ROUTER_UNPINNED' || reason.code === 'ROUTER_CHANGED';
}

/** Checks 1-2 of the quote, then the build's data and value, and last the router (consent). */
export function checkBuild(input: BuildCheckInput): BuildCheckResult {
  const { request, quote, build } = input;
  const answers = verifyQuoteAnswersRequest(request, quote);
  if (!answers.ok) return fail({ code: 'QUOTE_MISMATCH', verify: answers.reason });
  const min = verifyMinReceived(quote);
  if (!min.ok) return fail({ code: 'QUOTE_MISMATCH', verify: min.reason });

  const data = build.transaction;
  if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(data))
    return fail({ code: 'CALLDATA_MALFORMED' });
  if (data.length < 10) return fail({ code: 'CALLDATA_EMPTY' }); // not even a selector

  const expectedValue = isNativeToken(quote.inToken) ? BigInt(quote.inAmount) : 0n;
  const value = /^(0|[1-9][0-9]*)$/.test(build.value) ? BigInt(build.value) : null;
  if (value !== expectedValue) {
    return fail({ code: 'VALUE_MISMATCH', expected: expectedValue.toString(), actual: String(build.value) });
  }

  let calldata: 'router-swap' | 'unknown' = 'unknown';
  if (data.slice(0, 10).toLowerCase() === SWAP_SELECTOR) {
    const mismatch = checkSwapArguments(data as Hex, quote, input.account);
    if (mismatch) return fail(mismatch);
    calldata = 'router-swap';
  }

  const router = getAddress(build.to);
  const pinned = input.pinnedRouter ? getAddress(input.pinnedRouter) : undefined;
  if (pinned && sameAddress(pinned, router)) return { ok: true, router, pin: false, calldata };
  if (input.consentRouter && sameAddress(input.consentRouter, router)) {
    return { ok: true, router, pin: true, calldata };
  }
  return fail(pinned ? { code: 'ROUTER_CHANGED', router, pinned } : { code: 'ROUTER_UNPINNED', router });
}

/**
 * The router's `swap` arguments must be the quote's: same tokens and amount, a minimum at least
 * the quote's (a higher one only protects the user more), and the output paid to the signer.
 */
function checkSwapArguments(data: Hex, quote: Quote, account: string): BuildCheckFailure | null {
  let args: readonly unknown[];
  try {
    args = decodeFunctionData({ abi: ROUTER_SWAP_ABI, data }).args ?? [];
  } catch {
    return { code: 'CALLDATA_MALFORMED' };
  }
  const [inToken, outToken, inAmount, minReceived, , recipient] = args as [
    string,
    string,
    bigint,
    bigint,
    unknown,
    string,
  ];
  const mismatch = (field: CalldataField, expected: string, actual: string): BuildCheckFailure => ({
    code: 'CALLDATA_MISMATCH',
    field,
    expected,
    actual,
  });
  if (!sameAddress(inToken, quote.inToken)) return mismatch('inToken', quote.inToken, inToken);
  if (!sameAddress(outToken, quote.outToken)) return mismatch('outToken', quote.outToken, outToken);
  if (inAmount !== BigInt(quote.inAmount)) return mismatch('inAmount', quote.inAmount, inAmount.toString());
  if (minReceived < BigInt(quote.minReceived)) {
    return mismatch('minReceived', quote.minReceived, minReceived.toString());
  }
  if (!sameAddress(recipient, ZERO_ADDRESS) && !sameAddress(recipient, account)) {
    return mismatch('recipient', account, recipient);
  }
  return null;
}

/** Words for a refused build. Consent reasons get a question, not an error. */
export function buildCheckMessage(reason: BuildCheckFailure): UserMessage {
  const action = 'Nothing was signed. Get a new quote; if this repeats, check the swap service in Settings.';
  switch (reason.code) {
    case 'QUOTE_MISMATCH':
      return verifyFailureMessage(reason.verify);
    case 'CALLDATA_EMPTY':
    case 'CALLDATA_MALFORMED':
      return {
        title: 'Swap transaction is malformed',
        detail: 'The swap service returned a transaction without valid call data.',
        action,
      };
    case 'VALUE_MISMATCH':
      return {
        title: 'Swap transaction sends the wrong amount',
        detail: 'The coin amount attached to the transaction does not match the swap.',
        action,
      };
    case 'CALLDATA_MISMATCH':
      return {
        title: 'Swap transaction does not match the quote',
        detail:
          reason.field === 'recipient'
            ? 'The transaction would pay the output to another address.'
            : `Its ${reason.field} differs from the quote you confirmed.`,
        action,
      };
    case 'ROUTER_UNPINNED':
      return {
        title: 'Trust this swap contract?',
        detail: `This is the first swap on this network. The swap service uses the contract ${reason.router}.`,
        action: 'Confirm to trust it for future swaps on this network, or cancel.',
      };
    case 'ROUTER_CHANGED':
      return {
        title: 'Swap contract changed',
        detail: `The swap service now uses ${reason.router} instead of the trusted ${reason.pinned}.`,
        action: 'Only confirm if you expected this change (for example, you switched swap service).',
      };
  }
}
