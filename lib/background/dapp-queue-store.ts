// The approval queue's entries and how they outlive the worker: written to storage.session as the
// window's view plus what the page asked (never a closure), read back (parsed: the record's schema,
// then each view with the window's own), and revived into runnable requests by the dapp service.
// A restored request has no page listening until the page's bridge asks for it again (resume).
import { safeParse } from 'zod/mini';
import {
  type ApprovalDetail,
  type ApprovalView,
  ApprovalViewSchema,
  type DappResponse,
} from '@/lib/dapp/approval';
import { toRpcError } from '@/lib/dapp/errors';
import type { ApprovalKind } from '@/lib/dapp/methods';
import type { Queued } from '@/lib/dapp/queue';
import type { StoredApproval, StoredQueue, StoredTransaction } from '@/lib/state/dapp-queue';
import { dappQueueItem } from '@/lib/storage/items';

/** What the user chose in the window besides yes: the accounts a site may see (connect). */
export interface UserChoice {
  accounts?: readonly string[];
}

export interface PreparedApproval {
  chainId: number;
  detail: ApprovalDetail;
  /** Checks the user's choice first: a bad one keeps the request waiting (the window says why). */
  check?: (choice: UserChoice) => Promise<unknown>;
  run: (choice: UserChoice) => Promise<unknown>;
  /** A transaction's review figures, kept so a restarted worker signs the same plan. */
  transaction?: StoredTransaction;
}

/** What the page asked, kept with its request so a restarted worker can revive it. */
export interface AskedRequest {
  method: string;
  params?: unknown;
  /** The bridge's key for this request (null: a caller without a bridge, as in tests). */
  key: string | null;
}

export interface Pending extends Queued {
  kind: ApprovalKind;
  /** Null while the request is being prepared (simulated): it holds its place but is not shown. */
  view: ApprovalView | null;
  /** The page frame that asked (tab:frame), so its reload rejects it. */
  frame: string | null;
  asked: AskedRequest;
  /** Runs once the user approved (the wallet is unlocked by then); its value goes to the page. */
  run: PreparedApproval['run'];
  check?: PreparedApproval['check'];
  transaction?: StoredTransaction;
  /** Who waits for the answer: the page's message, or after a restart its bridge once it resumes. */
  listeners: ((response: DappResponse) => void)[];
  /** Restored from storage: the page's first message died with the worker before it. */
  revived: boolean;
}

export interface QueueStore {
  load(): Promise<StoredQueue>;
  save(queue: StoredQueue): Promise<void>;
}

/** The dapp service's side of a restored request: what approving it runs (re-checked, re-reviewed). */
export type Revive = (
  entry: StoredApproval,
  view: ApprovalView,
) => Promise<Pick<PreparedApproval, 'run' | 'check'>>;

/** The queue in storage.session through the one storage module. */
export const sessionQueueStore: QueueStore = {
  load: () => dappQueueItem.get(),
  save: (queue) => dappQueueItem.set(queue),
};

export const answerKey = (frame: string | null, key: string | null) => `${frame ?? ''}|${key ?? ''}`;

/** Answers whoever waits; with nobody yet (a resume to come), the answer is kept for it, bounded. */
export function settlePending(
  pending: Pending,
  response: DappResponse,
  answered: Map<string, DappResponse>,
): void {
  const listeners = pending.listeners;
  pending.listeners = [];
  for (const listener of listeners) listener(response);
  if (listeners.length > 0 || pending.asked.key === null) return;
  answered.set(answerKey(pending.frame, pending.asked.key), response);
  if (answered.size > 50) answered.delete(answered.keys().next().value as string);
}

/** The shown requests as stored (pure): those still being prepared are not kept. */
export function storedQueue(windowId: number | null, queue: readonly Pending[]): StoredQueue {
  const requests = queue.flatMap((entry): StoredApproval[] =>
    entry.view === null
      ? []
      : [
          {
            id: entry.id,
            origin: entry.origin,
            kind: entry.kind,
            frame: entry.frame,
            key: entry.asked.key,
            method: entry.asked.method,
            ...(entry.asked.params === undefined ? {} : { params: entry.asked.params }),
            view: entry.view,
            ...(entry.transaction ? { transaction: entry.transaction } : {}),
          },
        ],
  );
  return { windowId, requests };
}

/**
 * The stored requests made runnable again, oldest first. A view that does not parse is dropped; one
 * the service will no longer run (the site was disconnected, the fee is now above the ceiling) is
 * answered with why, for its page's resume.
 */
export async function restoreQueue(
  stored: StoredQueue,
  revive: Revive,
  answered: Map<string, DappResponse>,
): Promise<Pending[]> {
  const restored: Pending[] = [];
  for (const entry of stored.requests) {
    const parsed = safeParse(ApprovalViewSchema, entry.view);
    if (!parsed.success || parsed.data.id !== entry.id || parsed.data.origin !== entry.origin) continue;
    const pending: Pending = {
      id: entry.id,
      origin: entry.origin,
      kind: entry.kind,
      frame: entry.frame,
      asked: { method: entry.method, params: entry.params, key: entry.key },
      view: parsed.data,
      run: async () => null,
      listeners: [],
      revived: true,
      ...(entry.transaction ? { transaction: entry.transaction } : {}),
    };
    try {
      const { run, check } = await revive(entry, parsed.data);
      pending.run = run;
      if (check) pending.check = check;
      restored.push(pending);
    } catch (error) {
      settlePending(pending, { error: toRpcError(error) }, answered);
    }
  }
  return restored;
}
