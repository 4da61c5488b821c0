import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import {
  HISTORY_LIMIT,
  type HistoryEntry,
  type SwapState,
  SwapStateSchema,
} from '@/lib/state/pipeline-state';
import { pendingSwapsItem, routerPinsItem, swapHistoryItem } from '@/lib/storage/items';
import { createPendingSwapStore } from '@/lib/swap/execute';
import { addToHistory, createSwapHistory } from '@/lib/swap/history';
import { createRouterPins } from '@/lib/swap/router-pins';
import { USDC } from '../support/addresses';
import { swapStateFixture } from '../support/swaps';

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ROUTER = '0xb19b36b1456E65E3A6D514D3F715f204BD59f431';

function entry(i: number, over: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    kind: 'swap',
    id: `swap-${i}`,
    chainId: 1,
    account: ACCOUNT,
    status: 'pending',
    hash: `0x${i.toString(16).padStart(64, '0')}`,
    explorerUrl: null,
    gasPaid: null,
    failure: null,
    createdAt: i,
    updatedAt: i,
    inToken: NATIVE_TOKEN_ADDRESS,
    outToken: USDC,
    inDecimals: 18,
    outDecimals: 6,
    inAmount: '1000000000000000000',
    quotedOut: '3000000000',
    minReceived: '2985000000',
    received: null,
    ...over,
  } as HistoryEntry;
}

beforeEach(() => fakeBrowser.reset());

describe('history', () => {
  it('keeps the newest entries first and at most HISTORY_LIMIT of them', async () => {
    const history = createSwapHistory();
    await Promise.all(Array.from({ length: HISTORY_LIMIT + 15 }, (_, i) => history.record(entry(i))));
    const list = await history.list();
    expect(list).toHaveLength(HISTORY_LIMIT);
    expect(list[0]?.id).toBe(`swap-${HISTORY_LIMIT + 14}`);
    expect(list.at(-1)?.id).toBe('swap-15');
  });

  it('updates an entry in place by id and moves it to the top', async () => {
    const history = createSwapHistory();
    await history.record(entry(1));
    await history.record(entry(2));
    await history.record(entry(1, { status: 'confirmed', received: '3000000000' }));
    const list = await history.list();
    expect(list.map((e) => [e.id, e.status])).toEqual([
      ['swap-1', 'confirmed'],
      ['swap-2', 'pending'],
    ]);
  });

  it('honours a smaller limit, never a larger one', () => {
    const many = Array.from({ length: 10 }, (_, i) => entry(i));
    expect(addToHistory(many, entry(99), 3).map((e) => e.id)).toEqual(['swap-99', 'swap-0', 'swap-1']);
    const full = Array.from({ length: HISTORY_LIMIT }, (_, i) => entry(i));
    expect(addToHistory(full, entry(999), 10_000)).toHaveLength(HISTORY_LIMIT);
  });

  it('refuses a malformed entry, and a corrupt stored history is replaced rather than blocking', async () => {
    const history = createSwapHistory();
    await expect(history.record(entry(1, { inAmount: '1.5' } as Partial<HistoryEntry>))).rejects.toThrow();
    await fakeBrowser.storage.local.set({ swapHistory: { v: 1, data: [{ nonsense: true }] } });
    await history.record(entry(2));
    expect((await swapHistoryItem.read()).ok).toBe(true);
    expect((await history.list()).map((e) => e.id)).toEqual(['swap-2']);
  });
});

describe('router pins', () => {
  it('pins per (service origin, chain) with a checksummed address, and unpins', async () => {
    const pins = createRouterPins(
      routerPinsItem,
      () => 42,
      () => 'https://swap.example',
    );
    expect(await pins.get(1)).toBeUndefined();
    await pins.pin(1, ROUTER.toLowerCase());
    expect(await pins.get(1)).toBe(ROUTER);
    expect(await pins.get(8453)).toBeUndefined();
    expect(await routerPinsItem.get()).toEqual({
      'https://swap.example 1': { address: ROUTER, pinnedAt: 42 },
    });
    await pins.unpin(1);
    expect(await pins.get(1)).toBeUndefined();
    await expect(pins.pin(1, 'not an address')).rejects.toThrow();
  });

  it('never takes the router trusted with one service as trusted for another on the same chain', async () => {
    let origin = 'https://swap.example';
    const writes: number[] = [];
    const pins = createRouterPins(
      routerPinsItem,
      () => 42,
      () => origin,
      () => {
        writes.push(1);
      },
    );
    await pins.pin(1, ROUTER);
    origin = 'https://other-service.example';
    expect(await pins.get(1)).toBeUndefined();
    origin = 'https://swap.example';
    expect(await pins.get(1)).toBe(ROUTER);
    expect(writes).toHaveLength(1); // the background re-seals the trust settings after each write
  });

  it("uses the stored settings' service origin by default", async () => {
    await createRouterPins().pin(1, ROUTER);
    expect(Object.keys(await routerPinsItem.get())).toEqual(['http://127.0.0.1:8787 1']);
  });

  it('drops v1 per-chain pins on migration: they never recorded their service', async () => {
    await fakeBrowser.storage.local.set({
      routerPins: { v: 1, data: { '1': { address: ROUTER, pinnedAt: 1 } } },
    });
    expect(await routerPinsItem.get()).toEqual({});
  });
});

describe('pending swaps store', () => {
  const state = (id: string): SwapState => SwapStateSchema.parse(swapStateFixture({ id }));

  it('saves by id, replaces, removes, and survives a new store instance (a restart)', async () => {
    const store = createPendingSwapStore();
    await store.save(state('a'));
    await store.save(state('b'));
    await store.save({ ...state('a'), status: 'signing' });
    const again = createPendingSwapStore();
    expect((await again.list()).map((s) => [s.id, s.status])).toEqual([
      ['b', 'sent'],
      ['a', 'signing'],
    ]);
    await again.remove('b');
    expect((await pendingSwapsItem.get()).map((s) => s.id)).toEqual(['a']);
  });

  it('a state with a bigint-unsafe amount or unknown status does not validate', () => {
    expect(SwapStateSchema.safeParse({ ...state('x'), status: 'teleporting' }).success).toBe(false);
    expect(
      SwapStateSchema.safeParse({ ...state('x'), outcome: { status: 'success', received: 12 } }).success,
    ).toBe(false);
  });
});
