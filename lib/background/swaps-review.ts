// The swap service's review and start steps as plain functions (lib/background/swaps.ts): the
// frozen review a preview opens, what a start signs from it, and what follows a settled swap.
import type { Address, LocalAccount } from 'viem';
import type { QuoteRequest } from '@/lib/api/schema';
import { publicClientFor } from '@/lib/rpc/network';
import type { SwapState } from '@/lib/state/pipeline-state';
import { type PreparedSwap, preparedSwapOf, storedPreparedSwap } from '@/lib/state/prepared-swap';
import { preparedSwapItem, recentTokensItem } from '@/lib/storage/items';
import type { SwapInput } from '@/lib/swap/execute';
import { type ProbeResult, swapFeeProbe } from '@/lib/swap/fee-probe';
import type { ReviewedPlan } from '@/lib/swap/funnel';
import { swapGasMemory } from '@/lib/swap/network-fee';
import { prepareSwap, previewOf, swapPlanOf } from '@/lib/swap/prepare';
import { WARNING_CODES } from '@/lib/swap/preview-words';
import { requestFor } from '@/lib/swap/request';
import { checkStart, type FrozenReview, REVIEW_LIFETIME_MS } from '@/lib/swap/review-binding';
import { createRouterPins, type RouterPins } from '@/lib/swap/router-pins';
import { QUOTE_OUTDATED_REASON } from '@/lib/swap/session';
import { withRecent } from '@/lib/tokens/recent';
import { CodedError } from './errors';
import { funnelErrors } from './signing';
import type { StartSwapOptions, SwapServiceDeps } from './swaps-deps';

/** The open review: its prepared swap is the only one a start signs; `release` lets the session refresh. */
export type OpenReview = FrozenReview & {
  request: QuoteRequest;
  release: () => void;
  /** What the review shows and a start signs (kept here, not sent to views: it holds bigints). */
  prepared: PreparedSwap;
  /** The swap's funnel ticket: a start takes it once (lib/swap/funnel.ts). */
  ticketId: string;
};

/** Keyed by the service in use: the background's own settings, not a storage read per lookup. */
export function routerPinsFor(deps: SwapServiceDeps): RouterPins {
  return createRouterPins(
    undefined,
    undefined,
    () => new URL(deps.settings().serviceBaseUrl).origin,
    deps.onTrustWrite,
  );
}

/**
 * Builds, checks and simulates the session's quote, and holds the session (no refresh) until the
 * review expires. On failure the hold is released, and an outdated quote is marked for a new one.
 */
export async function openReview(
  deps: SwapServiceDeps,
  pins: RouterPins,
  approvalMode: 'exact' | 'unlimited',
): Promise<OpenReview> {
  const session = deps.session.getState();
  if (!session.input || !session.quote || session.status !== 'ready') {
    throw new CodedError('NO_QUOTE', 'Get a quote before you review a swap.');
  }
  const account = await deps.wallet.activeSigner();
  const chainId = session.input.chainId;
  const request = requestFor(session.input, deps.settings().refCode);
  const expiresAt = reviewExpiry(Date.now(), session.receivedAt, deps.session.quoteLifetimeMs);
  const release = deps.session.hold(expiresAt);
  try {
    const preparing = prepareSwap({
      client: publicClientFor(chainId, deps.settings()),
      api: deps.api(),
      pinnedRouter: () => pins.get(chainId),
      facts: deps.facts,
      chainId,
      from: account.address,
      request,
      quote: session.quote,
      approvalMode,
      unreadable: deps.settings().onlyReadableCalldata === false ? 'allow' : 'refuse',
      expiresAt,
      ceiling: deps.signing.ceilingFor(chainId),
    });
    // The swap screen's fee of this quote is the review's own (a look meanwhile builds nothing more).
    swapFeeProbe.share(session.quote, account.address, preparing.then(reviewedGas));
    const prepared = await preparing;
    // The swap screen's next fee for a route of this shape uses the gas the review shows.
    void swapGasMemory.remember(session.quote, prepared.coverage.swapGas);
    const review = reviewOf(deps, prepared, release);
    // Kept for a worker restart before the review is shown: it confirms after one too.
    await preparedSwapItem.set(storedPreparedSwap(prepared));
    return review;
  } catch (error) {
    release();
    // The service says the quote is outdated: fetch a new one for the user to review.
    if ((error as { code?: unknown }).code === 'QUOTE_OUTDATED') {
      deps.session.markOutdated(QUOTE_OUTDATED_REASON);
    }
    // The fee ceiling refuses with its own code and words.
    return funnelErrors(() => {
      throw error;
    });
  }
}

