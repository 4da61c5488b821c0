// The router trusted per (swap service, chain) (check 3 of docs/ARCHITECTURE.md, "Before anything
// is signed"): pinned the first time the user consents to it; a build naming any other address
// needs the user's consent again. Keyed by the service's origin too, so a router one service was
// trusted with is never taken as trusted for another service on the same chain.
import { getAddress } from 'viem';
import type { Address } from '@/lib/api/schema';
import { createSerialQueue } from '@/lib/async';
import { type RouterPinsMap, routerPinKey } from '@/lib/state/pipeline-state';
import type { StorageItem } from '@/lib/storage/item';
import { routerPinsItem, settingsItem } from '@/lib/storage/items';

export interface RouterPins {
  get(chainId: number): Promise<Address | undefined>;
  pin(chainId: number, router: string): Promise<void>;
  unpin(chainId: number): Promise<void>;
}

/** The configured service's origin, read from the stored settings. */
async function storedServiceOrigin(): Promise<string> {
  return new URL((await settingsItem.get()).serviceBaseUrl).origin;
}

export function createRouterPins(
  item: StorageItem<RouterPinsMap> = routerPinsItem,
  now: () => number = Date.now,
  serviceOrigin: () => string | Promise<string> = storedServiceOrigin,
  /** Runs after every write (the background re-seals the trust settings with it). */
  afterWrite: () => unknown = () => undefined,
): RouterPins {
  const enqueue = createSerialQueue();
  const keyFor = async (chainId: number) => routerPinKey(await serviceOrigin(), chainId);
  return {
    async get(chainId) {
      const key = await keyFor(chainId);
      const pins = await enqueue(() => item.get());
      const pinned = pins[key]?.address;
      return pinned ? (getAddress(pinned) as Address) : undefined;
    },
    async pin(chainId, router) {
      const address = getAddress(router) as Address; // rejects anything but an address
      const key = await keyFor(chainId);
      await enqueue(async () => {
        const pins = await item.get();
        await item.set({ ...pins, [key]: { address, pinnedAt: now() } });
      });
      await afterWrite();
    },
    async unpin(chainId) {
      const key = await keyFor(chainId);
      await enqueue(async () => {
        const { [key]: _removed, ...rest } = await item.get();
        await item.set(rest);
      });
      await afterWrite();
    },
  };
}
