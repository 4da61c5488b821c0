// The background's swap executor: turns the quote session's current quote into a confirmed swap
// through the pipeline (lib/swap/execute.ts), pushes each state to views, resumes pending swaps
// after a worker restart, and notifies when a swap confirms or fails. The review and start steps
// are in swaps-review.ts, the chain reads and replacements in swaps-network.ts: plain functions
// taking what they use, so the state below stays in (minified) closure variables.
import type { SwapApiClient } from '@/lib/api/client';
import type { BalanceReader } from '@/lib/rpc/balances';
import type { Settings } from '@/lib/settings/settings';
import type { SwapState } from '@/lib/state/pipeline-state';
import { markEarlierChains } from '@/lib/swap/chain-reset';
import { createPendingSwapStore, createSwapMachine, type SwapMachine } from '@/lib/swap/execute';
import { createSwapHistory } from '@/lib/swap/history';
import type { SwapPreview } from '@/lib/swap/preview';
import type { ReplacementKind } from '@/lib/swap/replace';
import type { QuoteSession } from '@/lib/swap/session';
import type { TokenFactsReader } from '@/lib/tokens/facts';
import { readHoldings } from './holdings';
import { activeBalances, machineDeps, readerFor, receiptProbe, replaceSent } from './swaps-network';
import {
  type OpenReview,
  openReview,
  rememberTokens,
  requireIdle,
  reviewToStart,
  routerPinsFor,
  settlerFor,
  swapInputFor,
} from './swaps-review';
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
  const pins = routerPinsFor(deps);
  // What every swap machine of this service shares.
  const shared = { pins, store, history, onChange: emit };
  const settle = settlerFor(deps);
  const readers = new Map<string, BalanceReader>();
  const listeners = new Set<(state: SwapState) => void>();
  let current: SwapState | null = null;
  let running = false;
  /** The machine of the swap started or resumed last: the one a speed up or cancel goes to. */
  let sending: SwapMachine | null = null;
  /** The open review: its frozen quote is the only one startSwap signs. */
  let review: OpenReview | null = null;

  function closeReview(): void {
    review?.release();
    review = null;
  }

  function emit(state: SwapState): void {
    current = state;
    for (const listener of listeners) listener(state);
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
      requireIdle(running);
      const opened = await openReview(deps, pins, approvalMode);
      review?.release();
      review = opened;
      return opened.preview;
    },

    /** Executes the reviewed quote (and only it) with the active account. */
    async start(options: StartSwapOptions): Promise<SwapState | null> {
      requireIdle(running);
      const reviewed = reviewToStart(review, options);
      const { request } = reviewed;
      const account = await deps.wallet.activeSigner();
      const machine = createSwapMachine(machineDeps(deps, readers, shared, request.chainId));
      sending = machine;
      void rememberTokens(request.chainId, [request.inToken, request.outToken]);
      running = true;
      current = null;
      const run = machine
        .run(swapInputFor(reviewed, options, account))
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
      if (latest && !current) emit(latest);
      // One swap at a time, as after `start`: a new one waits until the resumed ones settle
      // (the view hides its button, but the background must refuse too).
      running = true;
      try {
        const states = await Promise.all(
          (await store.list()).map((saved) => {
            const machine = createSwapMachine(machineDeps(deps, readers, shared, saved.chainId));
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
    balances: (chainId: number, tokens: string[]) =>
      activeBalances(deps.wallet, () => readerFor(readers, deps.settings(), chainId), tokens),

    /** The home's holdings on `chainId`: the native coin and every token of `listed` held. */
    holdings: (chainId: number, listed: readonly string[]) =>
      readHoldings(deps.wallet, readerFor(readers, deps.settings(), chainId), chainId, listed),

    /** Speeds up or cancels the swap waiting to be mined (same nonce, higher fees). */
    replace: (kind: ReplacementKind) => replaceSent(() => sending, deps.wallet, kind),

    /** Activity: entries a reset network no longer has are marked (lib/swap/chain-reset.ts). */
    history: async () =>
      markEarlierChains(await history.list(), (chainId, hash) =>
        receiptProbe(deps.settings(), chainId, hash),
      ),
    dismiss() {
      if (!running) current = null;
    },
    /** The popup left the review without confirming. */
    closeReview,
  };
}

export type SwapService = ReturnType<typeof createSwapService>;
