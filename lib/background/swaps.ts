// The background's swap executor: turns the quote session's current quote into a confirmed swap
// through the pipeline (lib/swap/execute.ts), pushes each state to views, resumes pending swaps
// after a worker restart, and notifies when a swap confirms or fails.
import type { Address, Hex } from 'viem';
import type { SwapApiClient } from '@/lib/api/client';
import type { QuoteRequest } from '@/lib/api/schema';
import { type BalanceReader, balanceOf, createBalanceReader } from '@/lib/rpc/balances';
import { publicClientFor } from '@/lib/rpc/network';
import { SendError } from '@/lib/rpc/transactions';
import type { Settings } from '@/lib/settings/settings';
import type { SwapState } from '@/lib/state/pipeline-state';
import { recentTokensItem } from '@/lib/storage/items';
import { markEarlierChains } from '@/lib/swap/chain-reset';
import {
  createPendingSwapStore,
  createSwapMachine,
  type SwapDeps,
  type SwapMachine,
} from '@/lib/swap/execute';
import { createSwapHistory } from '@/lib/swap/history';
import type { SwapPreview } from '@/lib/swap/preview';
import { buildPreview } from '@/lib/swap/preview-build';
import { WARNING_CODES } from '@/lib/swap/preview-words';
import { ReplaceError, type ReplacementKind } from '@/lib/swap/replace';
import { requestFor } from '@/lib/swap/request';
import { checkStart, type FrozenReview, REVIEW_LIFETIME_MS } from '@/lib/swap/review-binding';
import { createRouterPins } from '@/lib/swap/router-pins';
import type { QuoteSession } from '@/lib/swap/session';
import type { TokenFactsReader } from '@/lib/tokens/facts';
import { withRecent } from '@/lib/tokens/recent';
import { CodedError } from './errors';
import type { WalletService } from './wallet';

export interface SwapServiceDeps {
  api: () => SwapApiClient;
  settings: () => Settings;
  session: QuoteSession;
  wallet: WalletService;
  facts: TokenFactsReader;
  notify?: (title: string, message: string) => void;
  /** After a router pin is written (the trust settings are re-sealed). */
  onTrustWrite?: () => Promise<unknown>;
}

export interface StartSwapOptions {
  approvalMode: 'exact' | 'unlimited';
  routerConsent?: string;
  /** Digest of the reviewed preview's quote: nothing else is signed. */
  quoteDigest?: string;
  acknowledged?: string[];
}

/** What the service's operations share: its dependencies and the swap under way. */
interface SwapContext {
  deps: SwapServiceDeps;
  store: ReturnType<typeof createPendingSwapStore>;
  history: ReturnType<typeof createSwapHistory>;
  pins: ReturnType<typeof createRouterPins>;
  readers: Map<string, BalanceReader>;
  listeners: Set<(state: SwapState) => void>;
  current: SwapState | null;
  running: boolean;
  /** The machine of the swap started or resumed last: the one a speed up or cancel goes to. */
  sending: SwapMachine | null;
  /** The open review: its frozen quote is the only one startSwap signs. */
  review: (FrozenReview & { request: QuoteRequest; release: () => void }) | null;
}

export function createSwapService(deps: SwapServiceDeps) {
  const ctx: SwapContext = {
    deps,
    store: createPendingSwapStore(),
    history: createSwapHistory(),
    // Keyed by the service in use: the background's own settings, not a storage read per lookup.
    pins: createRouterPins(
      undefined,
      undefined,
      () => new URL(deps.settings().serviceBaseUrl).origin,
      deps.onTrustWrite,
    ),
    readers: new Map(),
    listeners: new Set(),
    current: null,
    running: false,
    sending: null,
    review: null,
  };
  const closeReview = () => {
    ctx.review?.release();
    ctx.review = null;
  };
  return {
    current: () => ctx.current,
    onChange(listener: (state: SwapState) => void) {
      ctx.listeners.add(listener);
      return () => ctx.listeners.delete(listener);
    },
    /**
     * Builds, checks and simulates the session's quote for the review, and freezes it: the session
     * stops refreshing it until the review expires, and startSwap signs this quote or nothing.
     */
    preview: (approvalMode: 'exact' | 'unlimited'): Promise<SwapPreview> => previewSwap(ctx, approvalMode),
    /** Executes the reviewed quote (and only it) with the active account. */
    start: (options: StartSwapOptions): Promise<SwapState | null> => startSwap(ctx, options, closeReview),
    /** Picks up swaps that were in flight when the worker stopped. */
    resume: (): Promise<void> => resumeSwaps(ctx),
    /** Balances of the active account, as decimal strings, for the tokens a view shows. */
    balances: (chainId: number, tokens: string[]) => activeBalances(ctx, chainId, tokens),
    /** Speeds up or cancels the swap waiting to be mined (same nonce, higher fees). */
    replace: (kind: ReplacementKind): Promise<SwapState> => replacePending(ctx, kind),
    /** Activity: entries a reset network no longer has are marked (lib/swap/chain-reset.ts). */
    history: async () =>
      markEarlierChains(await ctx.history.list(), (chainId, hash) => receiptProbe(ctx, chainId, hash)),
    dismiss() {
      if (!ctx.running) ctx.current = null;
    },
    /** The popup left the review without confirming. */
    closeReview,
  };
}