/** The gas the review simulated (its assets simulation), as the swap screen's fee uses it. */
function reviewedGas(prepared: PreparedSwap): ProbeResult | null {
  const { coverage, call } = prepared;
  if (coverage.kind !== 'assets') return null;
  return { swap: coverage.swapGas, approvals: coverage.approvalGas, router: call.to as Address };
}

/** Removes the stored prepared swap if it is still this one (a newer review may have replaced it). */
export async function forgetStored(id: string): Promise<void> {
  const read = await preparedSwapItem.read().catch(() => null);
  if (read?.ok && read.value?.id === id) await preparedSwapItem.remove().catch(() => undefined);
}

/** The review of a prepared swap: its words, and its funnel plan (the fee the review shows). */
function reviewOf(deps: SwapServiceDeps, prepared: PreparedSwap, release: () => void): OpenReview {
  const { funnel } = deps.signing;
  const ticket = funnelErrors(() =>
    funnel.review(swapPlanOf(prepared), {
      shownFee: prepared.shownFees.swap,
      expiresAt: prepared.expiresAt,
    }),
  );
  return {
    preview: previewOf(prepared),
    approvalMode: prepared.approvalMode,
    request: prepared.request,
    prepared,
    ticketId: ticket.id,
    release: () => {
      release();
      funnel.drop(ticket.id);
      void forgetStored(prepared.id);
    },
  };
}

/**
 * The review that was open when the worker stopped (storage.session, parsed again), with a new
 * funnel ticket; null when none was open. One that cannot be read is refused in plain words.
 */
export async function reopenReview(deps: SwapServiceDeps): Promise<OpenReview | null> {
  const read = await preparedSwapItem.read();
  let prepared: PreparedSwap | null = null;
  try {
    if (read.ok && read.value) prepared = preparedSwapOf(read.value);
  } catch {
    // Parsed as stored but not as read back (an amount out of range): as unreadable.
  }
  if (!read.ok || (read.value && !prepared)) {
    await preparedSwapItem.remove().catch(() => undefined);
    throw new CodedError(
      'REVIEW_UNREADABLE',
      'Swaplane restarted and could not read back the review you opened. Nothing was signed: review the swap again.',
    );
  }
  if (!prepared) return null;
  return reviewOf(deps, prepared, deps.session.hold(prepared.expiresAt));
}

/**
 * The open review, one at a time: a preview opens it (closing the one before), a start signs it, and
 * after a worker restart the one open then is read back once (`reopen`).
 */
export function reviewSlot(deps: SwapServiceDeps) {
  let review: OpenReview | null = null;
  let reopened: Promise<void> | null = null;
  /** A review opened by this worker: any stored one is then this worker's (open or closed). */
  let opened = false;
  return {
    current: () => review,
    open(next: OpenReview): void {
      opened = true;
      review?.release();
      review = next;
    },
    close(): void {
      review?.release();
      review = null;
    },
    /** Reads back the review of before a restart; shared by concurrent starts, done once. */
    async reopen(): Promise<void> {
      if (review || opened) return;
      reopened ??= reopenReview(deps).then(
        (found) => {
          review ??= found;
        },
        (error: unknown) => {
          reopened = null;
          throw error;
        },
      );
      await reopened;
    },
  };
}

