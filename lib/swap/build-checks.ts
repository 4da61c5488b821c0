// Check 3 of docs/ARCHITECTURE.md ("Before anything is signed") (plus 1 and 2 again, on the quote the build was made from),
// run before anything is signed. Pure, no I/O: the caller reads the router pin.
import { type Address, getAddress } from 'viem';
import type { UserMessage } from '@/lib/api/messages';
import {
  type BuildResult,
  isNativeToken,
  type Quote,
  type QuoteRequest,
  sameAddress,
} from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import { checkSwapCall, decodeSwapCall, type SwapArgField } from './calldata';
import { type VerifyFailure, verifyFailureMessage, verifyQuote } from './verify';

export type CalldataField = SwapArgField;

export type BuildCheckFailure =
  | { code: 'QUOTE_MISMATCH'; verify: VerifyFailure }
  | { code: 'CALLDATA_EMPTY' }
  | { code: 'CALLDATA_MALFORMED' }
  /** No router family Swaplane knows reads this call, and the user's setting refuses such calls. */
  | { code: 'CALLDATA_UNREADABLE'; selector: string }
  | { code: 'VALUE_MISMATCH'; expected: string; actual: string }
  | { code: 'CALLDATA_MISMATCH'; field: CalldataField; expected: string; actual: string }
  /** Consent, not an error: the first router seen on this chain. */
  | { code: 'ROUTER_UNPINNED'; router: Address }
  /** Consent, not an error: a router other than the pinned one. */
  | { code: 'ROUTER_CHANGED'; router: Address; pinned: Address };

export interface CalldataVerdict {
  /** The call was decoded and its arguments checked against the quote. */
  readable: boolean;
  /** Which router family decoded it, e.g. 'swaplane-router' or 'uniswap-v2-router02'. */
  family: string | null;
}

export type BuildCheckResult =
  | {
      ok: true;
      router: Address;
      /** The user consented to this router now: pin it. */
      pin: boolean;
      calldata: CalldataVerdict;
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
  /**
   * Calls no known router family reads: 'refuse' (the setting "Only sign swap calls Swaplane can
   * read", the default) or 'allow' (then only an asset-change simulation and the user's explicit
   * acknowledgement let it through; the caller enforces both).
   */
  unreadable?: 'refuse' | 'allow';
  /** Seconds since epoch, for the call's deadline. */
  nowSeconds?: number;
}

const fail = (reason: BuildCheckFailure): BuildCheckResult => ({ ok: false, reason });

export function isConsentReason(
  reason: BuildCheckFailure,
): reason is Extract<BuildCheckFailure, { code: 'ROUTER_UNPINNED' | 'ROUTER_CHANGED' }> {
  return reason.code === 'ROUTER_UNPINNED' || reason.code === 'ROUTER_CHANGED';
}

/** Checks 1-2 of the quote, then the build's data and value, and last the router (consent). */
export function checkBuild(input: BuildCheckInput): BuildCheckResult {
  const { request, quote, build } = input;
  const verdict = verifyQuote(request, quote);
  if (!verdict.ok) return fail({ code: 'QUOTE_MISMATCH', verify: verdict.reason });

  const data = build.transaction;
  if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(data))
    return fail({ code: 'CALLDATA_MALFORMED' });
  if (data.length < 10) return fail({ code: 'CALLDATA_EMPTY' }); // not even a selector

  const expectedValue = isNativeToken(quote.inToken) ? BigInt(quote.inAmount) : 0n;
  const value = /^(0|[1-9][0-9]*)$/.test(build.value) ? BigInt(build.value) : null;
  if (value !== expectedValue) {
    return fail({ code: 'VALUE_MISMATCH', expected: expectedValue.toString(), actual: String(build.value) });
  }

  const wrapped = getChain(quote.chainId)?.wrappedNative ?? '0x0000000000000000000000000000000000000000';
  const decoded = decodeSwapCall(data as `0x${string}`, wrapped);
  let calldata: CalldataVerdict = { readable: false, family: null };
  if (decoded.kind === 'malformed') return fail({ code: 'CALLDATA_MALFORMED' });
  if (decoded.kind === 'decoded') {
    const nowSeconds = input.nowSeconds ?? Math.floor(Date.now() / 1000);
    const mismatch = checkSwapCall(decoded.swap, quote, input.account, nowSeconds);
    if (mismatch) return fail({ code: 'CALLDATA_MISMATCH', ...mismatch });
    calldata = { readable: true, family: decoded.swap.family };
  } else if ((input.unreadable ?? 'refuse') === 'refuse') {
    return fail({ code: 'CALLDATA_UNREADABLE', selector: data.slice(0, 10) });
  }

  const router = getAddress(build.to);
  const pinned = input.pinnedRouter ? getAddress(input.pinnedRouter) : undefined;
  if (pinned && sameAddress(pinned, router)) return { ok: true, router, pin: false, calldata };
  if (input.consentRouter && sameAddress(input.consentRouter, router)) {
    return { ok: true, router, pin: true, calldata };
  }
  return fail(pinned ? { code: 'ROUTER_CHANGED', router, pinned } : { code: 'ROUTER_UNPINNED', router });
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
    case 'CALLDATA_UNREADABLE':
      return {
        title: 'Swap call cannot be read',
        detail: `The swap service asked to sign a call (${reason.selector}) that Swaplane cannot read, so it cannot check where your tokens go.`,
        action:
          'Nothing was signed. Swaplane only signs swap calls it can read (Settings: "Only sign swap calls Swaplane can read").',
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
            : reason.field === 'deadline'
              ? 'Its deadline is not within the next few minutes.'
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
        detail: `On this network the swap service now uses the contract ${reason.router}, not ${reason.pinned}, the one you trusted for it. A changed contract is how a hacked service would take funds.`,
        action:
          'Cancel unless the service told you its contract changed; trusting the new one is a separate, deliberate step.',
      };
  }
}
