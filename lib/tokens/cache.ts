// Whitelisted token lists per chain, cached in storage.local (the manifest asks for
// unlimitedStorage, so a 10,000-token list fits) with stale-while-revalidate:
// a cached list answers at once, an old one is refreshed behind it, and a failed refresh
// keeps the old list and says so.
import type { Token } from '@/lib/api/schema';
import type { StorageItem } from '@/lib/storage/item';
import type { CachedTokenList } from '@/lib/storage/items';

export type TokenListStatus = 'fresh' | 'refreshing' | 'stale';

export interface TokenListView {
  chainId: number;
  tokens: Token[];
  fetchedAt: number;
  status: TokenListStatus;
  /** Set when the last refresh failed; the list shown is the previous one. */
  refreshError?: string;
}

export interface TokenListCacheOptions {
  fetchList: (chainId: number, signal?: AbortSignal) => Promise<Token[]>;
  itemFor: (chainId: number) => StorageItem<CachedTokenList | null>;
  /**
   * Which service (and chain naming) lists come from: a whitelist belongs to its service, so an
   * entry or a request in flight from another source is never answered after settings change.
   */
  source: () => string;
  ttlMs: number;
  /** After a failed refresh, wait this long before trying again (default 30 s). */
  retryAfterMs?: number;
  now?: () => number;
  /** Called when a background refresh settles, so views can re-render. */
  onUpdate?: (view: TokenListView) => void;
}

export interface TokenListCache {
  /** Answers from cache at once when it can; fetches (and waits) only when nothing is cached. */
  get(chainId: number): Promise<TokenListView>;
  /** Forces a fetch now; on failure the cached list stays and the error is recorded. */
  refresh(chainId: number): Promise<TokenListView>;
  /** The cached list as it is, or null: never fetches (the popup's first frame must not wait on it). */
  cached(chainId: number): Promise<TokenListView | null>;
}

export function createTokenListCache(options: TokenListCacheOptions): TokenListCache {
  const now = options.now ?? Date.now;
  const retryAfterMs = options.retryAfterMs ?? 30_000;
  const memory = new Map<number, CachedTokenList>();
  const inFlight = new Map<string, Promise<TokenListView>>();

  async function load(chainId: number): Promise<CachedTokenList | null> {
    const source = options.source();
    const cached = memory.get(chainId);
    if (cached?.source === source) return cached;
    const stored = await options.itemFor(chainId).get();
    if (stored?.source !== source) return null;
    memory.set(chainId, stored);
    return stored;
  }

  function view(entry: CachedTokenList, status: TokenListStatus): TokenListView {
    const result: TokenListView = {
      chainId: entry.chainId,
      tokens: entry.tokens,
      fetchedAt: entry.fetchedAt,
      status,
    };
    if (entry.refreshError) result.refreshError = entry.refreshError;
    return result;
  }

  /** The entry as it stands, no refresh under way: stale when its last refresh failed. */
  function currentView(entry: CachedTokenList): TokenListView {
    return view(entry, entry.refreshError ? 'stale' : 'fresh');
  }

  function refresh(chainId: number): Promise<TokenListView> {
    const source = options.source();
    const key = `${source}|${chainId}`;
    const running = inFlight.get(key);
    if (running) return running;
    const task = (async () => {
      try {
        const tokens = await options.fetchList(chainId);
        const entry: CachedTokenList = { chainId, source, fetchedAt: now(), tokens };
        memory.set(chainId, entry);
        await options.itemFor(chainId).set(entry);
        return view(entry, 'fresh');
      } catch (error) {
        const previous = await load(chainId);
        if (!previous) throw error;
        const entry: CachedTokenList = {
          ...previous,
          refreshError: error instanceof Error ? error.message : String(error),
          refreshFailedAt: now(),
        };
        memory.set(chainId, entry);
        await options.itemFor(chainId).set(entry);
        return view(entry, 'stale');
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, task);
    return task;
  }

  async function get(chainId: number): Promise<TokenListView> {
    const cached = await load(chainId);
    if (!cached) return refresh(chainId);
    const expired = now() - cached.fetchedAt >= options.ttlMs;
    if (!expired) return currentView(cached);
    const backingOff = cached.refreshFailedAt !== undefined && now() - cached.refreshFailedAt < retryAfterMs;
    if (backingOff) return view(cached, 'stale');
    refresh(chainId).then(
      (updated) => options.onUpdate?.(updated),
      () => undefined, // recorded on the entry by refresh()
    );
    return view(cached, 'refreshing');
  }

  async function cached(chainId: number): Promise<TokenListView | null> {
    const entry = await load(chainId);
    return entry ? currentView(entry) : null;
  }

  return { get, refresh, cached };
}
