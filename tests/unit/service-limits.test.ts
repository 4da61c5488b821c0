// The reference service under hostile clients, without a network: the token list never depends on
// a request's Host, per-client rate limits (429 + Retry-After + the shared error body), bounded
// request size and target, and a time bound on the route search.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES, ErrorBodySchema, TokenListResponseSchema } from '../../lib/api/schema';
import { createServiceApp } from '../../service/app';
import type { BlockRef, ChainReader } from '../../service/chain-reader';
import { LimitsConfigSchema } from '../../service/config';
import { buildableBlocks, policyFromConfig, resolvePolicy, type ServicePolicy } from '../../service/policy';
import { clientKey, DEFAULT_RATE_LIMITS, RateLimiter } from '../../service/rate-limit';
import { makeSnapshot } from '../../service/routing/reserves';
import { RouteSearchTimeout, searchClock } from '../../service/routing/search-clock';
import { USDC, WETH } from '../support/addresses';
import { ethereumManifest } from '../support/service-manifest';

// Counts every gzip the service does: the token list must be compressed once, never per request.
const gzipCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  return {
    ...zlib,
    gzipSync: (...args: Parameters<typeof zlib.gzipSync>) => {
      gzipCalls.count += 1;
      return zlib.gzipSync(...args);
    },
  };
});

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

const manifest = ethereumManifest();

const reader: ChainReader = {
  async head(): Promise<BlockRef> {
    return { number: 100n, hash: `0x${'64'.padStart(64, '0')}` };
  },
  async block(number) {
    return { number, hash: `0x${number.toString(16).padStart(64, '0')}` };
  },
  async reserves(block) {
    return makeSnapshot(block.number, [
      [30_000_000n * E6, 10_000n * E18],
      [12_000_000n * E6, 4_010n * E18],
    ]);
  },
};

function setup(policy: Partial<ServicePolicy> = {}) {
  const app = createServiceApp({
    manifest,
    readers: { ethereum: reader },
    clock: () => new Date('2025-01-02T03:04:05.000Z'),
    log: () => {},
    policy,
  });
  /** A request from `client` (the TCP peer, as @hono/node-server passes it). */
  const from = (client: string, path: string, init: RequestInit = {}) =>
    app.request(path, init, { incoming: { socket: { remoteAddress: client } } });
  const quote = (client: string) =>
    from(client, '/v1/quote', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        chainId: 1,
        inToken: WETH,
        outToken: USDC,
        inAmount: E18.toString(),
        slippage: 1,
      }),
    });
  return { app, from, quote };
}

