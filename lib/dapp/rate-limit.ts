// Read-only calls a page passes through to the RPC, limited per origin with a token bucket: a
// normal dapp (a few calls a second, bursts on load) never notices; a page hammering the wallet's
// RPC gets -32005 instead of spending its quota (and the user's) for everyone.
export const READ_LIMIT = { burst: 60, perSecond: 20 } as const;
const MAX_ORIGINS = 500;

export interface RateLimiter {
  /** True when `origin` may make one more call now (and counts it). */
  take(origin: string): boolean;
}

export function createRateLimiter(
  now: () => number,
  limit: { burst: number; perSecond: number } = READ_LIMIT,
): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(origin) {
      const time = now();
      const bucket = buckets.get(origin) ?? { tokens: limit.burst, at: time };
      bucket.tokens = Math.min(limit.burst, bucket.tokens + ((time - bucket.at) / 1000) * limit.perSecond);
      bucket.at = time;
      if (!buckets.has(origin)) {
        // Bounded memory: the oldest origin's bucket goes first (it refills to full anyway).
        if (buckets.size >= MAX_ORIGINS) buckets.delete(buckets.keys().next().value as string);
        buckets.set(origin, bucket);
      }
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}
