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

export function createSwapService(deps: SwapServiceDeps) {
  const store = createPendingSwapStore();
  const history = createSwapHistory();
  // Keyed by the service in use: the background's own settings, not a storage read per lookup.
  const pins = createRouterPins(
    undefined,
    undefined,
    () => new URL(deps.settings().serviceBaseUrl).origin,
    deps.onTrustWrite,
  );
  const readers = new Map<string, BalanceReader>();
  const listeners = new Set<(state: SwapState) => void>();
  let current: SwapState | null = null;
  let running = false;
  /** The machine of the swap started or resumed last: the one a speed up or cancel goes to. */
  let sending: SwapMachine | null = null;
  /** The open review: its frozen quote is the only one startSwap signs. */
  let review: (FrozenReview & { request: QuoteRequest; release: () => void }) | null = null;

  function closeReview(): void {
    review?.release();
    review = null;
  }

  /** The picker offers tokens swapped lately first (best effort: never delays a swap). */
  async function rememberTokens(chainId: number, tokens: string[]): Promise<void> {
    const all = await recentTokensItem.get().catch(() => ({}) as Record<string, string[]>);
    let list = all[String(chainId)] ?? [];
    for (const token of tokens.slice().reverse()) list = withRecent(list, token);
    await recentTokensItem.set({ ...all, [String(chainId)]: list }).catch(() => undefined);
  }

  async function receiptProbe(chainId: number, hash: string): Promise<'found' | 'missing' | 'unknown'> {
    try {
      await publicClientFor(chainId, deps.settings()).getTransactionReceipt({ hash: hash as Hex });
      return 'found';
    } catch (error) {
      return (error as { name?: string }).name === 'TransactionReceiptNotFoundError' ? 'missing' : 'unknown';
    }
  }

  function readerFor(chainId: number): BalanceReader {
    const client = publicClientFor(chainId, deps.settings());
    const key = `${chainId} ${client.transport.url ?? ''}`;
    let reader = readers.get(key);
    if (!reader) {
      reader = createBalanceReader({ client, chainId });
      readers.set(key, reader);
    }
    return reader;
  }

  function depsFor(chainId: number): SwapDeps {
    return {
      client: publicClientFor(chainId, deps.settings()),
      api: deps.api(),
      pins,
      store,
      history,
      balances: readerFor(chainId),
      onChange: (state) => {
        current = state;
        for (const listener of listeners) listener(state);
      },
    };
  }

  function settle(state: SwapState): void {
    if (state.status === 'confirmed') {
      deps.notify?.('Swap confirmed', 'Your swap went through. Open Swaplane for the details.');
    } else if (state.status === 'failed' && state.failure?.anythingSent) {
      deps.notify?.('Swap failed', state.failure.message.title);
    }
    if (state.failure?.code === 'QUOTE_OUTDATED' || state.failure?.code === 'PRICE_CHANGED') {
      deps.session.markOutdated('The price moved: review the new quote.');
    }
  }

  return {
    current: () => current,
    onChange(listener: (state: SwapState) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /**
     * Builds, checks and simulates the session's quote for the review, and freezes it: the session
     * stops refreshing it until the review expires, and startSwap signs this quote or nothing.
     */
    async preview(approvalMode: 'exact' | 'unlimited'): Promise<SwapPreview> {
      if (running)
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
        review?.release();
        review = { preview, approvalMode, request, release };
        return preview;
      } catch (error) {
        release();
        // The service says the quote is outdated: fetch a new one for the user to review.
        if ((error as { code?: unknown }).code === 'QUOTE_OUTDATED') {
          deps.session.markOutdated('The price moved: review the new quote.');
        }
        throw error;
      }
    },

    /** Executes the reviewed quote (and only it) with the active account. */
    async start(options: StartSwapOptions): Promise<SwapState | null> {
      if (running)
        throw new CodedError('SWAP_IN_PROGRESS', 'A swap is already in progress: wait for it to finish.');
      const refused = checkStart(review, options, Date.now());
      if (refused) throw new CodedError(refused.code, refused.message);
      if (!review) throw new CodedError('NO_QUOTE', 'Get a quote before you swap.');
      const { preview: reviewed, request } = review;
      const account = await deps.wallet.activeSigner();
      const unreadableAccepted = (options.acknowledged ?? []).includes(WARNING_CODES.unreadable);
      const machine = createSwapMachine(depsFor(request.chainId));
      sending = machine;
      void rememberTokens(request.chainId, [request.inToken, request.outToken]);
      running = true;
      current = null;
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
        .then(settle, () => undefined)
        .finally(() => {
          running = false;
          // A review is used once: only a router consent re-runs the same reviewed quote.
          if (current?.status !== 'needs-consent') closeReview();
        });
      // Answer once the first state exists, so the view shows progress at once.
      await Promise.race([run, new Promise((resolve) => setTimeout(resolve, 50))]);
      return current;
    },

    /** Picks up swaps that were in flight when the worker stopped. */
    async resume(): Promise<void> {
      // Views see a swap in flight at once, not only when tracking it next changes its state
      // (with the RPC down, that could be minutes away).
      const pending = await store.list();
      if (pending.length === 0) return;
      const latest = pending.at(-1);
      if (latest && !current) {
        current = latest;
        for (const listener of listeners) listener(latest);
      }
      // One swap at a time, as after `start`: a new one waits until the resumed ones settle
      // (the view hides its button, but the background must refuse too).
      running = true;
      try {
        const states = await Promise.all(
          (await store.list()).map((saved) => {
            const machine = createSwapMachine({ ...depsFor(saved.chainId), store });
            sending = machine;
            return machine.resume(saved);
          }),
        );
        for (const state of states) settle(state);
      } finally {
        running = false;
      }
    },

    /** Balances of the active account, as decimal strings, for the tokens a view shows. */
    async balances(chainId: number, tokens: string[]): Promise<Record<string, string>> {
      const state = await deps.wallet.state();
      const active = state.accounts.find((account) => account.id === state.activeId);
      if (!active) return {};
      const snapshot = await readerFor(chainId).read(active.address as Address, tokens);
      const result: Record<string, string> = {};
      for (const token of tokens) {
        const value = balanceOf(snapshot, token);
        if (value !== undefined) result[token.toLowerCase()] = value.toString();
      }
      return result;
    },

    /** Speeds up or cancels the swap waiting to be mined (same nonce, higher fees). */
    async replace(kind: ReplacementKind): Promise<SwapState> {
      const state = sending?.current();
      if (!sending || state?.status !== 'sent')
        throw new CodedError('NOT_PENDING', 'No swap is waiting to be mined: nothing to speed up or cancel.');
      const account = await deps.wallet.activeSigner();
      try {
        return await sending.replace(kind, account);
      } catch (error) {
        if (error instanceof ReplaceError) throw new CodedError(error.code, error.message);
        if (error instanceof SendError)
          throw new CodedError('REPLACEMENT_FAILED', `The network refused the replacement: ${error.message}`);
        throw error;
      }
    },

    /** Activity: entries a reset network no longer has are marked (lib/swap/chain-reset.ts). */
    history: async () =>
      markEarlierChains(await history.list(), (chainId, hash) => receiptProbe(chainId, hash)),
    dismiss() {
      if (!running) current = null;
    },
    /** The popup left the review without confirming. */
    closeReview,
  };
}

export type SwapService = ReturnType<typeof createSwapService>;
