import type { BalanceReader } from '@/lib/rpc/balances';
import type { SwapState } from '@/lib/state/pipeline-state';
import { createPendingSwapStore, createSwapMachine, type SwapMachine } from '@/lib/swap/execute';
import { createSwapHistory } from '@/lib/swap/history';
import type { SwapPreview } from '@/lib/swap/preview';
import type { ReplacementKind } from '@/lib/swap/replace';
import type { StartSwapOptions, SwapServiceDeps } from './swaps-deps';
import {
  activeBalances,
  machineDeps,
  markedHistory,
  previewReplacement,
  readerFor,
  sendReviewedReplacement,
} from './swaps-network';
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

export type { StartSwapOptions, SwapServiceDeps };

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
  /** The running swap's reviewed digest: a repeated Confirm of it is a no-op. */
  let startedDigest: string | null = null;
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

    /** Builds, checks and simulates the session's quote, frozen for the review (startSwap signs it or nothing). */
    async preview(approvalMode: 'exact' | 'unlimited'): Promise<SwapPreview> {
      requireIdle(running);
      const opened = await openReview(deps, pins, approvalMode);
      review?.release();
      review = opened;
      return opened.preview;
    },

    /** Executes the reviewed quote (and only it) with the active account. */
    async start(options: StartSwapOptions): Promise<SwapState | null> {
      // A second Confirm of the swap already started (a double click) is a no-op: same answer.
      if (running && startedDigest !== null && options.quoteDigest === startedDigest) return current;
      requireIdle(running);
      const reviewed = reviewToStart(review, options);
      const { request } = reviewed;
      // Taken before any await: a second start cannot pass requireIdle meanwhile.
      running = true;
      startedDigest = reviewed.preview.digest;
      const account = await deps.wallet.activeSigner().catch((error: unknown) => {
        running = false;
        startedDigest = null;
        throw error;
      });
      const machine = createSwapMachine(machineDeps(deps, readers, shared, request.chainId));
      sending = machine;
      void rememberTokens(request.chainId, [request.inToken, request.outToken]);
      current = null;
      const run = machine
        .run(swapInputFor(reviewed, options, account))
        .then(settle, () => undefined)
        .finally(() => {
          running = false;
          startedDigest = null;
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
      const latest = (await store.list()).at(-1);
      if (!latest) return;
      if (!current) emit(latest);
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

    /** Speed up / cancel of the swap waiting to be mined: its review (new fee), then the reviewed one, once. */
    previewReplace: (kind: ReplacementKind) => previewReplacement(() => sending, deps, kind),
    replace: (kind: ReplacementKind, id: string) => sendReviewedReplacement(() => sending, deps, kind, id),

    /** Activity: entries a reset network no longer has are marked (lib/swap/chain-reset.ts). */
    history: () => markedHistory(history, deps.settings),
    dismiss() {
      if (!running) current = null;
    },
    /** The popup left the review without confirming. */
    closeReview,
  };
}

export type SwapService = ReturnType<typeof createSwapService>;