async function previewSwap(ctx: SwapContext, approvalMode: 'exact' | 'unlimited'): Promise<SwapPreview> {
  const { deps, pins } = ctx;
  if (ctx.running)
    throw new CodedError('SWAP_IN_PROGRESS', 'A swap is already in progress: wait for it to finish.');
  const session = deps.session.getState();
  if (!session.input || !session.quote || session.status !== 'ready') {
    throw new CodedError('NO_QUOTE', 'Get a quote before you review a swap.');
  }
  const account = await deps.wallet.activeSigner();
  const chainId = session.input.chainId;
  const request = requestFor(session.input, deps.settings().refCode);
  const expiresAt = Date.now() + REVIEW_LIFETIME_MS;
  const release = deps.session.hold(expiresAt);
  try {
    const preview = await buildPreview(
      {
        client: publicClientFor(chainId, deps.settings()),
        api: deps.api(),
        pinnedRouter: () => pins.get(chainId),
        facts: deps.facts,
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
    ctx.review?.release();
    ctx.review = { preview, approvalMode, request, release };
    return preview;
  } catch (error) {
    release();
    // The service says the quote is outdated: fetch a new one for the user to review.
    if ((error as { code?: unknown }).code === 'QUOTE_OUTDATED') {
      deps.session.markOutdated('The price moved: review the new quote.');
    }
    throw error;
  }
}

async function startSwap(
  ctx: SwapContext,
  options: StartSwapOptions,
  closeReview: () => void,
): Promise<SwapState | null> {
  if (ctx.running)
    throw new CodedError('SWAP_IN_PROGRESS', 'A swap is already in progress: wait for it to finish.');
  const refused = checkStart(ctx.review, options, Date.now());
  if (refused) throw new CodedError(refused.code, refused.message);
  if (!ctx.review) throw new CodedError('NO_QUOTE', 'Get a quote before you swap.');
  const { preview: reviewed, request } = ctx.review;
  const account = await ctx.deps.wallet.activeSigner();
  const unreadableAccepted = (options.acknowledged ?? []).includes(WARNING_CODES.unreadable);
  const machine = createSwapMachine(depsFor(ctx, request.chainId));
  ctx.sending = machine;
  void rememberTokens(request.chainId, [request.inToken, request.outToken]);
  ctx.running = true;
  ctx.current = null;
  const run = machine
    .run({
      chainId: request.chainId,
      account,
      request,
      quote: reviewed.quote,
      approvalMode: options.approvalMode,
      unreadable: unreadableAccepted && reviewed.simulation.kind === 'assets' ? 'allow' : 'refuse',
      ...(options.routerConsent ? { routerConsent: options.routerConsent } : {}),
    })
    .then(
      (state) => settle(ctx, state),
      () => undefined,
    )
    .finally(() => {
      ctx.running = false;
      // A review is used once: only a router consent re-runs the same reviewed quote.
      if (ctx.current?.status !== 'needs-consent') closeReview();
    });
  // Answer once the first state exists, so the view shows progress at once.
  await Promise.race([run, new Promise((resolve) => setTimeout(resolve, 50))]);
  return ctx.current;
}

async function resumeSwaps(ctx: SwapContext): Promise<void> {
  // Views see a swap in flight at once, not only when tracking it next changes its state
  // (with the RPC down, that could be minutes away).
  const pending = await ctx.store.list();
  if (pending.length === 0) return;
  const latest = pending.at(-1);
  if (latest && !ctx.current) {
    ctx.current = latest;
    for (const listener of ctx.listeners) listener(latest);
  }
  // One swap at a time, as after `start`: a new one waits until the resumed ones settle
  // (the view hides its button, but the background must refuse too).
  ctx.running = true;
  try {
    const states = await Promise.all(
      (await ctx.store.list()).map((saved) => {
        const machine = createSwapMachine({ ...depsFor(ctx, saved.chainId), store: ctx.store });
        ctx.sending = machine;
        return machine.resume(saved);
      }),
    );
    for (const state of states) settle(ctx, state);
  } finally {
    ctx.running = false;
  }
}

async function activeBalances(
  ctx: SwapContext,
  chainId: number,
  tokens: string[],
): Promise<Record<string, string>> {
  const state = await ctx.deps.wallet.state();
  const active = state.accounts.find((account) => account.id === state.activeId);
  if (!active) return {};
  const snapshot = await readerFor(ctx, chainId).read(active.address as Address, tokens);
  const result: Record<string, string> = {};
  for (const token of tokens) {
    const value = balanceOf(snapshot, token);
    if (value !== undefined) result[token.toLowerCase()] = value.toString();
  }
  return result;
}

async function replacePending(ctx: SwapContext, kind: ReplacementKind): Promise<SwapState> {
  const sending = ctx.sending;
  const state = sending?.current();
  if (!sending || state?.status !== 'sent')
    throw new CodedError('NOT_PENDING', 'No swap is waiting to be mined: nothing to speed up or cancel.');
  const account = await ctx.deps.wallet.activeSigner();
  try {
    return await sending.replace(kind, account);
  } catch (error) {
    if (error instanceof ReplaceError) throw new CodedError(error.code, error.message);
    if (error instanceof SendError)
      throw new CodedError('REPLACEMENT_FAILED', `The network refused the replacement: ${error.message}`);
    throw error;
  }
}

/** The picker offers tokens swapped lately first (best effort: never delays a swap). */
async function rememberTokens(chainId: number, tokens: string[]): Promise<void> {
  const all = await recentTokensItem.get().catch(() => ({}) as Record<string, string[]>);
  let list = all[String(chainId)] ?? [];
  for (const token of tokens.slice().reverse()) list = withRecent(list, token);
  await recentTokensItem.set({ ...all, [String(chainId)]: list }).catch(() => undefined);
}

async function receiptProbe(
  ctx: SwapContext,
  chainId: number,
  hash: string,
): Promise<'found' | 'missing' | 'unknown'> {
  try {
    await publicClientFor(chainId, ctx.deps.settings()).getTransactionReceipt({ hash: hash as Hex });
    return 'found';
  } catch (error) {
    return (error as { name?: string }).name === 'TransactionReceiptNotFoundError' ? 'missing' : 'unknown';
  }
}

function readerFor(ctx: SwapContext, chainId: number): BalanceReader {
  const client = publicClientFor(chainId, ctx.deps.settings());
  const key = `${chainId} ${client.transport.url ?? ''}`;
  let reader = ctx.readers.get(key);
  if (!reader) {
    reader = createBalanceReader({ client, chainId });
    ctx.readers.set(key, reader);
  }
  return reader;
}

function depsFor(ctx: SwapContext, chainId: number): SwapDeps {
  return {
    client: publicClientFor(chainId, ctx.deps.settings()),
    api: ctx.deps.api(),
    pins: ctx.pins,
    store: ctx.store,
    history: ctx.history,
    balances: readerFor(ctx, chainId),
    onChange: (state) => {
      ctx.current = state;
      for (const listener of ctx.listeners) listener(state);
    },
  };
}

function settle(ctx: SwapContext, state: SwapState): void {
  const { deps } = ctx;
  if (state.status === 'confirmed') {
    deps.notify?.('Swap confirmed', 'Your swap went through. Open Swaplane for the details.');
  } else if (state.status === 'failed' && state.failure?.anythingSent) {
    deps.notify?.('Swap failed', state.failure.message.title);
  }
  if (state.failure?.code === 'QUOTE_OUTDATED' || state.failure?.code === 'PRICE_CHANGED') {
    deps.session.markOutdated('The price moved: review the new quote.');
  }
}

export type SwapService = ReturnType<typeof createSwapService>;
