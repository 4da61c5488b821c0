// The swap service's review and start steps as plain functions (lib/background/swaps.ts): the
// frozen review a preview opens, what a start signs from it, and what follows a settled swap.
import type { LocalAccount } from 'viem';
import type { QuoteRequest } from '@/lib/api/schema';
import { publicClientFor } from '@/lib/rpc/network';
import type { SwapState } from '@/lib/state/pipeline-state';
import { recentTokensItem } from '@/lib/storage/items';
import type { AssetSimResult } from '@/lib/swap/asset-sim';
import type { SwapInput } from '@/lib/swap/execute';
import { swapGasMemory } from '@/lib/swap/network-fee';
import { buildPreview } from '@/lib/swap/preview-build';
import { WARNING_CODES } from '@/lib/swap/preview-words';
import { requestFor } from '@/lib/swap/request';
import { checkStart, type FrozenReview, REVIEW_LIFETIME_MS } from '@/lib/swap/review-binding';
import { createRouterPins, type RouterPins } from '@/lib/swap/router-pins';
import { withRecent } from '@/lib/tokens/recent';
import { CodedError } from './errors';
import type { StartSwapOptions, SwapServiceDeps } from './swaps-deps';

/** The open review: its frozen quote is the only one a start signs; `release` lets the session refresh. */
export type OpenReview = FrozenReview & {
  request: QuoteRequest;
  release: () => void;
  /** The review's asset simulation (kept here, not sent to views: it holds bigints). */
  simulated?: AssetSimResult;
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
  let simulated: AssetSimResult | undefined;
  try {
    const preview = await buildPreview(
      {
        client: publicClientFor(chainId, deps.settings()),
        api: deps.api(),
        pinnedRouter: () => pins.get(chainId),
        facts: deps.facts,
        onSimulated: (sim) => {
          simulated = sim;
          // The swap screen's next fee for a route of this shape uses the gas simulated here.
          const swapGas = 'gasUsed' in sim ? sim.gasUsed.at(-1) : undefined;
          if (swapGas !== undefined && session.quote) swapGasMemory.remember(session.quote, swapGas);
        },
      },
      {
        chainId,
        from: account.address,
        request,
        quote: session.quote,
        approvalMode,
        unreadable: deps.settings().onlyReadableCalldata === false ? 'allow' : 'refuse',
        expiresAt,
      },
    );
    return { preview, approvalMode, request, release, ...(simulated ? { simulated } : {}) };
  } catch (error) {
    release();
    // The service says the quote is outdated: fetch a new one for the user to review.
    if ((error as { code?: unknown }).code === 'QUOTE_OUTDATED') {
      deps.session.markOutdated('The price moved: review the new quote.');
    }
    throw error;
  }
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
    preparedBuild: {
      to: preview.transaction.to,
      transaction: preview.transaction.data,
      value: preview.transaction.value,
    },
    ...(review.simulated && review.approvalMode === options.approvalMode
      ? { preparedSimulation: review.simulated }
      : {}),
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
      deps.session.markOutdated('The price moved: review the new quote.');
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
