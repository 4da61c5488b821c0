// The reference service over real HTTP against a real devnet: every endpoint, every status.
// The last test stops anvil to check the 503 path, so it must stay last.
import { createPublicClient, createTestClient, decodeFunctionData, type Hex, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVNET_LIMITS } from '../../devnet/service-config';
import { startDevnet } from '../../devnet/start';
import {
  BuildResponseSchema,
  ErrorBodySchema,
  NATIVE_TOKEN_ADDRESS,
  type Quote,
  QuoteResponseSchema,
  ReferenceSwapSchema,
  TokenListResponseSchema,
  TokenSearchResponseSchema,
} from '../../lib/api/schema';
import { ROUTER_ABI } from '../../service/build';
import { policyFromConfig } from '../../service/policy';
import { type RunningService, startService } from '../../service/server';
import { USDC, WETH } from '../support/addresses';

type Devnet = Awaited<ReturnType<typeof startDevnet>>;
let devnet: Devnet;
let service: RunningService;
let devnetStopped = false;

const LINK = '0x514910771AF9Ca656af840dff83E8264EcF986CA';
const STRANGER = '0x000000000000000000000000000000000000dEaD';

const chain = (name: 'ethereum' | 'base') => {
  const found = devnet.manifest.chains.find((c) => c.chainName === name);
  if (!found) throw new Error(`no ${name} chain`);
  return found;
};

