// The per-block answer cache of POST /v1/quote (service/quote-cache.ts), through the app with a
// fake chain: a request answered twice is kept (the doorkeeper), then served from the cache with its
// own quote id and timestamp; a new head or a reorg prices again; errors and oversize bodies are
// never kept; never-repeated bodies cannot push out the answers of repeated ones.
import { describe, expect, it } from 'vitest';
import { BuildResponseSchema, ErrorBodySchema, QuoteResponseSchema } from '../../lib/api/schema';
import { createServiceApp } from '../../service/app';
import type { ChainReader, ChainState } from '../../service/chain-reader';
import { QuoteAnswerCache, quoteResponseText } from '../../service/quote-cache';
import { DAI, USDC, WETH } from '../support/addresses';
import { type FakeChainState, fakeReader } from '../support/fake-chain-reader';
import { ethereumManifest } from '../support/service-manifest';

const E18 = 10n ** 18n;
const manifest = ethereumManifest({
  tokens: [{ address: DAI, name: 'Dai', symbol: 'DAI', decimals: 18, pooled: true }],
  pools: [{ dex: 'uniswap-v2', address: `0x${'c'.repeat(40)}`, token0: DAI, token1: USDC }],
});
const ask = { chainId: 1, inToken: WETH, outToken: USDC, inAmount: (50n * E18).toString(), slippage: 1 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function setup(cache = new QuoteAnswerCache(), reader?: (state: FakeChainState) => ChainReader) {
  const state: FakeChainState = { head: 100n };
  let tick = 0;
  const app = createServiceApp({
    manifest,
    readers: { ethereum: (reader ?? fakeReader)(state) },
    // Every answer a new second, so a served-again timestamp would show.
    clock: () => new Date(Date.UTC(2025, 0, 2, 3, 4, tick++)),
    log: () => {},
    // Limits off: one test asks a thousand times in a few milliseconds. The search's time bound
    // out of reach: a first, cold search on a loaded machine once ran past 250 ms (its own tests
    // are elsewhere), and these tests are about what is kept, not how long a search may take.
    policy: { rateLimits: null, routeSearchMs: 60_000 },
    quoteCache: cache,
  });
  const post = async (path: string, body: unknown) => {
    const response = await app.request(path, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: await response.json(),
    };
  };
  const quote = async (body: unknown = ask) => {
    const answer = await post('/v1/quote', body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return QuoteResponseSchema.parse(answer.body);
  };
  return { post, quote, state, cache };
}

describe('the quote answer cache', () => {
  it('answers a repeated request within a block from the cache: the same quote, its own id and time, buildable', async () => {
    const { post, quote, cache } = setup();
    const first = await quote();
    expect([cache.size, cache.waiting]).toEqual([0, 1]); // answered once: only its body remembered
    await quote();
    expect([cache.size, cache.waiting]).toEqual([1, 0]); // answered twice: kept
    const second = await quote();
    expect([cache.misses, cache.hits]).toEqual([2, 1]);
    const { quoteId: firstId, ...firstData } = first.data;
    const { quoteId: secondId, ...secondData } = second.data;
    expect(secondData).toEqual(firstData);
    expect(firstId).toMatch(UUID);
    expect(secondId).toMatch(UUID);
    expect(secondId).not.toBe(firstId);
    expect(second.timestamp).not.toBe(first.timestamp);
    const built = await post('/v1/build', second.data);
    expect(built.status).toBe(200);
    expect(BuildResponseSchema.parse(built.body).data.to).toBe(`0x${'1'.repeat(40)}`);
  });

  it('gives a thousand answers a thousand distinct ids', async () => {
    const { quote, cache } = setup();
    const ids = new Set<unknown>();
    for (let i = 0; i < 1000; i++) ids.add((await quote()).data.quoteId);
    expect(ids.size).toBe(1000);
    expect(cache.misses).toBe(2);
  });

  it('prices again at a new head, and at a new block of the same number (a reorg)', async () => {
    const { quote, state, cache } = setup();
    await quote();
    const at100 = (await quote()).data;
    expect(cache.size).toBe(1);
    cache.misses = 0;
    state.head = 101n;
    const at101 = (await quote()).data;
    expect(at101.blockNumber).toBe(101);
    expect(at101.outAmount).not.toBe(at100.outAmount);
    state.fork = 1;
    const reorged = (await quote()).data;
    expect(reorged.blockNumber).toBe(101);
    expect(reorged.outAmount).not.toBe(at101.outAmount);
    expect([cache.misses, cache.hits]).toEqual([2, 0]);
    // Kept before: the answer at the new block is kept on its first pricing.
    expect((await quote()).data.outAmount).toBe(reorged.outAmount);
    expect(cache.hits).toBe(1);
  });

  it("keeps an answer only on its body's second request: a flood of new bodies leaves repeated answers in place", async () => {
    const { quote, cache } = setup(new QuoteAnswerCache({ maxEntries: 4, maxSeenOnce: 8 }));
    await quote();
    await quote(); // kept
    // Four times the cache's bound of bodies, each asked once (a client sending a new amount each time).
    for (let i = 1; i <= 16; i++) await quote({ ...ask, inAmount: (BigInt(i) * E18 + 1n).toString() });
    expect(cache.size).toBe(1);
    expect(cache.waiting).toBeLessThanOrEqual(8);
    const hits = cache.hits;
    await quote();
    expect(cache.hits).toBe(hits + 1);
  });

  it('keys on the exact body: another spelling of the same request is priced, and answers the same', async () => {
    const { quote, cache } = setup();
    const compact = (await quote(JSON.stringify(ask))).data;
    const spaced = (await quote(JSON.stringify(ask, null, 2))).data;
    expect(cache.misses).toBe(2);
    expect(spaced.outAmount).toBe(compact.outAmount);
    expect(spaced.bestRoute).toEqual(compact.bestRoute);
  });

  it('keeps no error answer: each bad request is checked again and gets its specific error', async () => {
    const { post, cache } = setup();
    for (let i = 0; i < 2; i++) {
      const slippage = await post('/v1/quote', { ...ask, slippage: -1 });
      expect(slippage.status).toBe(406);
      expect(ErrorBodySchema.parse(slippage.body).error.code).toBe('SLIPPAGE_OUT_OF_RANGE');
      const malformed = await post('/v1/quote', '{"chainId":1,');
      expect(malformed.status).toBe(400);
      expect(ErrorBodySchema.parse(malformed.body).error.message).toBe('the request body is not valid JSON');
      const unknownToken = await post('/v1/quote', { ...ask, outToken: `0x${'9'.repeat(40)}` });
      expect(unknownToken.status).toBe(404);
    }
    expect(cache.size).toBe(0);
    expect(cache.hits).toBe(0);
  });

  it('fails a cached request with 503 while the node is down (the head check still asks the reader)', async () => {
    const { post, quote, state } = setup();
    await quote();
    state.down = true;
    const down = await post('/v1/quote', ask);
    expect(down.status).toBe(503);
    expect(ErrorBodySchema.parse(down.body).error.code).toBe('RPC_UNAVAILABLE');
  });

  it("asks the reader's currentNow once per cached request, and waits for the head only when it had none", async () => {
    let asked = 0;
    let known: ChainState | undefined;
    const readers: ChainReader[] = [];
    const counting = (state: FakeChainState): ChainReader => {
      const reader = fakeReader(state);
      readers.push(reader);
      const currentNow = () => {
        asked += 1;
        return known;
      };
      return { ...reader, currentNow };
    };
    const { quote, cache } = setup(new QuoteAnswerCache(), counting);
    await quote();
    await quote(); // answered twice: kept
    asked = 0;
    await quote(); // a hit, the head unknown: asked once, then awaited without asking again
    expect([cache.hits, asked]).toEqual([1, 1]);
    const [reader] = readers;
    if (!reader) throw new Error('the app made no reader');
    const block = await reader.head();
    known = { block, snapshot: await reader.reserves(block) };
    await quote(); // a hit, the head known: asked once and answered from it
    expect([cache.hits, asked]).toEqual([2, 2]);
  });

  it('is bounded: oversize bodies are answered but never kept, and a full cache starts again', async () => {
    const { quote, cache } = setup(new QuoteAnswerCache({ maxEntries: 3, maxKeyBytes: 300 }));
    const padded = `${JSON.stringify(ask)}${' '.repeat(400)}`;
    for (let i = 0; i < 3; i++) await quote(padded);
    expect([cache.size, cache.waiting, cache.hits]).toEqual([0, 0, 0]);
    for (let i = 1; i <= 4; i++) {
      const body = { ...ask, inAmount: (BigInt(i) * E18).toString() };
      await quote(body);
      await quote(body);
    }
    expect(cache.size).toBe(1);
    // The doorkeeper's set of bodies answered once is bounded too (default: the cache's bound).
    for (let i = 5; i <= 11; i++) await quote({ ...ask, inAmount: (BigInt(i) * E18).toString() });
    expect(cache.waiting).toBeLessThanOrEqual(3);
  });

  it('answers the contract envelope as JSON', async () => {
    const { post } = setup();
    const answer = await post('/v1/quote', ask);
    expect(answer.type).toBe('application/json');
    expect(Object.keys(answer.body as object)).toEqual(['success', 'data', 'timestamp']);
    expect(JSON.parse(quoteResponseText('{"a":1', 'id', 't'))).toEqual({
      success: true,
      data: { a: 1, quoteId: 'id' },
      timestamp: 't',
    });
  });
});
