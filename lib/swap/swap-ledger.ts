// The swap machine's record: the current state, persisted after every change (storage.local) so a
// restarted worker resumes it, pushed to views, and the history entries. Steps change the state
// only through a Ledger.
import { getChain } from '@/lib/chains';
import {
  type ApprovalTxState,
  isTerminal,
  SwapFailureCodeSchema,
  type SwapState,
  SwapStateSchema,
  type SwapStatus,
} from '@/lib/state/pipeline-state';
import type { SwapFailure } from './failure';
import { approvalHistoryEntry, type SwapHistory, swapHistoryEntry } from './history';
import type { PendingSwapStore } from './pending-store';
import { sentNote, swapFailureMessage } from './pipeline-messages';

export interface Ledger {
  now: () => number;
  /** The state; throws when no swap was started or resumed. */
  current(): SwapState;
  /** The state, or null before the first one. */
  peek(): SwapState | null;
  /** Replaces the state without persisting it (a state read back from storage, or none). */
  set(state: SwapState | null): void;
  commit(next: SwapState): Promise<SwapState>;
  update(patch: Partial<SwapState>): Promise<SwapState>;
  moveTo(status: SwapStatus, patch?: Partial<SwapState>): Promise<SwapState>;
  recordSwap(s: SwapState): Promise<void>;
  recordApproval(s: SwapState, tx: ApprovalTxState): Promise<void>;
}

export function createLedger(
  store: PendingSwapStore,
  history: SwapHistory,
  now: () => number,
  onChange?: (state: SwapState) => void,
): Ledger {
  let state: SwapState | null = null;

  async function commit(next: SwapState): Promise<SwapState> {
    state = SwapStateSchema.parse({ ...next, updatedAt: now() });
    try {
      if (isTerminal(state.status)) await store.remove(state.id);
      else await store.save(state);
    } catch {
      // Storage trouble must not stop a swap mid-flight; it only costs resumability.
    }
    onChange?.(state);
    return state;
  }

  function current(): SwapState {
    if (!state) throw new Error('no swap in progress');
    return state;
  }

  const update = (patch: Partial<SwapState>) => commit({ ...current(), ...patch });

  return {
    now,
    current,
    peek: () => state,
    set: (next) => {
      state = next;
    },
    commit,
    update,
    moveTo: (status, patch = {}) => update({ ...patch, status }),
    // History is a record, not a step: a storage error there never stops a swap.
    async recordSwap(s) {
      const entry = swapHistoryEntry(s, now());
      if (entry) await history.record(entry).catch(() => undefined);
    },
    async recordApproval(s, tx) {
      const entry = approvalHistoryEntry(s, tx, now());
      if (entry) await history.record(entry).catch(() => undefined);
    },
  };
}

/** Whether anything was sent: any transaction, and an approval but not the swap. */
export function anythingSent(s: SwapState): { any: boolean; approval: boolean } {
  const approval = (s.approval?.txs ?? []).some((tx) => tx.sentAt !== null);
  const swap = s.tx?.sentAt != null;
  return { any: approval || swap, approval: approval && !swap };
}

/** The `failure` of a state a SwapFailure ends; its message always says what was sent. */
export function failureOf(failure: SwapFailure, s: SwapState): NonNullable<SwapState['failure']> {
  const sent = anythingSent(s);
  const context = {
    anythingSent: sent.any,
    approvalSent: sent.approval,
    ...(failure.revert ? { revert: failure.revert } : {}),
    nativeSymbol: getChain(s.chainId)?.nativeSymbol ?? 'ETH',
  };
  // The machine records its own codes; a review-only code (never thrown by a step) is a refused build.
  const parsed = SwapFailureCodeSchema.safeParse(failure.code);
  const code = parsed.success ? parsed.data : 'BUILD_REJECTED';
  // A message from another layer (API client, build checks) still ends by saying what was sent.
  const given = failure.user;
  const message = given
    ? { ...given, detail: `${given.detail} ${sentNote(context)}` }
    : swapFailureMessage(code, context);
  return {
    step: failure.step === 'review' ? 'check' : failure.step,
    code,
    message,
    anythingSent: sent.any,
    ...(failure.detail ? { detail: failure.detail.slice(0, 2_000) } : {}),
    ...(failure.revert ? { revert: failure.revert } : {}),
  };
}
