// The service's connection-level refusals as the extension's API client meets them, over real
// HTTP on a real devnet: a client past its connection cap is answered 429 (Retry-After: 1) and
// anyone past the total cap 503, both written as soon as the connection opens, before the request
// is read. The client must read them as the rate limiter's 429 and a 5xx: the quote session says
// "The swap service is busy, retrying in 1 s" and gets its quote once a place is free; a refusal
// that persists is waited out once and then reported, and a 503 is retried within the client's
// bound. Neither loops: the service counts every refused connection.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDevnet } from '../../devnet/start';
import { createSwapApiClient, DEFAULT_RETRY } from '../../lib/api/client';
import { RateLimitedError, ServiceUnavailableError } from '../../lib/api/errors';
import { userMessageFor } from '../../lib/api/messages';
import { createQuoteSession } from '../../lib/swap/session';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from '../../service/connection-limits';
import { type RunningService, startService } from '../../service/server';
import { USDC, WETH } from '../support/addresses';

type Devnet = Awaited<ReturnType<typeof startDevnet>>;
let devnet: Devnet;
const services: RunningService[] = [];
const sockets: Socket[] = [];

const ask = {
  chainId: 1,
  inToken: WETH,
  outToken: USDC,
  inAmount: (2n * 10n ** 18n).toString(),
  slippage: 0.5,
};

/** One place per client (and `maxTotal` in all); a held socket sits idle for the test's length. */
async function cappedService(
  caps: Pick<ConnectionLimits, 'maxPerClient' | 'maxTotal'>,
): Promise<RunningService> {
  const service = await startService({
    manifest: devnet.manifest,
    port: 0,
    log: () => {},
    policy: {
      rateLimits: null,
      connections: {
        ...DEFAULT_CONNECTION_LIMITS,
        headersTimeoutMs: 20_000,
        requestTimeoutMs: 20_000,
        keepAliveTimeoutMs: 20_000,
        ...caps,
      },
    },
  });
  services.push(service);
  return service;
}

/** An idle TCP connection from `localAddress` that takes a place under the caps. */
async function hold(service: RunningService, localAddress: string): Promise<Socket> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const opened = connect({ host: '127.0.0.1', port: Number(new URL(service.url).port), localAddress }, () =>
      resolve(opened),
    );
    opened.once('error', reject);
    sockets.push(opened);
  });
  await vi.waitFor(() => expect(service.connections?.().open).toBeGreaterThan(0));
  return socket;
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: { ethereum: 0, base: 0 } });
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(services.map((service) => service.close()));
  await devnet?.stop();
});

describe("connection-level refusals meet the extension's client", () => {
  it('a 429 past the per-client cap: the quote session says it is busy, waits 1 s, then shows the quote', async () => {
    const service = await cappedService({ maxPerClient: 1, maxTotal: 100 });
    // The client's fetch comes from 127.0.0.1, like this held socket: its connection is refused.
    const held = await hold(service, '127.0.0.1');
    const api = createSwapApiClient({ baseUrl: service.url });
    const busyTexts: string[] = [];
    const session = createQuoteSession({
      quote: (request, options) => api.quote(request, options),
      describeError: userMessageFor,
      persist: async (state) => {
        if (state.status === 'loading' && typeof state.busyRetryAt === 'number') {
          busyTexts.push(
            `The swap service is busy, retrying in ${Math.ceil((state.busyRetryAt - Date.now()) / 1000)} s`,
          );
          held.destroy(); // the place is freed while the client waits
        }
      },
      policy: { debounceMs: 0 },
    });
    try {
      session.setInput(ask);
      await vi.waitFor(() => expect(session.getState().status).toBe('ready'), { timeout: 10_000 });
      expect(busyTexts).toEqual(['The swap service is busy, retrying in 1 s']);
      expect(session.getState().quote?.inAmount).toBe(ask.inAmount);
      expect(service.connections?.().refused).toEqual({ perClient: 1, total: 0 });
    } finally {
      session.dispose();
    }
  });

  it('a 429 that persists is waited out once, then reported with its wait: two connections, never a loop', async () => {
    const service = await cappedService({ maxPerClient: 1, maxTotal: 100 });
    await hold(service, '127.0.0.1');
    const api = createSwapApiClient({ baseUrl: service.url });
    const waits: number[] = [];
    const error = await api.quote(ask, { onWait: (seconds) => waits.push(seconds) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).serverCode).toBe('RATE_LIMITED');
    expect(waits).toEqual([1]);
    expect(service.connections?.().refused).toEqual({ perClient: 2, total: 0 });
    expect(userMessageFor(error)).toEqual({
      title: 'The swap service is busy',
      detail: 'It is limiting how often it can be asked. It asked Swaplane to wait 1 s before asking again.',
      action: 'Try again in 1 s.',
    });
  });

  it('a 503 past the total cap is a 5xx: retried within the bound, then reported as unavailable', async () => {
    const service = await cappedService({ maxPerClient: 100, maxTotal: 1 });
    await hold(service, '127.0.0.2');
    const api = createSwapApiClient({ baseUrl: service.url });
    const waits: number[] = [];
    const error = await api.quote(ask, { onWait: (seconds) => waits.push(seconds) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).cause).toBe('http-5xx');
    expect((error as ServiceUnavailableError).serverCode).toBe('SERVICE_UNAVAILABLE');
    expect(waits).toEqual([]);
    expect(service.connections?.().refused).toEqual({ perClient: 0, total: 1 + DEFAULT_RETRY.attempts });
  });
});
