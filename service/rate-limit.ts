// Per-client rate limits: one token bucket per client and class of request. A bucket holds up to
// `burst` requests and refills at `perSecond`; an empty one answers 429 with Retry-After (the
// whole seconds until one request is allowed again). Buckets live in a bounded map: full buckets
// (idle clients) are dropped first, so a flood of addresses cannot grow memory without bound.

/** Which budget a request draws on: quotes and builds cost routing work, reads cost little. */
export type LimitClass = 'quote' | 'build' | 'read';

export interface BucketLimit {
  /** Requests a client may send at once. */
  readonly burst: number;
  /** Requests per second a client may keep sending. */
  readonly perSecond: number;
}

export interface RateLimits {
  readonly quote: BucketLimit;
  readonly build: BucketLimit;
  readonly read: BucketLimit;
  /** Clients tracked at once; past it, idle (full) buckets are dropped, then the oldest. */
  readonly maxClients: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  quote: { burst: 30, perSecond: 5 },
  build: { burst: 10, perSecond: 2 },
  read: { burst: 300, perSecond: 50 },
  maxClients: 50_000,
};

export type TakeResult = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: RateLimits,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    for (const name of ['quote', 'build', 'read'] as const) {
      const { burst, perSecond } = limits[name];
      if (!(burst >= 1) || !(perSecond > 0)) {
        throw new RangeError(`rate limit "${name}" needs burst >= 1 and perSecond > 0`);
      }
    }
  }

  /** Takes one request from `client`'s bucket of `kind`, or says how long to wait. */
  take(kind: LimitClass, client: string): TakeResult {
    const { burst, perSecond } = this.limits[kind];
    const key = `${kind} ${client}`;
    const now = this.nowMs();
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      this.makeRoom(now);
      bucket = { tokens: burst, at: now };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
  }

  /** Clients tracked now (for tests and the soak's memory check). */
  get size(): number {
    return this.buckets.size;
  }

  private makeRoom(now: number): void {
    if (this.buckets.size < this.limits.maxClients) return;
    for (const [key, bucket] of this.buckets) {
      const kind = key.slice(0, key.indexOf(' ')) as LimitClass;
      const { burst, perSecond } = this.limits[kind];
      if (bucket.tokens + ((now - bucket.at) / 1000) * perSecond >= burst) this.buckets.delete(key);
    }
    // Still full of active clients: forget the oldest (it gets a fresh bucket if it returns).
    while (this.buckets.size >= this.limits.maxClients) {
      const oldest = this.buckets.keys().next().value;
      if (oldest === undefined) break;
      this.buckets.delete(oldest);
    }
  }
}

/**
 * The client a request is counted against: the peer address, an IPv6 address by its /64 (one
 * host usually holds a whole /64, so counting single addresses would let it rotate freely).
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (!plain.includes(':')) return plain;
  return `${expandIpv6(plain).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...new Array<string>(Math.max(0, missing)).fill('0'), ...right].map((group) =>
    group.toLowerCase().replace(/^0+(?=.)/, ''),
  );
}
