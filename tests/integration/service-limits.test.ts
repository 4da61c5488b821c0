// The reference service under hostile and heavy clients, over real HTTP on a real devnet: a build
// of an old (still valid) quote costs the node no reserves read, and the 429 path end to end, from
// the service's token bucket to the extension's client and quote session and the words they show.
import { createTestClient, type Hex, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDevnet } from '../../devnet/start';
import { createSwapApiClient } from '../../lib/api/client';
import { RateLimitedError } from '../../lib/api/errors';
import { userMessageFor } from '../../lib/api/messages';
import { ErrorBodySchema, type Quote, QuoteResponseSchema } from '../../lib/api/schema';
import { createQuoteSession } from '../../lib/swap/session';
import { createRpcChainReader } from '../../service/chain-reader';
import { DEFAULT_RATE_LIMITS } from '../../service/rate-limit';
import { type RunningService, startService } from '../../service/server';
import { USDC, WETH } from '../support/addresses';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy';

type Devnet = Awaited<ReturnType<typeof startDevnet>>;
let devnet: Devnet;
let rpcProxy: FaultProxy;
let proxied: RunningService;
const services: RunningService[] = [];

const ask = {
  chainId: 1,
  inToken: WETH,
  outToken: USDC,
  inAmount: (2n * 10n ** 18n).toString(),
  slippage: 0.5,
};

const ethereum = () => {
  const found = devnet.manifest.chains.find((chain) => chain.chainName === 'ethereum');
  if (!found) throw new Error('no ethereum chain');
  return found;
};

/** The block tags of every eth_call the node was asked since hit `from`. */
function ethCallTags(from = 0): string[] {
  return rpcProxy.hits.slice(from).flatMap((hit) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(hit.body);
    } catch {
      return [];
    }
    const entries = (Array.isArray(parsed) ? parsed : [parsed]) as { method?: string; params?: unknown[] }[];
    return entries.filter((entry) => entry.method === 'eth_call').map((entry) => String(entry.params?.[1]));
  });
}

const tagOf = (block: number | bigint) => `0x${block.toString(16)}`;

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function limitedService(quote: { burst: number; perSecond: number }): Promise<RunningService> {
  const service = await startService({
    manifest: devnet.manifest,
    port: 0,
    log: () => {},
    policy: { rateLimits: { ...DEFAULT_RATE_LIMITS, quote } },
  });
  services.push(service);
  return service;
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: { ethereum: 0, base: 0 } });
  rpcProxy = await startFaultProxy(ethereum().rpcUrl);
  const manifest = {
    ...devnet.manifest,
    chains: devnet.manifest.chains.map((chain) =>
      chain.chainName === 'ethereum' ? { ...chain, rpcUrl: rpcProxy.url } : chain,
    ),
  };
  proxied = await startService({ manifest, port: 0, log: () => {} });
  services.push(proxied);
});

afterAll(async () => {
  for (const service of services) await service.close().catch(() => undefined);
  await rpcProxy?.close();
  await devnet?.stop();
});

describe('the reserve-snapshot cache covers the whole build window', () => {
  it('a build of a 19-block-old quote reads no reserves from the node', async () => {
    const response = await post(proxied.url, '/v1/quote', ask);
    expect(response.status).toBe(200);
    const quote: Quote = QuoteResponseSchema.parse(await response.json()).data;
    const quoted = quote.blockNumber;
    const testClient = createTestClient({ mode: 'anvil', transport: http(ethereum().rpcUrl) });
    // One block at a time, each read by the service's head watcher, as on a live chain.
    for (let i = 1; i <= 19; i++) {
      await testClient.mine({ blocks: 1 });
      await vi.waitFor(() => expect(ethCallTags()).toContain(tagOf(quoted + i)), { timeout: 5_000 });
    }
    const before = rpcProxy.hits.length;
    const built = await post(proxied.url, '/v1/build', quote);
    expect(built.status, await built.clone().text()).toBe(200);
    expect(ethCallTags(before)).not.toContain(tagOf(quoted));
  });

  it('the check can fail: a 16-block cache (the old size) reads the node again for that build', async () => {
    const pools = ethereum().pools.map((pool) => ({ address: pool.address as Hex, fee: pool.fee }));
    const options = {
      chainName: 'ethereum',
      rpcUrl: rpcProxy.url,
      multicall3: ethereum().multicall3 as Hex,
      pools,
    };
    const small = createRpcChainReader({ ...options, cacheSize: 16, wsUrl: null });
    try {
      const head = await small.head();
      const first = head.number - 19n;
      const blocks = [];
      for (let n = first; n <= head.number; n++) {
        const block = await small.block(n);
        if (block) blocks.push(block);
      }
      for (const block of blocks) await small.reserves(block);
      const before = rpcProxy.hits.length;
      await small.reserves(blocks[0] as NonNullable<(typeof blocks)[0]>);
      expect(ethCallTags(before)).toContain(tagOf(first));
    } finally {
      small.close?.();
    }
  });
});

describe('429 end to end: the service’s bucket, the extension’s client and quote session', () => {
  it('answers 429 with Retry-After (exposed to extension pages) and the shared error body', async () => {
    const service = await limitedService({ burst: 1, perSecond: 0.25 });
    const origin = { Origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' };
    expect((await post(service.url, '/v1/quote', ask, origin)).status).toBe(200);
    const limited = await post(service.url, '/v1/quote', ask, origin);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('4');
    expect(limited.headers.get('access-control-expose-headers')).toContain('Retry-After');
    const body = ErrorBodySchema.parse(await limited.json());
    expect(body.error).toEqual({
      code: 'RATE_LIMITED',
      message: 'too many quote requests from this client; retry in 4 s',
    });
  });

  it('the quote session waits as told, says "The swap service is busy, retrying in N s", then shows the quote', async () => {
    const service = await limitedService({ burst: 1, perSecond: 1 });
    const api = createSwapApiClient({ baseUrl: service.url });
    await api.quote(ask); // spends the burst
    const busyTexts: string[] = [];
    const session = createQuoteSession({
      quote: (request, options) => api.quote(request, options),
      describeError: userMessageFor,
      persist: async (state) => {
        if (state.status === 'loading' && typeof state.busyRetryAt === 'number') {
          busyTexts.push(
            `The swap service is busy, retrying in ${Math.ceil((state.busyRetryAt - Date.now()) / 1000)} s`,
          );
        }
      },
      policy: { debounceMs: 0 },
    });
    try {
      session.setInput({ ...ask, inAmount: ask.inAmount });
      await vi.waitFor(() => expect(session.getState().status).toBe('ready'), { timeout: 10_000 });
      expect(busyTexts).toEqual(['The swap service is busy, retrying in 1 s']);
      expect(session.getState().quote?.inAmount).toBe(ask.inAmount);
    } finally {
      session.dispose();
    }
  });

  it('a wait past the client’s bound is not made: one request, and the user is told how long', async () => {
    const service = await limitedService({ burst: 1, perSecond: 1 / 30 });
    const api = createSwapApiClient({ baseUrl: service.url });
    await api.quote(ask);
    const waits: number[] = [];
    const started = Date.now();
    const error = await api.quote(ask, { onWait: (seconds) => waits.push(seconds) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBe(30);
    expect(waits).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(userMessageFor(error)).toEqual({
      title: 'The swap service is busy',
      detail: 'It is limiting how often it can be asked. It asked Swaplane to wait 30 s before asking again.',
      action: 'Try again in 30 s.',
    });
  });
});
