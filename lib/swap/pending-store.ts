// Swaps in flight, in storage.local (pendingSwapsItem): saved after every step, removed once
// terminal. What a restarted worker resumes. Writes are queued so two swaps never lose each other.

import { createSerialQueue } from '@/lib/async';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { StorageItem } from '@/lib/storage/item';
import { pendingSwapsItem } from '@/lib/storage/items';

export interface PendingSwapStore {
  save(state: SwapState): Promise<void>;
  remove(id: string): Promise<void>;
  list(): Promise<SwapState[]>;
}

/** Kept in step with PendingSwapsSchema's bound: past it, the oldest entry goes first. */
const MAX_PENDING = 50;

export function createPendingSwapStore(item: StorageItem<SwapState[]> = pendingSwapsItem): PendingSwapStore {
  const enqueue = createSerialQueue();
  return {
    save(state) {
      return enqueue(async () => {
        const others = (await item.get()).filter((s) => s.id !== state.id);
        await item.set([...others, state].slice(-MAX_PENDING));
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
