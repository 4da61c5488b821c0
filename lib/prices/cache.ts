// Prices are kept briefly: a reference quote per token per popup render would hammer the service,
// and a price older than this is too old to show next to a live quote.
export const PRICE_TTL_MS = 30_000;

export interface PriceCache {
  /** The cached price (null = known to be unknown), or undefined when absent or expired. */
  get(chainId: number, token: string): bigint | null | undefined;
  set(chainId: number, token: string, price: bigint | null): void;
  clear(): void;
}

export function createPriceCache(now: () => number = Date.now, ttlMs = PRICE_TTL_MS): PriceCache {
  const entries = new Map<string, { price: bigint | null; at: number }>();
  const key = (chainId: number, token: string) => `${chainId}:${token.toLowerCase()}`;
  return {
    get(chainId, token) {
      const entry = entries.get(key(chainId, token));
      if (!entry) return undefined;
      if (now() - entry.at >= ttlMs) {
        entries.delete(key(chainId, token));
        return undefined;
      }
      return entry.price;
    },
    set(chainId, token, price) {
      entries.set(key(chainId, token), { price, at: now() });
    },
    clear: () => entries.clear(),
  };
}
