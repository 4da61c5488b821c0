// Swaps in flight, in storage.local (pendingSwapsItem): saved after every step, removed once
// terminal. What a restarted worker resumes. Writes are queued so two swaps never lose each other.

import { createSerialQueue } from '@/lib/async';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { StorageItem } from '@/lib/storage/item';
import { pendingSwapsItem } from '@/lib/storage/items';
import { canonicalJson } from '@/lib/wallet/trust-mac';
import { type EntrySealer, pendingCore, sealedSwap } from './entry-seal';

export interface PendingSwapStore {
  save(state: SwapState): Promise<void>;
  remove(id: string): Promise<void>;
  list(): Promise<SwapState[]>;
  /**
   * Whether `state` is a swap Swaplane signed: the stored record of its id carries a seal that
   * verifies and says what `state` says. Null while locked; true without a sealer.
   */
  verify(state: SwapState): Promise<boolean | null>;
  /** Seals every record without a seal (existing users, once, on their first unlocked seal). */
  sealUnsealed(): Promise<void>;
}

/** Kept in step with PendingSwapsSchema's bound: past it, the oldest entry goes first. */
const MAX_PENDING = 50;

export function createPendingSwapStore(
  item: StorageItem<SwapState[]> = pendingSwapsItem,
  sealer?: EntrySealer,
): PendingSwapStore {
  const enqueue = createSerialQueue();
  return {
    save(state) {
      return enqueue(async () => {
        const all = await item.get();
        const previous = all.find((s) => s.id === state.id);
        const saved = sealer ? await sealedSwap(state, previous, sealer) : state;
        await item.set([...all.filter((s) => s.id !== state.id), saved].slice(-MAX_PENDING));
      });
    },
    async verify(state) {
      if (!sealer) return true;
      const stored = (await enqueue(() => item.get())).find((s) => s.id === state.id);
      if (!stored?.seal) return false;
      const core = pendingCore(stored);
      if (canonicalJson(core) !== canonicalJson(pendingCore(state))) return false;
      return sealer.verify(core, stored.seal);
    },
    sealUnsealed() {
      if (!sealer) return Promise.resolve();
      return enqueue(async () => {
        const all = await item.get();
        await item.set(await Promise.all(all.map((s) => (s.seal ? s : sealedSwap(s, undefined, sealer)))));
      });
    },
    remove(id) {
      return enqueue(async () => {
        const all = await item.get();
        if (all.some((s) => s.id === id)) await item.set(all.filter((s) => s.id !== id));
      });
    },
    list() {
      return enqueue(() => item.get());
    },
  };
}
