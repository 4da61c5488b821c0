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
import { funnelErrors } from './signing';
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
  forgetStored,
  openReview,
  rememberTokens,
  requireIdle,
  reviewSlot,
  reviewToStart,
  routerPinsFor,
  settlerFor,
  swapInputFor,
} from './swaps-review';

export type { StartSwapOptions, SwapServiceDeps };

/**
 * The swap a speed up or cancel goes to: the machine started or resumed last. One read back from
 * storage.local is replaced only if its record's seal verifies.
 */
function replacementTarget(store: PendingSwapStore, deps: SwapServiceDeps) {
  let machine: SwapMachine | null = null;
  let readBack = false;
  async function requireRecorded(): Promise<void> {
    const resumed = readBack ? machine?.current() : null;
    if (resumed && (await store.verify(resumed)) === false)
      throw new CodedError(
        'PENDING_SWAP_UNVERIFIED',
        'The swap waiting to be mined was not recorded by Swaplane (its stored record was written or changed outside Swaplane). Nothing was signed: speed up and cancel are refused for it.',
      );
  }
  return {
    set(next: SwapMachine, fromStorage: boolean): void {
      machine = next;
      readBack = fromStorage;
    },
    /** Its review (the new fee), then the reviewed replacement, once. */
    async preview(kind: ReplacementKind) {
      await requireRecorded();
      return previewReplacement(() => machine, deps, kind);
    },
    async replace(kind: ReplacementKind, id: string) {
      await requireRecorded();
      return sendReviewedReplacement(() => machine, deps, kind, id);
    },
  };
}

/** The latest swap state, pushed to every view that listens. */
function swapStates() {
  const listeners = new Set<(state: SwapState) => void>();
  let latest: SwapState | null = null;
  return {
    current: () => latest,
    emit(state: SwapState): void {
      latest = state;
      for (const listener of listeners) listener(state);
    },
    clear(): void {
      latest = null;
    },
    onChange(listener: (state: SwapState) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function createSwapService(deps: SwapServiceDeps) {
  const store = createPendingSwapStore(undefined, deps.entrySealer);
  const history = createSwapHistory(deps.entrySealer ? { sealer: deps.entrySealer } : {});
  const pins = routerPinsFor(deps);
  // What every swap machine of this service shares.
  const states = swapStates();
  const shared = { pins, store, history, onChange: states.emit };
  const settle = settlerFor(deps);
  const readers = new Map<string, BalanceReader>();
  const readerOn = (chainId: number) => readerFor(readers, deps.settings(), chainId);
  let running = false;
  /** The running swap's reviewed digest: a repeated Confirm of it is a no-op. */
  let startedDigest: string | null = null;
  const target = replacementTarget(store, deps);
  /** The open review: its prepared swap is the only one startSwap signs. */
  const reviews = reviewSlot(deps);

  return {
    current: states.current,
    onChange: states.onChange,

    /** Builds, checks and simulates the session's quote, frozen for the review (startSwap signs it or nothing). */
    async preview(approvalMode: 'exact' | 'unlimited'): Promise<SwapPreview> {
      requireIdle(running);
      const opened = await openReview(deps, pins, approvalMode);
      reviews.open(opened);
      return opened.preview;
    },

    /** Executes the reviewed quote (and only it) with the active account. */
    async start(options: StartSwapOptions): Promise<SwapState | null> {
      // A review opened before the worker restarted is read back first (once, shared by every start).
      await reviews.reopen();
      // A second Confirm of the swap already started (a double click) is a no-op: same answer.
      if (running && startedDigest !== null && options.quoteDigest === startedDigest) return states.current();
      requireIdle(running);
      const reviewed = reviewToStart(reviews.current(), options);
      const { request } = reviewed;
      // The review's funnel ticket, taken once and before any await: a second start finds it gone.
      const { funnel } = deps.signing;
      const ticket = funnelErrors(() => funnel.take(reviewed.ticketId, 'swap'));
      running = true;
      startedDigest = reviewed.preview.digest;
      // Its stored copy goes before anything is signed: a restart cannot confirm it a second time.
      const account = await forgetStored(reviewed.prepared.id)
        .then(() => deps.wallet.activeSigner())
        .catch((error: unknown) => {
          running = false;
          startedDigest = null;
          throw error;
        });
      const machine = createSwapMachine(machineDeps(deps, readers, shared, request.chainId));
      target.set(machine, false);
      void rememberTokens(request.chainId, [request.inToken, request.outToken]);
      states.clear();
      const run = machine
        .run(swapInputFor(reviewed, options, account, { ticket, signer: () => deps.wallet.activeSigner() }))
        .then(settle, () => undefined)
        .finally(() => {
          running = false;
          startedDigest = null;
          // A review is used once: only a router consent re-runs the same reviewed quote (a new ticket).
          if (states.current()?.status !== 'needs-consent') reviews.close();
          else if (reviews.current() === reviewed) reviewed.ticketId = funnel.review(ticket.plan, ticket).id;
        });
      // Answer once the first state exists, so the view shows progress at once.
      await Promise.race([run, new Promise((resolve) => setTimeout(resolve, 50))]);
      return states.current();
    },

    /** Picks up swaps that were in flight when the worker stopped. */
    async resume(): Promise<void> {
      // Views see a swap in flight at once, not only when tracking it next changes its state
      // (with the RPC down, that could be minutes away).
      const latest = (await store.list()).at(-1);
      if (!latest) return;
      if (!states.current()) states.emit(latest);
      // One swap at a time, as after `start`: a new one waits until the resumed ones settle
      // (the view hides its button, but the background must refuse too).
      running = true;
      try {
        const states = await Promise.all(
          (await store.list()).map((saved) => {
            const machine = createSwapMachine(machineDeps(deps, readers, shared, saved.chainId));
            target.set(machine, true);
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
      activeBalances(deps.wallet, () => readerOn(chainId), tokens),

    /** The home's holdings on `chainId`: the native coin and every token of `listed` held. */
    holdings: (chainId: number, listed: readonly string[]) =>
      readHoldings(deps.wallet, readerOn(chainId), chainId, listed),

    /** Speed up / cancel of the swap waiting to be mined. */
    previewReplace: target.preview,
    replace: target.replace,

    history: () => markedHistory(history, deps.settings),
    /** Seals the entries recorded before entries were sealed (the trust seal's one migration). */
    sealHistory: () => Promise.all([history.sealUnsealed(), store.sealUnsealed()]).then(() => undefined),
    dismiss() {
      if (!running) states.clear();
    },
    /** The popup left the review without confirming. */
    closeReview: reviews.close,
  };
}

export type SwapService = ReturnType<typeof createSwapService>;