/**
 * When the review stops accepting Confirm: its own lifetime, never past the quote's (the moment the
 * session marks the quote too old to execute), so its countdown never promises more than the quote has.
 */
export function reviewExpiry(now: number, receivedAt: number | null, quoteLifetimeMs: number): number {
  const own = now + REVIEW_LIFETIME_MS;
  return receivedAt === null ? own : Math.min(own, receivedAt + quoteLifetimeMs);
}

/** One swap at a time: a preview or a start waits until the running swap settles. */
export function requireIdle(running: boolean): void {
  if (running)
    throw new CodedError('SWAP_IN_PROGRESS', 'A swap is already in progress: wait for it to finish.');
}

/** The review a start may sign, or why not (nothing is signed then). */
export function reviewToStart(review: OpenReview | null, options: StartSwapOptions): OpenReview {
  const refused = checkStart(review, options, Date.now());
  if (refused) throw new CodedError(refused.code, refused.message);
  if (!review) throw new CodedError('NO_QUOTE', 'Get a quote before you swap.');
  return review;
}

/** What a start runs: the reviewed quote only; unreadable calldata only if acknowledged and simulated. */
export function swapInputFor(
  review: OpenReview,
  options: StartSwapOptions,
  account: LocalAccount,
  signing?: { ticket: ReviewedPlan; signer: () => Promise<LocalAccount> },
): SwapInput {
  const { preview, request } = review;
  const unreadableAccepted = (options.acknowledged ?? []).includes(WARNING_CODES.unreadable);
  const routerConsent = trustTicked(review, options) ? preview.transaction.to : options.routerConsent;
  return {
    chainId: request.chainId,
    account,
    request,
    quote: preview.quote,
    // The reviewed bytes: signed as shown (checked again), no second build.
    prepared: review.prepared,
    ...(signing ? { ticket: signing.ticket, signer: signing.signer } : {}),
    approvalMode: options.approvalMode,
    unreadable: unreadableAccepted && preview.simulation.kind === 'assets' ? 'allow' : 'refuse',
    ...(routerConsent ? { routerConsent } : {}),
  };
}

/**
 * The review asked the user to trust its router (a first swap, or a changed router) and the start
 * carries that tick: the swap pins the reviewed router as it signs, with no question after Confirm.
 */
function trustTicked(review: OpenReview, options: StartSwapOptions): boolean {
  const status = review.preview.routerTrust?.status;
  if (status !== 'new' && status !== 'changed') return false;
  const code = status === 'new' ? WARNING_CODES.routerNew : WARNING_CODES.routerChanged;
  return (options.acknowledged ?? []).includes(code);
}

/** What follows a swap's end: a notification, and a moved price quoted again. */
export function settlerFor(deps: SwapServiceDeps): (state: SwapState) => void {
  return (state) => {
    if (state.status === 'confirmed') {
      deps.notify?.('Swap confirmed', 'Your swap went through. Open Swaplane for the details.');
    } else if (state.status === 'failed' && state.failure?.anythingSent) {
      deps.notify?.('Swap failed', state.failure.message.title);
    }
    if (state.failure?.code === 'QUOTE_OUTDATED' || state.failure?.code === 'PRICE_CHANGED') {
      deps.session.markOutdated(QUOTE_OUTDATED_REASON);
    }
  };
}

/** The picker offers tokens swapped lately first (best effort: never delays a swap). */
export async function rememberTokens(chainId: number, tokens: string[]): Promise<void> {
  const all = await recentTokensItem.get().catch(() => ({}) as Record<string, string[]>);
  let list = all[String(chainId)] ?? [];
  for (const token of tokens.slice().reverse()) list = withRecent(list, token);
  await recentTokensItem.set({ ...all, [String(chainId)]: list }).catch(() => undefined);
}
