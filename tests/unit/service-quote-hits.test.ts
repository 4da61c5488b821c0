// Repeated quotes answered by the server before the app (service/quote-hits.ts): the same status,
// headers and answer the app gives the same request (its own quote id and time), the same rate limit
// bucket drawn once, and every request it does not own (a chunked or oversize body, a query string,
// a new head, a head not known without asking the node, another method) still the app's. The app's
// answer to the same request is read by adding a query string to the path (the server's is exact).
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { QuoteResponseSchema } from '../../lib/api/schema';
import type { ChainReader, ChainState } from '../../service/chain-reader';
import { QuoteAnswerCache } from '../../service/quote-cache';
import { DEFAULT_RATE_LIMITS } from '../../service/rate-limit';
import { type RunningService, startService } from '../../service/server';
import { USDC, WETH } from '../support/addresses';
import { type FakeChainState, fakeReader } from '../support/fake-chain-reader';
import { type HttpAnswer, readAnswer } from '../support/http-answer';
import { ethereumManifest } from '../support/service-manifest';

const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const BODY = JSON.stringify({
  chainId: 1,
  inToken: WETH,
  outToken: USDC,
  inAmount: `${5n * 10n ** 18n}`,
  slippage: 1,
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Sent {
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  /** Sent in these pieces; with more than one and no Content-Length, chunked. */
  body?: (string | Buffer)[];
}

/** A request as sent, the answer as received (no connection reuse). */
function send(base: string, { path = '/v1/quote', method = 'POST', headers = {}, body = [BODY] }: Sent) {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const whole = Buffer.concat(body.map((part) => Buffer.from(part)));
    const length = body.length === 1 ? { 'content-length': String(whole.length) } : {};
    const req = httpRequest(
      `${base}${path}`,
      { method, headers: { 'content-type': 'application/json', ...length, ...headers }, agent: false },
      (res) => readAnswer(res).then(resolve, reject),
    );
    req.on('error', reject);
    for (const part of body) req.write(part);
    req.end();
  });
}

/**
 * The fake chain with a head known without asking, as the RPC reader's head watcher knows it: the
 * state last read, while the test's head and fork are still the ones it was read at.
 */
function watchedReader(state: FakeChainState): ChainReader {
  const base = fakeReader(state);
  let known: { at: ChainState; fork: number } | undefined;
  return {
    ...base,
    async reserves(block) {
      const snapshot = await base.reserves(block);
      known = { at: { block, snapshot }, fork: state.fork ?? 0 };
      return snapshot;
    },
    currentNow() {
      const fresh = known && known.at.block.number === state.head && known.fork === (state.fork ?? 0);
      return fresh ? known?.at : undefined;
    },
  };
}

let service: RunningService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(policy: Parameters<typeof startService>[0]['policy'] = { rateLimits: null }) {
  const state: FakeChainState = { head: 100n };
  const cache = new QuoteAnswerCache();
  service = await startService({
    manifest: ethereumManifest(),
    readers: { ethereum: watchedReader(state) },
    // One clock for both sides: a fixed second, so answers differ only by their quote ids.
    clock: () => new Date(Date.UTC(2025, 0, 2, 3, 4, 5)),
    port: 0,
    log: () => {},
    policy,
    quoteCache: cache,
  });
  const early = () => service?.quoteHitsBeforeApp?.() ?? 0;
  return { url: service.url, state, cache, early };
}

/** The answer without its quote id (every answer has its own). */
function withoutId(answer: HttpAnswer): string {
  const text = answer.body.toString();
  const parsed = JSON.parse(text) as { data: { quoteId: string } };
  QuoteResponseSchema.parse(parsed);
  const id = parsed.data.quoteId;
  expect(id).toMatch(UUID);
  return text.replace(id, '<id>');
}