async function call(path: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  const response = await fetch(`${service.url}${path}`, {
    ...rest,
    ...(json !== undefined
      ? {
          method: rest.method ?? 'POST',
          body: JSON.stringify(json),
          headers: { 'Content-Type': 'application/json' },
        }
      : {}),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** Asserts the status and the shared error body, and returns the error code. */
async function expectError(
  path: string,
  status: number,
  code: string,
  init: RequestInit & { json?: unknown } = {},
) {
  const response = await call(path, init);
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const body = ErrorBodySchema.parse(response.body);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.message;
}

const request = (overrides: Record<string, unknown> = {}) => ({
  chainId: 1,
  inToken: WETH,
  outToken: USDC,
  inAmount: (5n * 10n ** 18n).toString(),
  slippage: 0.5,
  ...overrides,
});

async function getQuote(overrides: Record<string, unknown> = {}): Promise<Quote> {
  const response = await call('/v1/quote', { json: request(overrides) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return QuoteResponseSchema.parse(response.body).data;
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: { ethereum: 0, base: 0 } });
  // The devnet's limits (as npm run service has them): these tests send many requests from one address.
  const policy = policyFromConfig({ limits: DEVNET_LIMITS });
  service = await startService({ manifest: devnet.manifest, port: 0, log: () => {}, policy });
});

afterAll(async () => {
  await service?.close();
  if (!devnetStopped) await devnet?.stop();
});

describe('GET /v1/tokens/:chain/search/:address', () => {
  it('200: one whitelisted token with extensions, any address case', async () => {
    for (const address of [USDC, USDC.toLowerCase()]) {
      const response = await call(`/v1/tokens/ethereum/search/${address}`);
      expect(response.status).toBe(200);
      const [token, ...rest] = TokenSearchResponseSchema.parse(response.body);
      expect(rest).toEqual([]);
      expect(token).toMatchObject({ chainId: 1, address: USDC, symbol: 'USDC', decimals: 6 });
      expect(token?.extensions).toEqual({
        opListId: 'swaplane-devnet-ethereum',
        opTokenId: USDC.toLowerCase(),
      });
      expect(token?.logoURI).toBe(`${service.url}/logos/ethereum/${USDC}.svg`);
    }
    const native = await call(`/v1/tokens/base/search/${NATIVE_TOKEN_ADDRESS}`);
    expect(TokenSearchResponseSchema.parse(native.body)[0]).toMatchObject({
      chainId: 8453,
      symbol: 'ETH',
      decimals: 18,
    });
  });

  it('404 TOKEN_NOT_FOUND when not whitelisted, 400 for a malformed address or an unknown chain', async () => {
    await expectError(`/v1/tokens/ethereum/search/${STRANGER}`, 404, 'TOKEN_NOT_FOUND');
    // A token of the other chain is not on this chain's list.
    await expectError(
      '/v1/tokens/base/search/0x6B175474E89094C44Da98b954EedeAC495271d0F',
      404,
      'TOKEN_NOT_FOUND',
    );
    await expectError('/v1/tokens/ethereum/search/0x1234', 400, 'BAD_REQUEST');
    await expectError(`/v1/tokens/ethereum/search/${'0x'}${'g'.repeat(40)}`, 400, 'BAD_REQUEST');
    await expectError(`/v1/tokens/solana/search/${USDC}`, 400, 'UNSUPPORTED_CHAIN');
  });
});

describe('GET /v1/tokens/:chain/full', () => {
  it('200: every whitelisted token, native first, no extensions, thousands of them', async () => {
    for (const name of ['ethereum', 'base'] as const) {
      const started = performance.now();
      const response = await call(`/v1/tokens/${name}/full`);
      const ms = performance.now() - started;
      expect(response.status).toBe(200);
      const tokens = TokenListResponseSchema.parse(response.body);
      expect(tokens.length).toBe(chain(name).tokens.length + 1);
      expect(tokens.length).toBeGreaterThan(2000);
      expect(tokens[0]).toMatchObject({ address: NATIVE_TOKEN_ADDRESS, symbol: 'ETH', decimals: 18 });
      expect(tokens.every((token) => token.extensions === undefined)).toBe(true);
      expect(new Set(tokens.map((token) => token.address.toLowerCase())).size).toBe(tokens.length);
      console.log(`${name} /full: ${tokens.length} tokens in ${ms.toFixed(1)} ms`);
    }
    await expectError('/v1/tokens/polygon/full', 400, 'UNSUPPORTED_CHAIN');
  });

  it('serves the logos it links to as SVG', async () => {
    const [token] = TokenSearchResponseSchema.parse((await call(`/v1/tokens/ethereum/search/${LINK}`)).body);
    const response = await fetch(token?.logoURI ?? '');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('cache-control')).toContain('max-age');
    const svg = await response.text();
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('>LINK</text>');
    await expectError(`/logos/ethereum/${STRANGER}.svg`, 404, 'NOT_FOUND');
    await expectError('/logos/ethereum/not-an-address.svg', 404, 'NOT_FOUND');
  });
});

describe('POST /v1/quote', () => {
  it('200: an exact quote at the head, in the reference shape', async () => {
    const quote = await getQuote({ refCode: 42 });
    const head = await fetchHead('ethereum');
    expect(quote.blockNumber).toBe(Number(head));
    expect(quote).toMatchObject({
      chainId: 1,
      inToken: WETH,
      outToken: USDC,
      inDecimals: 18,
      outDecimals: 6,
      slippage: 0.5,
      contractAddress: chain('ethereum').executor,
      contractMethod: 'swap',
      refCode: 42,
    });
    expect(BigInt(quote.minReceived)).toBe((BigInt(quote.outAmount) * 995n) / 1000n);
    let total = 0n;
    for (const share of quote.bestRoute) {
      expect(Number.isInteger(share.percent)).toBe(true);
      const swaps = share.swaps.map((swap) => ReferenceSwapSchema.parse(swap));
      total += BigInt(swaps.at(-1)?.amountOut ?? '0');
    }
    expect(total).toBe(BigInt(quote.outAmount));
    expect((await getQuote()).refCode).toBe(0);
  });

  it('400 UNSUPPORTED_CHAIN, BAD_REQUEST for malformed bodies and a zero amount', async () => {
    await expectError('/v1/quote', 400, 'UNSUPPORTED_CHAIN', { json: request({ chainId: 137 }) });
    expect(
      await expectError('/v1/quote', 400, 'BAD_REQUEST', { json: request({ inAmount: '0' }) }),
    ).toContain('inAmount');
    expect(
      await expectError('/v1/quote', 400, 'BAD_REQUEST', { json: request({ inAmount: '1e18' }) }),
    ).toContain('inAmount');
    expect(
      await expectError('/v1/quote', 400, 'BAD_REQUEST', { json: request({ inToken: undefined }) }),
    ).toContain('inToken');
    await expectError('/v1/quote', 400, 'BAD_REQUEST', { json: request({ inAmount: 5 }) });
    await expectError('/v1/quote', 400, 'BAD_REQUEST', { json: [request()] });
    await expectError('/v1/quote', 400, 'BAD_REQUEST', { json: null });
    await expectError('/v1/quote', 400, 'BAD_REQUEST', {
      method: 'POST',
      body: '{"chainId": 1,',
      headers: { 'Content-Type': 'application/json' },
    });
    await expectError('/v1/quote', 400, 'BAD_REQUEST', { method: 'POST' });
  });

  it('404 UNSUPPORTED_TOKENS or NO_ROUTE', async () => {
    await expectError('/v1/quote', 404, 'UNSUPPORTED_TOKENS', { json: request({ outToken: STRANGER }) });
    await expectError('/v1/quote', 404, 'UNSUPPORTED_TOKENS', {
      json: request({ outToken: WETH.toLowerCase() }),
    });
    // Whitelisted but in no pool: the long tail.
    const unpooled = chain('ethereum').tokens.find((token) => !token.pooled);
    await expectError('/v1/quote', 404, 'NO_ROUTE', { json: request({ outToken: unpooled?.address }) });
    // The same token both sides is not a swap; native <-> WETH is (a wrap route, out = in).
    await expectError('/v1/quote', 404, 'UNSUPPORTED_TOKENS', {
      json: request({ inToken: NATIVE_TOKEN_ADDRESS, outToken: NATIVE_TOKEN_ADDRESS }),
    });
    const wrap = await getQuote({ inToken: NATIVE_TOKEN_ADDRESS, outToken: WETH });
    expect(wrap.outAmount).toBe(wrap.inAmount);
    // One wei of a 6-decimal token into an 18-decimal pool rounds to nothing on every path.
    await expectError('/v1/quote', 404, 'NO_ROUTE', {
      json: request({ inToken: USDC, outToken: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', inAmount: '1' }),
    });
  });

  it('406 SLIPPAGE_OUT_OF_RANGE outside 0.01..50 or past 6 decimals; the bounds themselves pass', async () => {
    for (const slippage of [0, 0.009, 50.000001, 51, 100, -1, 0.1234567]) {
      await expectError('/v1/quote', 406, 'SLIPPAGE_OUT_OF_RANGE', { json: request({ slippage }) });
    }
    for (const slippage of [0.01, 50, 0.123456]) {
      const quote = await getQuote({ slippage });
      const scaled = BigInt(Math.round(slippage * 1e6));
      expect(BigInt(quote.minReceived)).toBe(
        (BigInt(quote.outAmount) * (100_000_000n - scaled)) / 100_000_000n,
      );
    }
  });

  it('413 for a body over 64 kB', async () => {
    await expectError('/v1/quote', 413, 'BAD_REQUEST', { json: request({ padding: 'x'.repeat(70_000) }) });
  });
});

describe('POST /v1/build', () => {
  it('200: router calldata for the quote, refCode and a zero recipient encoded; value for native in', async () => {
    const quote = await getQuote({ refCode: 777 });
    const response = await call('/v1/build', { json: quote });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const built = BuildResponseSchema.parse(response.body).data;
    expect(built.to).toBe(chain('ethereum').router);
    expect(built.value).toBe('0');
    const decoded = decodeFunctionData({ abi: ROUTER_ABI, data: built.transaction as Hex });
    expect(decoded.functionName).toBe('swap');
    const [inToken, outToken, inAmount, minReceived, route, recipient, refCode] =
      decoded.args as readonly unknown[];
    expect([inToken, outToken, inAmount, minReceived, recipient, refCode]).toEqual([
      WETH,
      USDC,
      BigInt(quote.inAmount),
      BigInt(quote.minReceived),
      '0x0000000000000000000000000000000000000000',
      777n,
    ]);
    expect((route as { percent: number }[]).map((share) => share.percent)).toEqual(
      quote.bestRoute.map((share) => share.percent),
    );

    const native = await getQuote({ inToken: NATIVE_TOKEN_ADDRESS, inAmount: '1000000000000000000' });
    const nativeBuild = BuildResponseSchema.parse((await call('/v1/build', { json: native })).body).data;
    expect(nativeBuild.value).toBe('1000000000000000000');
    // A quote without refCode (another client may strip unknown fields) encodes 0.
    const { refCode: _dropped, ...plain } = native as Quote & { refCode?: number };
    const plainBuild = BuildResponseSchema.parse((await call('/v1/build', { json: plain })).body).data;
    expect(
      (decodeFunctionData({ abi: ROUTER_ABI, data: plainBuild.transaction as Hex }).args as unknown[])[6],
    ).toBe(0n);
  });

  it('400 INVALID_QUOTE for every kind of tampering, UNSUPPORTED_CHAIN for an unknown chain', async () => {
    const quote = await getQuote();
    const first = quote.bestRoute[0];
    if (!first) throw new Error('empty route');
    const swap = ReferenceSwapSchema.parse(first.swaps[0]);
    const otherPool = chain('ethereum').pools.find(
      (pool) => pool.address.toLowerCase() !== swap.pool.toLowerCase(),
    );
    const tamper = (patch: Record<string, unknown>) => ({ ...quote, ...patch });
    const withFirstShare = (share: Record<string, unknown>) =>
      tamper({ bestRoute: [{ ...first, ...share }, ...quote.bestRoute.slice(1)] });
    const cases: [string, unknown][] = [
      ['outAmount + 1', tamper({ outAmount: (BigInt(quote.outAmount) + 1n).toString() })],
      ['minReceived + 1', tamper({ minReceived: (BigInt(quote.minReceived) + 1n).toString() })],
      ['inAmount doubled', tamper({ inAmount: (BigInt(quote.inAmount) * 2n).toString() })],
      ['slippage changed', tamper({ slippage: 1 })],
      ['slippage out of range', tamper({ slippage: 80 })],
      ['contractAddress', tamper({ contractAddress: STRANGER })],
      ['contractMethod', tamper({ contractMethod: 'swapExactTokensForTokens' })],
      ['decimals', tamper({ outDecimals: 18 })],
      ['outToken swapped', tamper({ outToken: '0xdAC17F958D2ee523a2206206994597C13D831ec7' })],
      ['not whitelisted', tamper({ outToken: STRANGER })],
      ['same tokens', tamper({ outToken: WETH })],
      ['block ahead of head', tamper({ blockNumber: quote.blockNumber + 1000 })],
      ['refCode negative', tamper({ refCode: -5 })],
      [
        'fractional percents',
        tamper({
          bestRoute: [
            { ...first, percent: 99.5 },
            { ...first, percent: 0.5 },
          ],
        }),
      ],
      ['unknown pool', withFirstShare({ swaps: [{ ...swap, pool: STRANGER }, ...first.swaps.slice(1)] })],
      [
        'other pool',
        withFirstShare({ swaps: [{ ...swap, pool: otherPool?.address }, ...first.swaps.slice(1)] }),
      ],
      ['wrong dex', withFirstShare({ swaps: [{ ...swap, dex: 'curve' }, ...first.swaps.slice(1)] })],
      ['amountOut edited', withFirstShare({ swaps: [{ ...swap, amountOut: '1' }, ...first.swaps.slice(1)] })],
      ['swap shape', withFirstShare({ swaps: [{ hello: 'world' }] })],
      ['schema: percents', tamper({ bestRoute: [{ ...first, percent: 60 }] })],
      ['schema: missing field', tamper({ outAmount: undefined })],
    ];
    for (const [label, body] of cases) {
      const response = await call('/v1/build', { json: body });
      expect(response.status, label).toBe(400);
      expect(ErrorBodySchema.parse(response.body).error.code, label).toBe('INVALID_QUOTE');
    }
    await expectError('/v1/build', 400, 'UNSUPPORTED_CHAIN', { json: tamper({ chainId: 10 }) });
    await expectError('/v1/build', 400, 'BAD_REQUEST', { method: 'POST', body: 'not json' });
  });

  it('400 QUOTE_OUTDATED past 20 blocks on ethereum and 60 on base', async () => {
    const eth = await getQuote();
    const base = await getQuote({
      chainId: 8453,
      inToken: '0x4200000000000000000000000000000000000006',
      outToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    });
    await mine('ethereum', 20);
    expect((await call('/v1/build', { json: eth })).status).toBe(200);
    await mine('ethereum', 1);
    expect(await expectError('/v1/build', 400, 'QUOTE_OUTDATED', { json: eth })).toContain('21 blocks');
    await mine('base', 25);
    expect((await call('/v1/build', { json: base })).status).toBe(200);
    await mine('base', 36);
    await expectError('/v1/build', 400, 'QUOTE_OUTDATED', { json: base });
  });
});

describe('routing, methods and CORS', () => {
  it('404 NOT_FOUND for unknown paths, 405 for a wrong method, 200 on health', async () => {
    await expectError('/v2/quote', 404, 'NOT_FOUND');
    await expectError('/', 404, 'NOT_FOUND');
    await expectError('/v1/tokens/ethereum', 404, 'NOT_FOUND');
    const wrong = await call('/v1/quote');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    ErrorBodySchema.parse(wrong.body);
    expect((await call('/v1/tokens/ethereum/full', { method: 'POST' })).status).toBe(405);
    expect((await call('/v1/health')).status).toBe(200);
  });

  it('grants CORS to extension and localhost origins only', async () => {
    for (const origin of [
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
      'moz-extension://6f1c1a52-7c5e-4a43-9f3d-1b3c8e2a9d10',
      'http://localhost:3000',
    ]) {
      const preflight = await fetch(`${service.url}/v1/quote`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
      const get = await fetch(`${service.url}/v1/tokens/ethereum/search/${USDC}`, {
        headers: { Origin: origin },
      });
      expect(get.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const evil = await fetch(`${service.url}/v1/quote`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('503 RPC_UNAVAILABLE when anvil is gone; RPC-free endpoints keep answering', async () => {
    const quote = await getQuote();
    await devnet.stop();
    devnetStopped = true;
    // The service learns of the node's death from its socket closing or its next poll (100 ms here);
    // a quote answered in the instant before that is the head it had just seen. Within the staleness
    // bound (1 s here) every quote must fail: polled, never answered from the cache after it.
    await expect
      .poll(async () => (await call('/v1/quote', { json: request() })).status, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe(503);
    await expectError('/v1/quote', 503, 'RPC_UNAVAILABLE', { json: request() });
    await expectError('/v1/build', 503, 'RPC_UNAVAILABLE', { json: quote });
    expect((await call('/v1/tokens/ethereum/full')).status).toBe(200);
    expect((await call(`/v1/tokens/ethereum/search/${USDC}`)).status).toBe(200);
  });
});

async function fetchHead(name: 'ethereum' | 'base'): Promise<bigint> {
  return createPublicClient({ transport: http(chain(name).rpcUrl) }).getBlockNumber({ cacheTime: 0 });
}

async function mine(name: 'ethereum' | 'base', blocks: number): Promise<void> {
  await createTestClient({ mode: 'anvil', transport: http(chain(name).rpcUrl) }).mine({ blocks });
}
