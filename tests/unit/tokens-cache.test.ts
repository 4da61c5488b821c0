import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSwapApiClient } from '@/lib/api/client';
import type { Token } from '@/lib/api/schema';
import { tokenListItem } from '@/lib/storage/items';
import { createTokenListCache, type TokenListView } from '@/lib/tokens/cache';
import { lookupToken, safeLogoUrl } from '@/lib/tokens/import';
import { buildTokenSearchIndex } from '@/lib/tokens/search';
import { startTestService, type TestService } from '../support/test-service';
import { syntheticTokens } from '../support/tokens';

let service: TestService;
let clock: number;
const HOUR = 3_600_000;

function makeCache(onUpdate?: (view: TokenListView) => void, baseUrl = () => service.url) {
  return createTokenListCache({
    fetchList: (chainId) =>
      createSwapApiClient({ baseUrl: baseUrl(), retry: false }).listTokens(
        chainId === 1 ? 'ethereum' : 'base',
      ),
    itemFor: tokenListItem,
    source: baseUrl,
    ttlMs: HOUR,
    retryAfterMs: 60_000,
    now: () => clock,
    ...(onUpdate ? { onUpdate } : {}),
  });
}
const listHits = () => service.hits.filter((hit) => hit.path.endsWith('/full')).length;

beforeEach(async () => {
  fakeBrowser.reset();
  clock = 1_000_000;
  service = await startTestService({ tokens: { ethereum: syntheticTokens(50) } });
});
afterEach(() => service.close());

