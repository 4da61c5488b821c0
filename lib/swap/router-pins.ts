// The router trusted per chain (check 3 of docs/ARCHITECTURE.md, "Before anything is signed"): pinned the first time the user consents to it;
// a build naming any other address needs the user's consent again.
import { getAddress } from 'viem';
import type { Address } from '@/lib/api/schema';
import { createSerialQueue } from '@/lib/async';
import type { RouterPinsMap } from '@/lib/state/pipeline-state';
import type { StorageItem } from '@/lib/storage/item';
import { routerPinsItem } from '@/lib/storage/items';

export interface RouterPins {
  get(chainId: number): Promise<Address | undefined>;
  pin(chainId: number, router: string): Promise<void>;
  unpin(chainId: number): Promise<void>;
}

export function createRouterPins(
  item: StorageItem<RouterPinsMap> = routerPinsItem,
  now: () => number = Date.now,
): RouterPins {
  const enqueue = createSerialQueue();
  return {
    async get(chainId) {
      const pins = await enqueue(() => item.get());
      const pinned = pins[String(chainId)]?.address;
      return pinned ? (getAddress(pinned) as Address) : undefined;
    },
    async pin(chainId, router) {
      const address = getAddress(router) as Address; // rejects anything but an address
      return enqueue(async () => {
        const pins = await item.get();
        await item.set({ ...pins, [String(chainId)]: { address, pinnedAt: now() } });
      });
    },
    unpin(chainId) {
      return enqueue(async () => {
        const { [String(chainId)]: _removed, ...rest } = await item.get();
        await item.set(rest);
      });
    },
  };
}