async function errorOf(response: Response) {
  return ErrorBodySchema.parse(await response.json()).error;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('token list: Host never decides what is computed or cached', () => {
  it('nine Host values cost no recompression; every answer is the configured URL’s bytes', async () => {
    gzipCalls.count = 0;
    const { app } = setup({ publicBaseUrl: 'https://swap.example.org/' });
    const afterStart = gzipCalls.count;
    expect(afterStart).toBe(1); // prepared once, when the app is made
    const etags = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const response = await app.request(
        `http://host-${i}.attacker.test:${8000 + i}/v1/tokens/ethereum/full`,
        {
          headers: { 'Accept-Encoding': 'gzip', Host: `host-${i}.attacker.test` },
        },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe('gzip');
      etags.add(response.headers.get('etag') ?? '');
    }
    expect(gzipCalls.count).toBe(afterStart);
    expect(etags.size).toBe(1);
    const plain = await app.request('http://evil.test/v1/tokens/ethereum/full', {
      headers: { Host: 'evil.test' },
    });
    const list = TokenListResponseSchema.parse(await plain.json());
    expect(list.every((token) => token.logoURI?.startsWith('https://swap.example.org/logos/ethereum/'))).toBe(
      true,
    );
    const search = await app.request(`http://evil.test/v1/tokens/ethereum/search/${USDC}`);
    expect(JSON.stringify(await search.json())).not.toContain('evil.test');
    expect(gzipCalls.count).toBe(afterStart);
  });

  it('answers 304 to the list’s ETag, whatever the Host', async () => {
    const { app } = setup();
    const first = await app.request('http://a.test/v1/tokens/ethereum/full');
    const etag = first.headers.get('etag') ?? '';
    const again = await app.request('http://b.test/v1/tokens/ethereum/full', {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
  });
});

describe('rate limits', () => {
  const tight = { ...DEFAULT_RATE_LIMITS, quote: { burst: 2, perSecond: 0.5 } };

  it('429 with Retry-After and the shared error body once a client’s bucket is empty; other clients and health unaffected', async () => {
    const { quote, from } = setup({ rateLimits: tight });
    expect((await quote('203.0.113.7')).status).toBe(200);
    expect((await quote('203.0.113.7')).status).toBe(200);
    const limited = await quote('203.0.113.7');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    const error = await errorOf(limited);
    expect(error.code).toBe(ERROR_CODES.rateLimited);
    expect(error.message).toBe('too many quote requests from this client; retry in 2 s');
    expect((await quote('203.0.113.8')).status).toBe(200);
    expect((await from('203.0.113.7', '/v1/health')).status).toBe(200);
    // Reads have their own bucket: a client out of quotes still gets its token list.
    expect((await from('203.0.113.7', '/v1/tokens/ethereum/full')).status).toBe(200);
  });

  it('counts an IPv6 client by its /64, and a proxy header only when configured', async () => {
    const { quote } = setup({ rateLimits: tight });
    await quote('2001:db8:1:2::1');
    await quote('2001:db8:1:2:ffff::9');
    expect((await quote('2001:db8:1:2:abcd::5')).status).toBe(429);
    expect((await quote('2001:db8:1:3::1')).status).toBe(200);

    const spoofed = setup({ rateLimits: tight });
    const viaHeader = (address: string) =>
      spoofed.from('10.0.0.1', '/v1/quote', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Real-IP': address },
        body: JSON.stringify({ chainId: 1, inToken: WETH, outToken: USDC, inAmount: '1000', slippage: 1 }),
      });
    await viaHeader('1.1.1.1');
    await viaHeader('2.2.2.2');
    expect((await viaHeader('3.3.3.3')).status).toBe(429); // an unconfigured header changes nothing

    const proxied = setup({ rateLimits: tight, clientAddressHeader: 'X-Real-IP' });
    const behindProxy = (address: string) =>
      proxied.from('10.0.0.1', '/v1/health', { headers: { 'X-Real-IP': address } });
    expect((await behindProxy('1.1.1.1')).status).toBe(200);
  });

  it('refills at perSecond up to burst, and bounds the clients it tracks', () => {
    let now = 0;
    const limiter = new RateLimiter(
      { ...DEFAULT_RATE_LIMITS, quote: { burst: 3, perSecond: 2 }, maxClients: 100 },
      () => now,
    );
    for (let i = 0; i < 3; i++) expect(limiter.take('quote', 'a').ok).toBe(true);
    expect(limiter.take('quote', 'a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 500; // one request's worth
    expect(limiter.take('quote', 'a').ok).toBe(true);
    expect(limiter.take('quote', 'a').ok).toBe(false);
    now += 60_000; // long idle: back to burst, not beyond
    for (let i = 0; i < 3; i++) expect(limiter.take('quote', 'a').ok).toBe(true);
    expect(limiter.take('quote', 'a').ok).toBe(false);
    for (let i = 0; i < 1_000; i++) limiter.take('quote', `flood-${i}`);
    expect(limiter.size).toBeLessThanOrEqual(100);
    expect(() => new RateLimiter({ ...DEFAULT_RATE_LIMITS, build: { burst: 0, perSecond: 1 } })).toThrow(
      /"build" needs burst >= 1/,
    );
  });

  it('keys clients by address, IPv4-mapped IPv6 as IPv4', () => {
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('2001:DB8:0:1::7')).toBe('2001:db8:0:1::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey(undefined)).toBe('unknown');
  });

  it('is off when configured off (benchmarks of raw capacity)', async () => {
    const { quote } = setup({ rateLimits: null });
    for (let i = 0; i < 40; i++) expect((await quote('203.0.113.9')).status).toBe(200);
  });
});

describe('request bounds', () => {
  it('413 for a body over the limit, declared or streamed without a length', async () => {
    const { app } = setup({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ pad: 'x'.repeat(2_000) });
    const declared = await app.request('/v1/quote', {
      method: 'POST',
      body: big,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(declared.status).toBe(413);
    expect((await errorOf(declared)).message).toBe('request body is larger than 1024 bytes');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(600)));
        controller.close();
      },
    });
    const streamed = await app.request('/v1/build', {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('414 for a request target over the limit, with the error body', async () => {
    const { app } = setup({ maxUrlBytes: 256 });
    const response = await app.request(`/v1/tokens/ethereum/search/0x${'a'.repeat(300)}`);
    expect(response.status).toBe(414);
    const error = await errorOf(response);
    expect(error.code).toBe(ERROR_CODES.badRequest);
    expect(error.message).toMatch(/^the request path and query are 3\d\d bytes; the limit is 256$/);
    expect((await app.request('/v1/health')).status).toBe(200);
  });

  it('422 ROUTE_SEARCH_TOO_LONG when the route search runs past its budget', async () => {
    const { quote } = setup({ routeSearchMs: 5 });
    let now = 0;
    // Every clock read is 10 ms later: the first check inside the search is already past 5 ms.
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 10));
    const response = await quote('198.51.100.1');
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe(ERROR_CODES.routeSearchTooLong);
    expect(error.message).toContain("ran past the service's 5 ms limit");
  });

  it('the search clock throws only past its budget', () => {
    let now = 0;
    const clock = searchClock(100, () => now, 1);
    now = 100;
    expect(() => clock.check()).not.toThrow();
    now = 101;
    expect(() => clock.check()).toThrow(RouteSearchTimeout);
  });

  it('the search clock reads the time on its first check and every stride-th after it', () => {
    let now = 0;
    let reads = 0;
    const read = () => {
      reads += 1;
      return now;
    };
    const clock = searchClock(100, read, 4);
    now = 500; // already past the budget
    expect(() => clock.check()).toThrow(RouteSearchTimeout); // check 1 reads
    for (let i = 0; i < 3; i++) expect(() => clock.check()).not.toThrow(); // checks 2-4 do not
    expect(() => clock.check()).toThrow(RouteSearchTimeout); // check 5 reads again
    expect(reads).toBe(3); // the deadline's read and two checks
  });
});

describe('limits in the configuration file', () => {
  it('become policy overrides; absent fields keep the defaults; false turns rate limits off', () => {
    const limits = LimitsConfigSchema.parse({
      maxBodyBytes: 4096,
      routeSearchMs: 100,
      rateLimits: { quote: { burst: 5, perSecond: 1 } },
    });
    const policy = resolvePolicy(policyFromConfig({ limits, publicBaseUrl: 'https://swap.example.org' }));
    expect(policy.maxBodyBytes).toBe(4096);
    expect(policy.routeSearchMs).toBe(100);
    expect(policy.maxUrlBytes).toBe(2048);
    expect(policy.publicBaseUrl).toBe('https://swap.example.org');
    expect(policy.rateLimits?.quote).toEqual({ burst: 5, perSecond: 1 });
    expect(policy.rateLimits?.build).toEqual(DEFAULT_RATE_LIMITS.build);
    expect(resolvePolicy(policyFromConfig({ limits: { rateLimits: false } })).rateLimits).toBeNull();
    expect(LimitsConfigSchema.safeParse({ rateLimits: { quote: { burst: 0, perSecond: 1 } } }).success).toBe(
      false,
    );
    expect(LimitsConfigSchema.safeParse({ maxBodyByte: 1 }).success).toBe(false); // a typo is an error
  });

  it('the snapshot cache covers every block a quote can be built at', () => {
    const policy = resolvePolicy();
    expect(buildableBlocks(policy, 'ethereum')).toBe(21);
    expect(buildableBlocks(policy, 'base')).toBe(61);
  });
});
