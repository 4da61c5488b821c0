import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { z } from 'zod';
import { DEFAULT_ONE_CLICK_AMOUNTS, oneClickAmountFor } from '@/lib/settings/one-click';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { defineStorageItem, remembered } from '@/lib/storage/item';
import { settingsItem, tokenListItem } from '@/lib/storage/items';

beforeEach(() => fakeBrowser.reset());

describe('storage items', () => {
  it('answers the fallback when nothing is stored, and round-trips a value with its version', async () => {
    expect(await settingsItem.read()).toEqual({ ok: true, value: DEFAULT_SETTINGS, found: false });
    await settingsItem.set({ ...DEFAULT_SETTINGS, slippage: 1 });
    const raw = await fakeBrowser.storage.local.get('settings');
    expect(raw.settings).toEqual({ v: 4, data: { ...DEFAULT_SETTINGS, slippage: 1 } });
    expect((await settingsItem.get()).slippage).toBe(1);
  });

  it('runs the settings migration from v1 (string slippage, no envelope) and writes the result back', async () => {
    await fakeBrowser.storage.local.set({
      settings: { slippage: '0.8', serviceBaseUrl: 'http://127.0.0.1:9999' },
    });
    const result = await settingsItem.read();
    expect(result.ok && result.value.slippage).toBe(0.8);
    expect(result.ok && result.value.serviceBaseUrl).toBe('http://127.0.0.1:9999');
    expect(result.ok && result.value.autoLockMinutes).toBe(15);
    expect(result.ok && result.value.oneClickAmount).toBe('0.1');
    expect((await fakeBrowser.storage.local.get('settings')).settings).toMatchObject({ v: 4 });
  });

  it('runs the v3 migration: v2 settings get the one-click amount default (0.1), the rest kept', async () => {
    const { oneClickAmount: _added, ...v2 } = {
      ...DEFAULT_SETTINGS,
      slippage: 2,
      explorerHosts: { 'a.example.org': 1 },
    };
    const { oneClickAmounts: _later, ...v2Only } = v2;
    await fakeBrowser.storage.local.set({ settings: { v: 2, data: v2Only } });
    const result = await settingsItem.read();
    expect(result).toEqual({
      ok: true,
      found: true,
      value: { ...v2Only, oneClickAmount: '0.1', oneClickAmounts: DEFAULT_ONE_CLICK_AMOUNTS },
    });
    expect((await fakeBrowser.storage.local.get('settings')).settings).toMatchObject({
      v: 4,
      data: { oneClickAmount: '0.1', slippage: 2 },
    });
  });

  it('runs the v4 migration: per-chain amounts, the per-coin defaults only for whoever kept the default', async () => {
    const { oneClickAmounts: _added, ...v3 } = DEFAULT_SETTINGS;
    await fakeBrowser.storage.local.set({ settings: { v: 3, data: v3 } });
    expect(await settingsItem.get()).toEqual({ ...v3, oneClickAmounts: DEFAULT_ONE_CLICK_AMOUNTS });
    await fakeBrowser.storage.local.set({ settings: { v: 3, data: { ...v3, oneClickAmount: '0.25' } } });
    expect(await settingsItem.get()).toEqual({ ...v3, oneClickAmount: '0.25', oneClickAmounts: {} });
    expect(oneClickAmountFor({ oneClickAmount: '0.25', oneClickAmounts: { '137': '1000' } }, 137)).toBe(
      '1000',
    );
    expect(oneClickAmountFor({ oneClickAmount: '0.25', oneClickAmounts: { '137': '1000' } }, 1)).toBe('0.25');
  });

  it('refuses a stored one-click amount that is zero, negative, not canonical or too precise', async () => {
    for (const oneClickAmount of ['0', '-1', '0.10', '1e18', '0.0000000000000000001', '']) {
      await fakeBrowser.storage.local.set({
        settings: { v: 4, data: { ...DEFAULT_SETTINGS, oneClickAmount } },
      });
      expect((await settingsItem.read()).ok, oneClickAmount).toBe(false);
    }
  });

  it('migrates an unparseable v1 slippage to the default instead of failing', async () => {
    await fakeBrowser.storage.local.set({ settings: { v: 1, data: { slippage: 'lots' } } });
    const result = await settingsItem.read();
    expect(result.ok && result.value.slippage).toBe(DEFAULT_SETTINGS.slippage);
  });

  it('reports invalid stored data without overwriting it, and get() falls back', async () => {
    const corrupt = { v: 2, data: { serviceBaseUrl: 'javascript:alert(1)' } };
    await fakeBrowser.storage.local.set({ settings: corrupt });
    const result = await settingsItem.read();
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.reason).toBe('invalid');
    expect((await fakeBrowser.storage.local.get('settings')).settings).toEqual(corrupt);
    expect(await settingsItem.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('refuses a value written by a newer version instead of guessing', async () => {
    await fakeBrowser.storage.local.set({ settings: { v: 99, data: {} } });
    const result = await settingsItem.read();
    expect(!result.ok && result.error.reason).toBe('newer-version');
  });

  it('runs chained migrations in order and reports a missing step', async () => {
    const item = defineStorageItem({
      area: 'session',
      key: 'chained',
      version: 3,
      schema: z.object({ count: z.number(), label: z.string() }),
      fallback: () => ({ count: 0, label: '' }),
      migrations: {
        2: (v1) => ({ count: Number(v1) }),
        3: (v2) => ({ ...(v2 as object), label: 'migrated' }),
      },
    });
    await fakeBrowser.storage.session.set({ chained: '41' });
    expect(await item.get()).toEqual({ count: 41, label: 'migrated' });

    const gap = defineStorageItem({
      area: 'session',
      key: 'gap',
      version: 2,
      schema: z.number(),
      fallback: () => 0,
    });
    await fakeBrowser.storage.session.set({ gap: { v: 1, data: 1 } });
    const result = await gap.read();
    expect(!result.ok && result.error.reason).toBe('migration-failed');
  });

  it('refuses to write a value that breaks its schema', async () => {
    await expect(settingsItem.set({ ...DEFAULT_SETTINGS, slippage: 80 })).rejects.toThrow();
    await expect(
      tokenListItem(1).set({ chainId: 1, source: '', fetchedAt: 0, tokens: [{ bogus: true } as never] }),
    ).rejects.toThrow();
  });

  it('parses storage change events through the same migration and schema', () => {
    expect(settingsItem.parseChange({ v: 2, data: DEFAULT_SETTINGS })).toEqual(DEFAULT_SETTINGS);
    expect(settingsItem.parseChange({ v: 2, data: { nope: 1 } })).toBeUndefined();
    expect(tokenListItem(1).parseChange(undefined)).toBeUndefined();
  });

  it('keeps one token-list item per chain', () => {
    expect(tokenListItem(1)).toBe(tokenListItem(1));
    expect(tokenListItem(1).key).toBe('tokenList:1');
    expect(tokenListItem(8453).key).toBe('tokenList:8453');
  });
});

describe('remembered items (written only by the worker)', () => {
  const item = () =>
    defineStorageItem({
      area: 'session',
      key: 'remembered-test',
      version: 1,
      schema: z.object({ n: z.number() }).nullable(),
      fallback: () => null,
    });

  it('reads storage once, then answers from memory, and remembers what it wrote', async () => {
    await fakeBrowser.storage.session.set({ 'remembered-test': { v: 1, data: { n: 1 } } });
    const reads: string[] = [];
    const get = fakeBrowser.storage.session.get.bind(fakeBrowser.storage.session);
    fakeBrowser.storage.session.get = ((keys: never) => {
      reads.push(String(keys));
      return get(keys);
    }) as typeof fakeBrowser.storage.session.get;
    const memory = remembered(item());
    expect(await memory.get()).toEqual({ n: 1 });
    expect(await memory.get()).toEqual({ n: 1 });
    expect(reads).toHaveLength(1);
    await memory.set({ n: 2 });
    expect(await memory.get()).toEqual({ n: 2 });
    expect(reads).toHaveLength(1);
    // Written through: a new worker (a new remembered item) reads the same value from storage.
    expect(await remembered(item()).get()).toEqual({ n: 2 });
    expect(reads).toHaveLength(2);
    // Removed: the next read asks storage again.
    await memory.remove();
    expect(await memory.get()).toBeNull();
    expect(reads).toHaveLength(3);
  });

  it('does not remember a write that failed, nor a value it could not read', async () => {
    const memory = remembered(item());
    await memory.set({ n: 1 });
    const set = fakeBrowser.storage.session.set.bind(fakeBrowser.storage.session);
    fakeBrowser.storage.session.set = (() => Promise.reject(new Error('quota'))) as never;
    await expect(memory.set({ n: 9 })).rejects.toThrow('quota');
    fakeBrowser.storage.session.set = set;
    expect(await memory.get()).toEqual({ n: 1 });
    await fakeBrowser.storage.session.set({ 'remembered-test': { v: 1, data: { n: 'x' } } });
    const fresh = remembered(item());
    expect((await fresh.read()).ok).toBe(false);
    expect(await fresh.get()).toBeNull();
  });
});
