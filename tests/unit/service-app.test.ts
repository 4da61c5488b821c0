// The service app without a network: fake manifest, fake chain reader, app.request().
import { describe, expect, it } from 'vitest';
import {
  BuildResponseSchema,
  ErrorBodySchema,
  NATIVE_TOKEN_ADDRESS,
  QuoteResponseSchema,
  TokenListResponseSchema,
} from '../../lib/api/schema';
import { createServiceApp } from '../../service/app';
import { DAI, USDC, WETH } from '../support/addresses';
import { fakeReader } from '../support/fake-chain-reader';
import { ethereumManifest } from '../support/service-manifest';

const E18 = 10n ** 18n;

const manifest = ethereumManifest({
  tokens: [{ address: DAI, name: 'Dai <Stablecoin>', symbol: 'D&I', decimals: 18, pooled: true }],
  pools: [{ dex: 'uniswap-v2', address: `0x${'c'.repeat(40)}`, token0: DAI, token1: USDC }],
});

function setup(state = { head: 100n } as { head: bigint; down?: boolean; broken?: boolean }) {
  const logged: string[] = [];
  const app = createServiceApp({
    manifest,
    readers: { ethereum: fakeReader(state) },
    clock: () => new Date('2025-01-02T03:04:05.000Z'),
    log: (line) => logged.push(line),
  });
  const post = async (path: string, body: unknown) => {
    const response = await app.request(path, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return { app, post, state, logged };
}

const ask = { chainId: 1, inToken: WETH, outToken: USDC, inAmount: (50n * E18).toString(), slippage: 1 };

describe('service app (fake chain)', () => {
  it('quotes with a split, builds it, and rejects it once outdated', async () => {
    const { post, state } = setup();
    const quoted = await post('/v1/quote', { ...ask, refCode: 9 });
    expect(quoted.status).toBe(200);
    const envelope = QuoteResponseSchema.parse(quoted.body);
    expect(envelope.timestamp).toBe('2025-01-02T03:04:05.000Z');
    const quote = envelope.data;
    expect(quote.blockNumber).toBe(100);
    expect(quote.bestRoute.length).toBe(2);
    expect(quote.refCode).toBe(9);
    const built = await post('/v1/build', quote);
    expect(built.status).toBe(200);
    expect(BuildResponseSchema.parse(built.body).data).toMatchObject({
      to: `0x${'1'.repeat(40)}`,
      value: '0',
    });

    state.head = 120n;
    expect((await post('/v1/build', quote)).status).toBe(200);
    state.head = 121n;
    const outdated = await post('/v1/build', quote);
    expect(outdated.status).toBe(400);
    expect(ErrorBodySchema.parse(outdated.body).error.code).toBe('QUOTE_OUTDATED');
  });

  it('prices a quote at its own block on build: amounts from another block are refused', async () => {
    const { post, state } = setup();
    const quote = QuoteResponseSchema.parse((await post('/v1/quote', ask)).body).data;
    state.head = 105n;
    const moved = QuoteResponseSchema.parse((await post('/v1/quote', ask)).body).data;
    expect(moved.outAmount).not.toBe(quote.outAmount);
    const forged = await post('/v1/build', { ...moved, blockNumber: quote.blockNumber });
    expect(ErrorBodySchema.parse(forged.body).error.code).toBe('INVALID_QUOTE');
  });

  it('routes two hops through a hub and native in through WETH', async () => {
    const { post } = setup();
    const twoHop = QuoteResponseSchema.parse((await post('/v1/quote', { ...ask, outToken: DAI })).body).data;
    expect(twoHop.bestRoute.every((share) => share.swaps.length === 2)).toBe(true);
    const native = await post('/v1/quote', { ...ask, inToken: NATIVE_TOKEN_ADDRESS });
    const quote = QuoteResponseSchema.parse(native.body).data;
    expect(quote.bestRoute[0]?.swaps[0]).toMatchObject({ tokenIn: WETH });
    const built = BuildResponseSchema.parse((await post('/v1/build', quote)).body).data;
    expect(built.value).toBe(ask.inAmount);
  });

  it('maps a dead RPC to 503 RPC_UNAVAILABLE and a bug to 503 SERVICE_UNAVAILABLE, logged', async () => {
    const { post, state, logged } = setup();
    state.down = true;
    const down = await post('/v1/quote', ask);
    expect(down.status).toBe(503);
    expect(ErrorBodySchema.parse(down.body).error.code).toBe('RPC_UNAVAILABLE');
    state.down = false;
    state.broken = true;
    const broken = await post('/v1/quote', ask);
    expect(broken.status).toBe(503);
    expect(ErrorBodySchema.parse(broken.body).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(logged.some((line) => line.includes('a bug'))).toBe(true);
  });

  it('serves the token list with absolute logo URLs on the configured base (never the Host) and escaped SVG logos', async () => {
    const { app } = setup();
    const list = TokenListResponseSchema.parse(
      await (await app.request('http://swaplane.test:9000/v1/tokens/ethereum/full')).json(),
    );
    expect(list.map((token) => token.symbol)).toEqual(['ETH', 'WETH', 'USDC', 'D&I']);
    // No public URL configured and not listening (startService sets it to its address): the default.
    expect(list[3]?.logoURI).toBe(`http://127.0.0.1:8787/logos/ethereum/${DAI}.svg`);
    // The path spells the address as the entry does (brotli then finds it as a repeat), any case serves.
    expect(list.every((token) => token.logoURI.endsWith(`/${token.address}.svg`))).toBe(true);
    expect((await app.request(`/logos/ethereum/${DAI}.svg`)).status).toBe(200);
    const logo = await app.request(`/logos/ethereum/${DAI.toLowerCase()}.svg`);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await logo.text();
    expect(svg).toContain('>DI</text>');
    expect(svg).not.toContain('D&I');
  });

  it('answers wrong methods with 405 and unknown paths with 404, always with the error body', async () => {
    const { app } = setup();
    const wrong = await app.request('/v1/build');
    expect(wrong.status).toBe(405);
    expect(ErrorBodySchema.parse(await wrong.json()).error.code).toBe('BAD_REQUEST');
    const missing = await app.request('/v1/nothing', { method: 'DELETE' });
    expect(missing.status).toBe(404);
    expect(ErrorBodySchema.parse(await missing.json()).error.code).toBe('NOT_FOUND');
  });
});

describe("the bench's list-sized no-op route", () => {
  it('answers as many prepared bytes as asked, up to 1 MiB, and a 400 past that', async () => {
    const { app } = setup();
    const sized = await app.request('/__noop/bytes/92012');
    expect(sized.status).toBe(200);
    expect((await sized.arrayBuffer()).byteLength).toBe(92_012);
    const tooMany = await app.request('/__noop/bytes/1048577');
    expect(tooMany.status).toBe(400);
    expect(ErrorBodySchema.parse(await tooMany.json()).error.message).toContain('at most 1048576 bytes');
    expect((await app.request('/__noop/bytes/many')).status).toBe(404);
    expect((await app.request('/__noop/bytes/12', { method: 'POST' })).status).toBe(405);
  });
});