describe('repeated quotes answered by the server before the app', () => {
  it('are the app answers to the same requests, header for header, each with its own id', async () => {
    const { url, cache, early } = await start();
    // The doorkeeper keeps an answer on its body's second answer: both priced by the app.
    expect((await send(url, {})).status).toBe(200);
    expect((await send(url, {})).status).toBe(200);
    expect([cache.size, early()]).toEqual([1, 0]);

    const cases: Sent[] = [
      {},
      { headers: { origin: EXTENSION } },
      { headers: { origin: 'https://evil.example' } },
      // Decoded as the app decodes it: a leading byte order mark is not part of the text.
      { body: [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(BODY)])] },
      // Two pieces with a declared length: read whole.
      { body: [BODY.slice(0, 40), BODY.slice(40)], headers: { 'content-length': String(BODY.length) } },
    ];
    for (const sent of cases) {
      const label = JSON.stringify(sent);
      const before = early();
      const hits = cache.hits;
      const mine = await send(url, sent);
      expect([early(), cache.hits], label).toEqual([before + 1, hits + 1]);
      const fromApp = await send(url, { ...sent, path: '/v1/quote?from=app' });
      expect([early(), cache.hits], label).toEqual([before + 1, hits + 2]);
      expect(mine.status, label).toBe(200);
      expect(mine.headers, label).toEqual(fromApp.headers);
      expect(withoutId(mine), label).toBe(withoutId(fromApp));
    }
    const granted = await send(url, { headers: { origin: EXTENSION } });
    expect(granted.headers).toMatchObject({
      'access-control-allow-origin': EXTENSION,
      'access-control-expose-headers': 'Retry-After',
      'content-type': 'application/json',
      vary: 'Origin',
      'content-length': String(granted.body.length),
    });
    expect(granted.headers).not.toHaveProperty('transfer-encoding');
    expect((await send(url, { headers: { origin: 'https://evil.example' } })).headers).not.toHaveProperty(
      'access-control-allow-origin',
    );
  });

  it('leave to the app every request they cannot answer, with its body as sent', async () => {
    const { url, state, cache, early } = await start();
    await send(url, {});
    await send(url, {});
    const taken = early();

    // A chunked body (no declared length): the app reads it and answers from the cache.
    const chunked = await send(url, { body: [BODY.slice(0, 30), BODY.slice(30)] });
    expect([chunked.status, chunked.headers['transfer-encoding']]).toEqual([200, undefined]);
    // A declared length over the body bound: the app's 413, unread.
    const big = await send(url, { body: [`${BODY}${' '.repeat(70 * 1024)}`] });
    expect(big.status).toBe(413);
    // A body that is not UTF-8 text of a cached request: read here, then the app's 400.
    const bad = await send(url, { body: [Buffer.from([0x7b, 0xff, 0xfe, 0x7d])] });
    expect([bad.status, JSON.parse(bad.body.toString()).error.message]).toEqual([
      400,
      'the request body is not valid JSON',
    ]);
    // Another method on the path: the app's 405.
    expect((await send(url, { method: 'PUT' })).status).toBe(405);
    expect(early()).toBe(taken);

    // A new head the reader has not read yet: the app asks the node and prices again, then keeps it.
    state.head = 101n;
    const stale = await send(url, {});
    expect(stale.status).toBe(200);
    expect(QuoteResponseSchema.parse(JSON.parse(stale.body.toString())).data.blockNumber).toBe(101);
    expect(early()).toBe(taken);
    // Kept at the new block at once (its body was kept before): the next one is answered here.
    const fresh = await send(url, {});
    expect(QuoteResponseSchema.parse(JSON.parse(fresh.body.toString())).data.blockNumber).toBe(101);
    expect(early()).toBe(taken + 1);
    // A reorg at the same height: the cached block is not the head's: priced again by the app.
    state.fork = 1;
    const misses = cache.misses;
    expect((await send(url, {})).status).toBe(200);
    expect([early(), cache.misses]).toEqual([taken + 1, misses + 1]);
  });

  it('draw on the client quote bucket the app draws on, once per request, and a refusal is the app 429', async () => {
    const { url, early } = await start({
      rateLimits: { ...DEFAULT_RATE_LIMITS, quote: { burst: 3, perSecond: 0.001 } },
    });
    expect((await send(url, {})).status).toBe(200); // the app's (1 of 3)
    expect((await send(url, {})).status).toBe(200); // the app's, kept (2 of 3)
    expect((await send(url, {})).status).toBe(200); // here (3 of 3)
    expect(early()).toBe(1);
    const refused = await send(url, { headers: { origin: EXTENSION } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['access-control-allow-origin']).toBe(EXTENSION);
    expect(JSON.parse(refused.body.toString()).error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(early()).toBe(1);
  });

  it('survive a client that leaves before its body ends', async () => {
    const { url, early } = await start();
    await send(url, {});
    await send(url, {});
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${url}/v1/quote`, {
        method: 'POST',
        headers: { 'content-length': String(BODY.length) },
        agent: false,
      });
      req.on('error', () => resolve());
      req.write(BODY.slice(0, 20), () => {
        req.destroy();
        resolve();
      });
    });
    const after = await send(url, {});
    expect(after.status).toBe(200);
    expect(early()).toBe(1);
  });
});
