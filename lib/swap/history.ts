// Swap and approval history in storage.local: newest first, bounded, upserted by id (a pending
// entry becomes confirmed or failed in place). Writes are queued so concurrent updates from two
// swaps never lose each other.

import { createSerialQueue } from '@/lib/async';
import {
  type ApprovalTxState,
  HISTORY_LIMIT,
  type HistoryEntry,
  HistoryEntrySchema,
  type SwapState,
} from '@/lib/state/pipeline-state';
import type { StorageItem } from '@/lib/storage/item';
import { swapHistoryItem } from '@/lib/storage/items';
import { type EntrySealer, sealedEntry, verifiedEntries } from './entry-seal';

export interface SwapHistory {
  /** Inserts or replaces the entry with the same id; the newest change goes first. */
  record(entry: HistoryEntry): Promise<void>;
  list(): Promise<HistoryEntry[]>;
  /** Only the entries Swaplane sealed (all of them without a sealer); none while locked. */
  verified(): Promise<HistoryEntry[]>;
  /** Seals every entry that has no seal yet (existing users, once, on their first unlocked seal). */
  sealUnsealed(): Promise<void>;
  clear(): Promise<void>;
}

export interface SwapHistoryOptions {
  item?: StorageItem<HistoryEntry[]>;
  limit?: number;
  sealer?: EntrySealer;
}

/** Pure: `entry` first, its older version removed, at most `limit` entries. */
export function addToHistory(
  entries: readonly HistoryEntry[],
  entry: HistoryEntry,
  limit = HISTORY_LIMIT,
): HistoryEntry[] {
  const rest = entries.filter((e) => e.id !== entry.id);
  return [entry, ...rest].slice(0, Math.max(0, Math.min(limit, HISTORY_LIMIT)));
}

export function createSwapHistory(options: SwapHistoryOptions = {}): SwapHistory {
  const item = options.item ?? swapHistoryItem;
  const limit = options.limit ?? HISTORY_LIMIT;
  const enqueue = createSerialQueue();

  return {
    async record(entry) {
      const checked = HistoryEntrySchema.parse(entry); // a rejection, never a throw
      return enqueue(async () => {
        // An unreadable history (corrupt, newer version) is replaced rather than blocking swaps.
        const current = await item.get();
        const previous = current.find((e) => e.id === checked.id);
        const sealed = options.sealer ? await sealedEntry(checked, previous, options.sealer) : checked;
        await item.set(addToHistory(current, sealed, limit));
      });
    },
    list() {
      return enqueue(() => item.get());
    },
    async verified() {
      const entries = await enqueue(() => item.get());
      return options.sealer ? verifiedEntries(entries, options.sealer) : entries;
    },
    sealUnsealed() {
      const sealer = options.sealer;
      if (!sealer) return Promise.resolve();
      return enqueue(async () => {
        const entries = await item.get();
        const sealed = await Promise.all(
          entries.map((entry) => (entry.seal ? entry : sealedEntry(entry, undefined, sealer))),
        );
        await item.set(sealed);
      });
    },
    clear() {
      return enqueue(() => item.set([]));
    },
  };
}

/** The history entry of a swap that was signed (null before that: unsent swaps are not history). */
export function swapHistoryEntry(s: SwapState, now: number): HistoryEntry | null {
  const quote = s.quote;
  if (!quote || !s.tx) return null;
  const status = s.status === 'confirmed' ? 'confirmed' : s.status === 'failed' ? 'failed' : 'pending';
  return {
    kind: 'swap',
    id: s.id,
    chainId: s.chainId,
    account: s.account,
    status,
    hash: s.tx.hash,
    explorerUrl: s.tx.explorerUrl,
    gasPaid: s.outcome?.gasPaid ?? null,
    failure: s.failure ? { code: s.failure.code, title: s.failure.message.title } : null,
    createdAt: s.tx.signedAt,
    updatedAt: now,
    inToken: quote.inToken,
    outToken: quote.outToken,
    inDecimals: quote.inDecimals,
    outDecimals: quote.outDecimals,
    inAmount: quote.inAmount,
    quotedOut: quote.outAmount,
    minReceived: quote.minReceived,
    received: s.outcome?.received ?? null,
  };
}

/** The history entry of one approval transaction of a swap (reset or approve). */
export function approvalHistoryEntry(s: SwapState, tx: ApprovalTxState, now: number): HistoryEntry | null {
  if (!s.approval) return null;
  return {
    kind: 'approval',
    id: `${s.id}:${tx.step}`,
    swapId: s.id,
    chainId: s.chainId,
    account: s.account,
    status: tx.status,
    hash: tx.hash,
    explorerUrl: tx.explorerUrl,
    gasPaid: tx.gasPaid,
    failure: tx.status === 'failed' ? { code: 'APPROVAL_FAILED', title: 'Token approval failed' } : null,
    createdAt: tx.signedAt,
    updatedAt: now,
    token: s.approval.token,
    spender: s.approval.spender,
    amount: tx.amount,
    unlimited: s.approval.unlimited && tx.step === 'approve',
    reset: tx.step === 'reset',
  };
}
