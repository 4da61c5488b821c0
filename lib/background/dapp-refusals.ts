// The window-bombing cool-down: a page that asks again each time the user says no would reopen the
// approval window forever. After REFUSALS.count refusals (Reject, or closing the window) within
// REFUSALS.windowMs, its requests are answered 4001 without a window until that time has passed
// since the last one. Kept in storage.session (through lib/storage/items.ts, parsed on read): a
// page cannot wipe its cool-down by waiting for the browser to stop the worker.
import { type DappRefusals, MAX_REFUSING_ORIGINS } from '@/lib/state/dapp-queue';
import { dappRefusalsItem } from '@/lib/storage/items';

export const REFUSALS = { count: 3, windowMs: 30_000 } as const;

export interface RefusalStore {
  load(): Promise<DappRefusals>;
  save(refusals: DappRefusals): Promise<void>;
}

export const sessionRefusalStore: RefusalStore = {
  load: () => dappRefusalsItem.get(),
  save: (refusals) => dappRefusalsItem.set(refusals),
};

export interface Refusals {
  /** Counts one refusal of `origin`'s request now (written before it resolves). */
  refused(origin: string): Promise<void>;
  /** True while `origin` is in its cool-down. */
  spamming(origin: string): Promise<boolean>;
}

/** Without a store (tests that ask for memory only) the cool-down lives as long as the worker. */
export function createRefusals(now: () => number, store?: RefusalStore): Refusals {
  const byOrigin = new Map<string, number[]>();
  // A time in the future (the clock moved back) does not hold a page forever.
  const recent = (times: readonly number[]) =>
    times.filter((at) => at <= now() && now() - at < REFUSALS.windowMs);
  let loading: Promise<void> | null = null;
  const loaded = () => {
    loading ??= (async () => {
      if (!store) return;
      const stored = await store.load().catch((): DappRefusals => []);
      for (const { origin, at } of stored) {
        const times = recent([...at, ...(byOrigin.get(origin) ?? [])]);
        if (times.length > 0) byOrigin.set(origin, times.slice(-REFUSALS.count));
      }
    })();
    return loading;
  };
  let saving: Promise<void> = Promise.resolve();
  return {
    async refused(origin) {
      await loaded();
      const times = [...recent(byOrigin.get(origin) ?? []), now()].slice(-REFUSALS.count);
      byOrigin.delete(origin); // re-inserted last: the map's order is the order of the last refusal
      byOrigin.set(origin, times);
      for (const [other, times] of byOrigin) if (recent(times).length === 0) byOrigin.delete(other);
      while (byOrigin.size > MAX_REFUSING_ORIGINS) byOrigin.delete(byOrigin.keys().next().value as string);
      if (!store) return;
      const snapshot = [...byOrigin].map(([key, at]) => ({ origin: key, at }));
      saving = saving.then(() => store.save(snapshot)).catch(() => undefined);
      await saving;
    },
    async spamming(origin) {
      await loaded();
      return recent(byOrigin.get(origin) ?? []).length >= REFUSALS.count;
    },
  };
}