describe('token list cache', () => {
  it('fetches once, then answers from cache without the network', async () => {
    const cache = makeCache();
    const first = await cache.get(1);
    expect(first).toMatchObject({ status: 'fresh', fetchedAt: clock });
    expect(first.tokens).toHaveLength(50);
    clock += HOUR / 2;
    const second = await cache.get(1);
    expect(second.tokens).toHaveLength(50);
    expect(listHits()).toBe(1);
    // A new cache (a restarted worker) reads storage, not the network.
    expect((await makeCache().get(1)).status).toBe('fresh');
    expect(listHits()).toBe(1);
  });

  it('answers an expired list at once and refreshes it behind', async () => {
    const updates: TokenListView[] = [];
    const cache = makeCache((view) => updates.push(view));
    await cache.get(1);
    service.behaviour.tokens.ethereum = syntheticTokens(60);
    clock += HOUR + 1;
    const stale = await cache.get(1);
    expect(stale.status).toBe('refreshing');
    expect(stale.tokens).toHaveLength(50);
    await expect.poll(() => updates.length).toBe(1);
    expect(updates[0]).toMatchObject({ status: 'fresh', fetchedAt: clock });
    expect((await cache.get(1)).tokens).toHaveLength(60);
  });

  it('keeps the old list when a refresh fails, says so, and backs off before retrying', async () => {
    const updates: TokenListView[] = [];
    const cache = makeCache((view) => updates.push(view));
    await cache.get(1);
    service.behaviour.listFailure = { status: 503, times: 5 };
    clock += HOUR + 1;
    await cache.get(1);
    await expect.poll(() => updates.length).toBe(1);
    expect(updates[0]?.status).toBe('stale');
    expect(updates[0]?.tokens).toHaveLength(50);
    expect(updates[0]?.refreshError).toMatch(/unavailable/i);
    const hitsAfterFailure = listHits();
    expect((await cache.get(1)).status).toBe('stale');
    expect(listHits()).toBe(hitsAfterFailure); // backing off
    clock += 60_001;
    service.behaviour.listFailure = undefined;
    await cache.get(1);
    await expect.poll(() => updates.length).toBe(2);
    expect(updates[1]).toMatchObject({ status: 'fresh' });
    expect(updates[1]?.refreshError).toBeUndefined();
  });

  it('fails loudly when nothing is cached and the service is down', async () => {
    service.behaviour.listFailure = { status: 503, times: 1 };
    await expect(makeCache().get(1)).rejects.toThrow(/unavailable/i);
  });

  it('never answers with a list (cached or in flight) from a previous service', async () => {
    let url = service.url;
    const cache = makeCache(undefined, () => url);
    await cache.get(1);
    const other = await startTestService({ tokens: { ethereum: syntheticTokens(7) } });
    try {
      // A request to the old service is in flight when the settings change.
      service.behaviour.quoteDelayMs = 0;
      const old = cache.refresh(1);
      url = other.url;
      const fresh = await cache.get(1);
      expect(fresh.tokens).toHaveLength(7);
      expect((await old).tokens).toHaveLength(50);
      expect((await cache.get(1)).tokens).toHaveLength(7);
      // A restarted worker with the new settings reads the new service's list from storage.
      expect((await makeCache(undefined, () => url).get(1)).tokens).toHaveLength(7);
      expect(other.hits.filter((hit) => hit.path.endsWith('/full'))).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('migrates a v1 list (no source) into one that is fetched anew', async () => {
    await fakeBrowser.storage.local.set({
      'tokenList:1': { v: 1, data: { chainId: 1, fetchedAt: clock, tokens: [] } },
    });
    const stored = await tokenListItem(1).read();
    expect(stored.ok && stored.value?.source).toBe('');
    expect((await makeCache().get(1)).tokens).toHaveLength(50);
    expect(listHits()).toBe(1);
  });

  it('stores and searches a 10,000-token list', async () => {
    service.behaviour.tokens.ethereum = syntheticTokens(10_000);
    const view = await makeCache().get(1);
    expect(view.tokens).toHaveLength(10_000);
    const stored = await tokenListItem(1).get();
    expect(stored?.tokens).toHaveLength(10_000);
    const index = buildTokenSearchIndex(stored?.tokens ?? []);
    const target = view.tokens[9_999] as Token;
    expect(index.search(target.address.toUpperCase().replace('0X', '0x'))).toEqual([9_999]);
  });
});

describe('import by address', () => {
  const listed = syntheticTokens(3);
  const outside: Token = {
    chainId: 1,
    address: '0x1234567890abcdef1234567890abcdef12345678',
    name: 'Outside',
    symbol: 'OUT',
    decimals: 18,
    logoURI: '',
  };
  function deps() {
    const client = createSwapApiClient({ baseUrl: service.url, retry: false });
    return {
      findListed: (_chainId: number, address: string) =>
        listed.find((token) => token.address.toLowerCase() === address.toLowerCase()),
      searchToken: (_chainId: number, address: string) => client.searchToken('ethereum', address),
      readMetadata: async () => ({ name: 'Unknown Coin', symbol: 'UNK', decimals: 9 }),
    };
  }

  it('uses a listed token without asking the service', async () => {
    const result = await lookupToken(deps(), 1, ` ${listed[1]?.address.toUpperCase().replace('0X', '0x')} `);
    expect(result).toMatchObject({ status: 'listed', token: listed[1] });
    expect(service.hits).toHaveLength(0);
  });

  it('finds a whitelisted token through /search', async () => {
    service.behaviour.searchable = { [outside.address]: outside };
    const result = await lookupToken(deps(), 1, outside.address);
    expect(result.status).toBe('whitelisted');
  });

  it('flags a token the service does not know as not whitelisted', async () => {
    const result = await lookupToken(deps(), 1, '0x00000000000000000000000000000000000000aa');
    expect(result).toMatchObject({ status: 'not-whitelisted', token: { symbol: 'UNK', decimals: 9 } });
  });

  it('refuses a malformed address with a clear message, without a request', async () => {
    for (const bad of ['', '0x123', 'hello', `0x${'g'.repeat(40)}`, `${'1'.repeat(42)}`]) {
      const result = await lookupToken(deps(), 1, bad);
      expect(result.status).toBe('invalid-address');
    }
    expect(service.hits).toHaveLength(0);
  });
});

describe('logo URLs', () => {
  it('allows https, image data URLs and the service origin only', () => {
    const origin = 'http://127.0.0.1:8787';
    expect(safeLogoUrl('https://cdn.example/logo.png', origin)).toBe('https://cdn.example/logo.png');
    expect(safeLogoUrl('data:image/svg+xml;base64,PHN2Zz4=', origin)).not.toBeNull();
    expect(safeLogoUrl('http://127.0.0.1:8787/logos/ethereum/0xabc.svg', origin)).not.toBeNull();
    expect(safeLogoUrl('http://evil.example/logo.png', origin)).toBeNull();
    expect(safeLogoUrl('javascript:alert(1)', origin)).toBeNull();
    expect(safeLogoUrl('data:text/html,<script>', origin)).toBeNull();
    expect(safeLogoUrl('not a url', origin)).toBeNull();
  });
});
