import type { BalanceReader } from '@/lib/rpc/balances';
import type { SwapState } from '@/lib/state/pipeline-state';
import {
  createPendingSwapStore,
  createSwapMachine,
  type PendingSwapStore,
  type SwapMachine,
} from '@/lib/swap/execute';
import { createSwapHistory } from '@/lib/swap/history';
import type { SwapPreview } from '@/lib/swap/preview';
import type { ReplacementKind } from '@/lib/swap/replace';
import { CodedError } from './errors';
import { readHoldings } from './holdings';
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

/** A swap read back from storage.local is sped up or cancelled only if its record's seal verifies. */
async function requireRecorded(
  sending: SwapMachine | null,
  readBackFrom: PendingSwapStore | null,
): Promise<void> {
  const resumed = readBackFrom ? sending?.current() : null;
  if (resumed && readBackFrom && (await readBackFrom.verify(resumed)) === false)
    throw new CodedError(
      'PENDING_SWAP_UNVERIFIED',
      'The swap waiting to be mined was not recorded by Swaplane (its stored record was written or changed outside Swaplane). Nothing was signed: speed up and cancel are refused for it.',
    );
}

export function createSwapService(deps: SwapServiceDeps) {
  const store = createPendingSwapStore(undefined, deps.entrySealer);
  const history = createSwapHistory(deps.entrySealer ? { sealer: deps.entrySealer } : {});
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
  let sendingFromStorage = false; // read back from storage.local: its record is checked first
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
      sendingFromStorage = false;
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
            sendingFromStorage = true;
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

    /** Speed up / cancel of the swap waiting to be mined: its review (new fee), then the reviewed one, once. */
    previewReplace: async (kind: ReplacementKind) => {
      await requireRecorded(sending, sendingFromStorage ? store : null);
      return previewReplacement(() => sending, deps, kind);
    },
    replace: async (kind: ReplacementKind, id: string) => {
      await requireRecorded(sending, sendingFromStorage ? store : null);
      return sendReviewedReplacement(() => sending, deps, kind, id);
    },

    history: () => markedHistory(history, deps.settings),
    /** Seals the entries recorded before entries were sealed (the trust seal's one migration). */
    sealHistory: () => Promise.all([history.sealUnsealed(), store.sealUnsealed()]).then(() => undefined),
    dismiss() {
      if (!running) current = null;
    },
    /** The popup left the review without confirming. */
    closeReview,
  };
}

export type SwapService = ReturnType<typeof createSwapService>;
