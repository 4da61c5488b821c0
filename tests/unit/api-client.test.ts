// The API client over real HTTP: a node:http server on 127.0.0.1:0 plays the service, so
// status codes, bodies, hangs, resets and refused connections are the real thing, not a fetch mock.

import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  backoffDelay,
  type ClientRetryOptions,
  createSwapApiClient,
  normaliseBaseUrl,
} from '@/lib/api/client';
import * as E from '@/lib/api/errors';
import { userMessageFor } from '@/lib/api/messages';
import type { Quote, QuoteRequest } from '@/lib/api/schema';
import { USDC, WETH } from '../support/addresses';
import { quoteFixture, requestOf } from '../support/quotes';
import { USDC_LISTED } from '../support/tokens';

// --- the fake service -------------------------------------------------------------------------

interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Handler = (req: IncomingMessage, res: ServerResponse, hit: Hit) => void;

let server: Server;
let origin: string;
let handler: Handler;
const hits: Hit[] = [];
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    // One connection per request: afterEach drops sockets, and a stale keep-alive socket would
    // turn the next test's first request into a (retried) network error.
    res.setHeader('connection', 'close');
    open.add(res);
    res.on('close', () => open.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      hits.push(hit);
      handler(req, res, hit);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  hits.length = 0;
  handler = (_req, res) => send(res, 500, 'no handler');
});

// Hanging handlers may leave responses open: end those sockets so a test cannot leak into the next.
// (Not closeAllConnections: it would also kill idle sockets undici is about to reuse.)
afterEach(() => {
  for (const res of open) res.socket?.destroy();
  open.clear();
});

function send(res: ServerResponse, status: number, body: string | object, contentType?: string): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': contentType ?? (typeof body === 'string' ? 'text/plain' : 'application/json'),
  });
  res.end(text);
}

/** Answers the listed responses in order, repeating the last one. */
function sequence(...answers: [status: number, body: string | object][]): Handler {
  let i = 0;
  return (_req, res) => {
    const answer = answers[Math.min(i++, answers.length - 1)];
    if (answer) send(res, answer[0], answer[1]);
  };
}

const TS = '2024-05-01T12:00:00.000Z';
const errorBody = (code: string, message: string) => ({
  success: false,
  error: { code, message },
  timestamp: TS,
});
const HTML_PAGE = '<!doctype html><html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>';

// --- fixtures ---------------------------------------------------------------------------------

const ROUTER = '0x2222222222222222222222222222222222222222';

const usdc = { ...USDC_LISTED, extensions: { opListId: 'list-1', opTokenId: 'usdc' } };

/** 1 WETH for USDC on Ethereum at 0.5%. */
const request: QuoteRequest = requestOf(quoteFixture({ inToken: WETH }));

// Unknown fields first and nested: /build must get them back, in the same order. quoteFixture's
// fields (1 WETH for 3,000 USDC, minReceived 2,985, executor 0x1111…) keep their order in between.
const quoteData = {
  quoteId: 'q-42',
  ...quoteFixture({
    inToken: WETH.toLowerCase(),
    bestRoute: [
      {
        percent: 60,
        swaps: [{ dex: 'v2-a', pool: WETH, amountIn: '600', amountOut: '1800', fee: 30 }],
        tag: 'a',
      },
      { percent: 40, swaps: [{ dex: 'v2-b', pool: USDC, amountIn: '400', amountOut: '1200' }] },
    ],
    contractMethod: 'swapExactETHForTokens',
    blockNumber: 19_000_000,
  }),
  meta: { signature: '0xabc', list: [1, 'two', { three: 3 }], empty: null },
};
const quoteEnvelope = { success: true, data: quoteData, timestamp: TS };
const buildEnvelope = {
  success: true,
  data: { to: ROUTER, transaction: '0xdeadbeef', value: '1000000000000000000' },
  timestamp: TS,
};

// Retries in tests never wait unless a test says so.
const instant: ClientRetryOptions = { sleep: async () => {} };

function client(overrides: Partial<Parameters<typeof createSwapApiClient>[0]> = {}) {
  return createSwapApiClient({ baseUrl: origin, timeoutMs: 2_000, retry: instant, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<E.SwapApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(E.SwapApiError);
    return error as E.SwapApiError;
  }
  throw new Error('expected the call to fail');
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- tests ------------------------------------------------------------------------------------

describe('search', () => {
  it('GETs /v1/tokens/{chain}/search/{address} and returns the token', async () => {
    handler = sequence([200, [usdc]]);
    const token = await client().searchToken('ethereum', USDC.toLowerCase());
    expect(token).toEqual(usdc);
    expect(hits).toMatchObject([{ method: 'GET', url: `/v1/tokens/ethereum/search/${USDC.toLowerCase()}` }]);
    expect(hits[0]?.headers.accept).toBe('application/json');
  });

  it('404 (token not whitelisted) gives null, whatever the body', async () => {
    for (const body of [errorBody('TOKEN_NOT_FOUND', 'not listed'), '', HTML_PAGE]) {
      handler = sequence([404, body]);
      await expect(client().searchToken('ethereum', USDC)).resolves.toBeNull();
    }
    expect(hits).toHaveLength(3); // never retried
  });

  it('200 with an empty array gives null', async () => {
    handler = sequence([200, []]);
    await expect(client().searchToken('ethereum', USDC)).resolves.toBeNull();
  });

  it('200 with an entry lacking extensions is an invalid response', async () => {
    const { extensions: _dropped, ...bare } = usdc;
    handler = sequence([200, [bare]]);
    const error = await failure(client().searchToken('ethereum', USDC));
    expect(error).toBeInstanceOf(E.InvalidResponseError);
    expect(error).toMatchObject({ reason: 'schema', endpoint: 'search', status: 200 });
  });

  it('200 answering another token is refused (mismatch), not shown', async () => {
    handler = sequence([200, [{ ...usdc, address: WETH }]]);
    const error = await failure(client().searchToken('ethereum', USDC));
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'mismatch' });
  });

  it('400 on search is a BadRequestError (not a chain error), with the server code kept', async () => {
    handler = sequence([400, errorBody('BAD_REQUEST', 'unknown chain name')]);
    const error = await failure(client().searchToken('nochain', USDC));
    expect(error).toBeInstanceOf(E.BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      endpoint: 'search',
      serverCode: 'BAD_REQUEST',
      serverMessage: 'unknown chain name',
    });
    expect(hits).toHaveLength(1);
  });

  it.each([500, 502, 503, 504])('%d is retried, then ServiceUnavailableError', async (status) => {
    handler = sequence([status, errorBody('SERVICE_UNAVAILABLE', 'down')]);
    const error = await failure(client().searchToken('ethereum', USDC));
    expect(error).toBeInstanceOf(E.ServiceUnavailableError);
    expect(error).toMatchObject({
      status,
      cause: 'http-5xx',
      serverCode: 'SERVICE_UNAVAILABLE',
      endpoint: 'search',
    });
    expect(hits).toHaveLength(3); // default: 2 retries
  });
});

describe('list', () => {
  it('GETs /v1/tokens/{chain}/full; entries may omit extensions', async () => {
    const { extensions: _dropped, ...bare } = usdc;
    handler = sequence([200, [bare, { ...bare, address: WETH, symbol: 'WETH', decimals: 18 }]]);
    const tokens = await client().listTokens('ethereum');
    expect(tokens.map((t) => t.symbol)).toEqual(['USDC', 'WETH']);
    expect(hits).toMatchObject([{ method: 'GET', url: '/v1/tokens/ethereum/full' }]);
  });

  it('never follows a redirect: a 302 to a list elsewhere is an error, and the elsewhere is never asked', async () => {
    handler = (req, res) => {
      if (req.url?.startsWith('/elsewhere')) return send(res, 200, [usdc]);
      res.writeHead(302, { location: '/elsewhere/v1/tokens/ethereum/full' });
      res.end();
    };
    const error = await failure(client({ retry: false }).listTokens('ethereum'));
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'redirect', status: 302 });
    expect(hits.map((hit) => hit.url)).not.toContain('/elsewhere/v1/tokens/ethereum/full');
    // Told as what it is, never as a connection problem.
    expect(userMessageFor(error).title).toBe(
      'The swap service answered from another address; Swaplane refused it',
    );
  });

  it('5xx with an HTML error page: ServiceUnavailableError, no server code', async () => {
    handler = (_req, res) => send(res, 502, HTML_PAGE, 'text/html');
    const error = await failure(client().listTokens('ethereum'));
    expect(error).toBeInstanceOf(E.ServiceUnavailableError);
    expect(error.serverCode).toBeUndefined();
    expect(error.serverMessage).toBeUndefined();
  });

  it('404 on list (unknown chain name) is a BadRequestError, not retried', async () => {
    handler = sequence([404, errorBody('NOT_FOUND', 'no such chain')]);
    const error = await failure(client().listTokens('nochain'));
    expect(error).toBeInstanceOf(E.BadRequestError);
    expect(hits).toHaveLength(1);
  });

  it('refuses an oversized body (chunked, no content-length) as too large', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`[${' '.repeat(800)}`);
      res.write(' '.repeat(800));
      res.end(']');
    };
    const error = await failure(client({ maxResponseBytes: 1_000 }).listTokens('ethereum'));
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'too-large' });
  });
});

describe('quote', () => {
  it('POSTs the validated request as JSON and returns the quote and timestamp', async () => {
    handler = sequence([200, quoteEnvelope]);
    const result = await client().quote({ ...request, refCode: 7 });
    expect(result.timestamp).toBe(TS);
    expect(result.quote).toEqual(quoteData);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ method: 'POST', url: '/v1/quote' });
    expect(hits[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(hits[0]?.body ?? '')).toEqual({ ...request, refCode: 7 });
  });

  it.each([
    [400, E.UnsupportedChainError, 'UNSUPPORTED_CHAIN'],
    [404, E.UnsupportedTokenError, 'UNSUPPORTED_TOKENS'],
    [406, E.SlippageError, 'SLIPPAGE_OUT_OF_RANGE'],
  ] as const)('%d maps to %o and is not retried', async (status, type, code) => {
    handler = sequence([status, errorBody(code, 'refused')]);
    const error = await failure(client().quote(request));
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ status, endpoint: 'quote', serverCode: code, serverMessage: 'refused' });
    expect(hits).toHaveLength(1);
  });

  it.each([400, 404, 406])('%d with a non-JSON body still maps by status', async (status) => {
    handler = (_req, res) => send(res, status, '<html>nope</html>', 'text/html');
    const error = await failure(client().quote(request));
    expect(error.status).toBe(status);
    expect(error.serverCode).toBeUndefined();
  });

  it.each([401, 403, 405, 409, 413, 414, 415, 422])(
    'other 4xx (%d) is a BadRequestError, never retried',
    async (status) => {
      handler = sequence([status, errorBody('BAD_REQUEST', 'no')]);
      const error = await failure(client().quote(request));
      expect(error).toBeInstanceOf(E.BadRequestError);
      expect(error.status).toBe(status);
      expect(hits).toHaveLength(1);
    },
  );

  it('5xx is retried then ServiceUnavailableError', async () => {
    handler = sequence([500, errorBody('RPC_UNAVAILABLE', 'rpc down')]);
    const error = await failure(client().quote(request));
    expect(error).toMatchObject({
      kind: 'service-unavailable',
      cause: 'http-5xx',
      serverCode: 'RPC_UNAVAILABLE',
    });
    expect(hits).toHaveLength(3);
  });

  it.each([
    ['a bad address', { ...request, inToken: '0x1234' }],
    ['a numeric amount', { ...request, inAmount: 1000 as unknown as string }],
    ['a decimal amount', { ...request, inAmount: '1.5' }],
    ['a negative slippage', { ...request, slippage: -1 }],
    ['chainId 0', { ...request, chainId: 0 }],
    ['a missing field', { ...request, outToken: undefined as unknown as string }],
  ])('a request with %s is an InvalidRequestError and is never sent', async (_label, bad) => {
    const error = await failure(client().quote(bad));
    expect(error).toBeInstanceOf(E.InvalidRequestError);
    expect((error as E.InvalidRequestError).issues.length).toBeGreaterThan(0);
    expect(hits).toHaveLength(0);
  });

  it('does not send fields the contract does not define', async () => {
    handler = sequence([200, quoteEnvelope]);
    await client().quote({ ...request, privateNote: 'x' } as QuoteRequest);
    expect(JSON.parse(hits[0]?.body ?? '')).not.toHaveProperty('privateNote');
  });
});

describe('build', () => {
  it('sends the quote exactly as received (unknown fields, nesting and key order kept)', async () => {
    handler = sequence([200, quoteEnvelope]);
    const { quote } = await client().quote(request);
    handler = sequence([200, buildEnvelope]);
    const result = await client().build(quote);
    expect(result).toEqual({ build: buildEnvelope.data, timestamp: TS });
    const sent = hits[1];
    expect(sent).toMatchObject({ method: 'POST', url: '/v1/build' });
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual(quoteData);
    expect(sent?.body).toBe(JSON.stringify(quoteData)); // same keys in the same order
  });

  it('400 is QuoteOutdatedError, not retried', async () => {
    handler = sequence([400, errorBody('QUOTE_OUTDATED', 'quote is 12 blocks old')]);
    const error = await failure(client().build(quoteData as Quote));
    expect(error).toBeInstanceOf(E.QuoteOutdatedError);
    expect(error).toMatchObject({ status: 400, endpoint: 'build', serverCode: 'QUOTE_OUTDATED' });
    expect(hits).toHaveLength(1);
  });

  it.each([404, 406])('%d on build (no meaning in the contract) is a BadRequestError', async (status) => {
    handler = sequence([status, errorBody('NOT_FOUND', 'no')]);
    const error = await failure(client().build(quoteData as Quote));
    expect(error).toBeInstanceOf(E.BadRequestError);
    expect(error.status).toBe(status);
    expect(hits).toHaveLength(1);
  });

  it('5xx is retried then ServiceUnavailableError', async () => {
    handler = sequence([503, '']);
    const error = await failure(client().build(quoteData as Quote));
    expect(error).toBeInstanceOf(E.ServiceUnavailableError);
    expect(hits).toHaveLength(3);
  });

  it('refuses to send something that is not a quote', async () => {
    const error = await failure(client().build({ ...quoteData, minReceived: 'lots' } as unknown as Quote));
    expect(error).toBeInstanceOf(E.InvalidRequestError);
    expect(hits).toHaveLength(0);
  });
});

describe('error bodies', () => {
  it('keeps code and message of an error body without the envelope timestamp', async () => {
    handler = sequence([406, { error: { code: 'SLIPPAGE_OUT_OF_RANGE', message: 'max 50' } }]);
    const error = await failure(client().quote(request));
    expect(error).toMatchObject({ serverCode: 'SLIPPAGE_OUT_OF_RANGE', serverMessage: 'max 50' });
  });

  it('drops a code that is not UPPER_SNAKE and caps a long message', async () => {
    handler = sequence([400, { error: { code: 'oops <script>', message: 'm'.repeat(10_000) } }]);
    const error = await failure(client().quote(request));
    expect(error.serverCode).toBeUndefined();
    expect(error.serverMessage?.length).toBe(500);
  });

  it.each([
    ['empty', ''],
    ['garbage JSON', '{"error": '],
    ['a JSON string', '"nope"'],
    ['a JSON null', 'null'],
    ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0x00, 0xc3])],
  ])('tolerates a 406 with %s body', async (_label, body) => {
    handler = (_req, res) => {
      res.writeHead(406);
      res.end(body);
    };
    const error = await failure(client().quote(request));
    expect(error).toBeInstanceOf(E.SlippageError);
    expect(error.serverCode).toBeUndefined();
  });

  it('does not read a huge error body (content-length above the cap)', async () => {
    handler = (_req, res) => send(res, 503, 'x'.repeat(5 * 1024 * 1024), 'text/html');
    const error = await failure(client({ retry: false }).listTokens('ethereum'));
    expect(error).toBeInstanceOf(E.ServiceUnavailableError);
  });

  it('stops reading an endless error body at the cap', async () => {
    handler = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.write('{"error":{"code":"BAD_REQUEST","message":"');
      const timer = setInterval(() => res.write('z'.repeat(16 * 1024)), 1);
      res.on('close', () => clearInterval(timer));
    };
    const started = Date.now();
    const error = await failure(client().searchToken('ethereum', USDC));
    expect(error).toBeInstanceOf(E.BadRequestError);
    expect(error.serverCode).toBeUndefined(); // truncated, so not JSON
    expect(Date.now() - started).toBeLessThan(1_500); // did not wait for the 2 s timeout
  });

  it('a 4xx whose body hangs is still mapped by its status', async () => {
    handler = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.write('{"error":');
    };
    const error = await failure(client({ timeoutMs: 200 }).build(quoteData as Quote));
    expect(error).toBeInstanceOf(E.QuoteOutdatedError);
    expect(hits).toHaveLength(1);
  });

  it('a 3xx that is not followed is an invalid response', async () => {
    handler = (_req, res) => {
      res.writeHead(304);
      res.end();
    };
    const error = await failure(client().listTokens('ethereum'));
    expect(error).toMatchObject({ kind: 'invalid-response', reason: 'unexpected-status', status: 304 });
  });
});

describe('invalid success bodies', () => {
  it.each([
    [
      'wrong schema',
      JSON.stringify({ success: true, data: { ...quoteData, outAmount: 3e9 }, timestamp: TS }),
      'schema',
    ],
    ['success: false', JSON.stringify({ ...quoteEnvelope, success: false }), 'schema'],
    ['a bad timestamp', JSON.stringify({ ...quoteEnvelope, timestamp: 'now' }), 'schema'],
    ['an HTML page', HTML_PAGE, 'not-json'],
    ['truncated JSON', JSON.stringify(quoteEnvelope).slice(0, 50), 'not-json'],
    ['an empty body', '', 'empty'],
    ['whitespace only', '  \n', 'empty'],
  ])('a 200 with %s is an InvalidResponseError, not retried', async (_label, body, reason) => {
    handler = (_req, res) => send(res, 200, body, 'application/json');
    const error = await failure(client().quote(request));
    expect(error).toBeInstanceOf(E.InvalidResponseError);
    expect(error).toMatchObject({ reason, status: 200, endpoint: 'quote' });
    expect(hits).toHaveLength(1);
  });

  it('schema issues are kept for logs', async () => {
    handler = sequence([
      200,
      { success: true, data: { ...buildEnvelope.data, transaction: 'zz' }, timestamp: TS },
    ]);
    const error = (await failure(client().build(quoteData as Quote))) as E.InvalidResponseError;
    expect(error.issues.join('\n')).toContain('data.transaction');
  });
});

describe('timeouts and network failures', () => {
  it('a server that never answers times out within a bounded wait', async () => {
    handler = () => {}; // hangs
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 150, retry: false }).quote(request));
    expect(error).toBeInstanceOf(E.ServiceUnavailableError);
    expect(error).toMatchObject({ cause: 'timeout', endpoint: 'quote' });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(hits).toHaveLength(1);
  });

  it('timeouts are retried, each attempt bounded', async () => {
    handler = () => {};
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 100 }).listTokens('ethereum'));
    expect(error).toMatchObject({ kind: 'service-unavailable', cause: 'timeout' });
    expect(hits).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('the timeout also covers a body that stops mid-way', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,');
    };
    const error = await failure(client({ timeoutMs: 150, retry: false }).quote(request));
    expect(error).toMatchObject({ kind: 'service-unavailable', cause: 'timeout' });
  });

  it('connection refused (closed port) is ServiceUnavailableError(network), retried', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const sleeps: number[] = [];
    const refused = createSwapApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { sleep: async (ms) => void sleeps.push(ms) },
    });
    const error = await failure(refused.quote(request));
    expect(error).toBeInstanceOf(E.ServiceUnavailableError);
    expect(error).toMatchObject({ cause: 'network', status: undefined });
    expect(sleeps).toHaveLength(2);
  });

  it('a connection reset mid-response is a network failure and is retried', async () => {
    let n = 0;
    handler = (_req, res) => {
      if (n++ === 0) res.socket?.destroy();
      else send(res, 200, [usdc]);
    };
    await expect(client().searchToken('ethereum', USDC)).resolves.toEqual(usdc);
    expect(hits).toHaveLength(2);
  });
});

describe('retries', () => {
  it('a 503 then a 200 succeeds', async () => {
    handler = sequence([503, errorBody('SERVICE_UNAVAILABLE', 'busy')], [200, quoteEnvelope]);
    await expect(client().quote(request)).resolves.toMatchObject({ timestamp: TS });
    expect(hits).toHaveLength(2);
  });

  it.each([0, 1, 4])('retry.attempts = %d gives attempts + 1 hits on a persistent 5xx', async (attempts) => {
    handler = sequence([500, '']);
    await failure(client({ retry: { ...instant, attempts } }).listTokens('ethereum'));
    expect(hits).toHaveLength(attempts + 1);
  });

  it('retry can be turned off or changed per call', async () => {
    handler = sequence([500, '']);
    const api = client();
    await failure(api.quote(request, { retry: false }));
    expect(hits).toHaveLength(1);
    hits.length = 0;
    await failure(api.build(quoteData as Quote, { retry: { attempts: 3 } }));
    expect(hits).toHaveLength(4);
  });

  it.each([400, 404, 406, 413, 429])('%d is never retried, on any endpoint', async (status) => {
    handler = sequence([status, '']);
    const api = client({ retry: { ...instant, attempts: 5 } });
    await failure(api.quote(request));
    await failure(api.build(quoteData as Quote));
    await failure(api.listTokens('ethereum'));
    expect(hits).toHaveLength(3);
  });

  it('backoff: each delay is in [0, min(maxDelay, base * 2^n)], full jitter', async () => {
    handler = sequence([503, '']);
    const policy = { attempts: 6, baseDelayMs: 100, maxDelayMs: 1_000, maxTotalMs: 1e9 };
    for (const r of [0, 0.5, 0.999999]) {
      const sleeps: number[] = [];
      const api = client({
        retry: { ...policy, random: () => r, sleep: async (ms) => void sleeps.push(ms) },
      });
      await failure(api.listTokens('ethereum'));
      expect(sleeps).toHaveLength(6);
      sleeps.forEach((ms, n) => {
        const cap = Math.min(1_000, 100 * 2 ** n);
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThanOrEqual(cap);
        expect(ms).toBe(Math.floor(r * cap));
      });
    }
  });

  it('backoff bounds hold for any policy and any random value (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, baseDelayMs, maxDelayMs, r) => {
          const ms = backoffDelay(n, { attempts: 20, baseDelayMs, maxDelayMs, maxTotalMs: 1e9 }, () => r);
          return ms >= 0 && ms <= Math.min(maxDelayMs, baseDelayMs * 2 ** n) && Number.isInteger(ms);
        },
      ),
    );
    // A broken random source cannot push a delay out of bounds.
    const policy = { attempts: 1, baseDelayMs: 100, maxDelayMs: 100, maxTotalMs: 1e9 };
    expect(backoffDelay(0, policy, () => 7)).toBeLessThanOrEqual(100);
    expect(backoffDelay(0, policy, () => -1)).toBe(0);
    expect(backoffDelay(0, policy, () => Number.NaN)).toBe(0);
  });

  it('total time is bounded by maxTotalMs: no retry starts past the budget', async () => {
    handler = sequence([503, '']);
    let clock = 0;
    const sleeps: number[] = [];
    const api = client({
      retry: {
        attempts: 10,
        baseDelayMs: 1_000,
        maxDelayMs: 1_000,
        maxTotalMs: 2_500,
        random: () => 0.99,
        now: () => clock,
        sleep: async (ms) => {
          sleeps.push(ms);
          clock += ms;
        },
      },
    });
    await failure(api.listTokens('ethereum'));
    expect(sleeps).toEqual([990, 990]); // a third wait would end at 2970 > 2500
    expect(hits).toHaveLength(3);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2_500);
  });

  it('waits for real between retries with the default sleep', async () => {
    handler = sequence([503, ''], [503, ''], [200, [usdc]]);
    const started = Date.now();
    const api = client({ retry: { baseDelayMs: 20, maxDelayMs: 20, random: () => 0.999 } });
    await expect(api.searchToken('ethereum', USDC)).resolves.toEqual(usdc);
    expect(Date.now() - started).toBeGreaterThanOrEqual(30); // 19 + 19 ms
  });
});

describe('rate limits (429)', () => {
  /** 429 with the reference service's body and a Retry-After, then what `after` says. */
  function limitedThen(retryAfter: string | null, after: [number, object]): Handler {
    let i = 0;
    return (_req, res) => {
      if (i++ === 0) {
        res.writeHead(429, {
          'content-type': 'application/json',
          ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
        });
        res.end(JSON.stringify(errorBody('RATE_LIMITED', 'too many quote requests; retry in 3 s')));
      } else send(res, after[0], after[1]);
    };
  }

  it('waits as told (once), says so, then answers', async () => {
    handler = limitedThen('3', [200, quoteEnvelope]);
    const sleeps: number[] = [];
    const waits: number[] = [];
    const api = client({ retry: { sleep: async (ms) => void sleeps.push(ms) } });
    await expect(api.quote(request, { onWait: (seconds) => waits.push(seconds) })).resolves.toMatchObject({
      timestamp: TS,
    });
    expect(waits).toEqual([3]);
    expect(sleeps).toEqual([3_000]);
    expect(hits).toHaveLength(2);
  });

  it('never loops: a second 429 fails with RateLimitedError after one wait', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify(errorBody('RATE_LIMITED', 'slow down')));
    };
    const api = client({ retry: { ...instant, attempts: 5 } });
    const error = await failure(api.quote(request));
    expect(error).toBeInstanceOf(E.RateLimitedError);
    expect(error).toMatchObject({
      kind: 'rate-limited',
      status: 429,
      retryAfterSeconds: 1,
      serverCode: 'RATE_LIMITED',
    });
    expect(hits).toHaveLength(2);
  });

  it.each([
    ['longer than the bound', '21'],
    ['absent', null],
    ['unreadable', 'soon'],
  ])('does not wait when Retry-After is %s', async (_case, retryAfter) => {
    handler = limitedThen(retryAfter, [200, quoteEnvelope]);
    const sleeps: number[] = [];
    const error = await failure(
      client({ retry: { sleep: async (ms) => void sleeps.push(ms) } }).quote(request),
    );
    expect(error).toBeInstanceOf(E.RateLimitedError);
    expect(sleeps).toEqual([]);
    expect(hits).toHaveLength(1);
  });

  it('does not wait past the call’s time budget, nor with retries off', async () => {
    handler = limitedThen('10', [200, quoteEnvelope]);
    await failure(client({ retry: { ...instant, maxTotalMs: 5_000 } }).build(quoteData as Quote));
    expect(hits).toHaveLength(1);
    hits.length = 0;
    handler = limitedThen('1', [200, quoteEnvelope]);
    await failure(client().quote(request, { retry: false }));
    expect(hits).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', async () => {
    const { parseRetryAfter } = await import('@/lib/api/http');
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('1e3', now)).toBeUndefined();
    expect(parseRetryAfter('999999', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('caller cancellation', () => {
  it('aborting mid-request gives RequestCancelledError and no retry', async () => {
    const controller = new AbortController();
    handler = () => controller.abort(); // hang, and cancel once the service has the request
    const error = await failure(client().quote(request, { signal: controller.signal }));
    expect(error).toBeInstanceOf(E.RequestCancelledError);
    expect(error).not.toBeInstanceOf(E.ServiceUnavailableError);
    await delay(100);
    expect(hits).toHaveLength(1);
  });

  it('aborting during the backoff wait stops at once', async () => {
    const controller = new AbortController();
    handler = sequence([503, '']);
    const api = client({
      retry: {
        sleep: async () => {
          controller.abort();
        },
      },
    });
    const error = await failure(api.listTokens('ethereum', { signal: controller.signal }));
    expect(error).toBeInstanceOf(E.RequestCancelledError);
    expect(hits).toHaveLength(1);
  });

  it('aborting during the real backoff wait does not wait it out', async () => {
    const controller = new AbortController();
    handler = (_req, res) => {
      send(res, 503, '');
      setTimeout(() => controller.abort(), 50);
    };
    const started = Date.now();
    const api = client({ retry: { baseDelayMs: 10_000, maxDelayMs: 10_000, random: () => 0.999 } });
    const error = await failure(api.listTokens('ethereum', { signal: controller.signal }));
    expect(error).toBeInstanceOf(E.RequestCancelledError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('an already aborted signal sends nothing', async () => {
    const error = await failure(client().searchToken('ethereum', USDC, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(E.RequestCancelledError);
    expect(hits).toHaveLength(0);
  });
});

describe('URLs', () => {
  it('encodes path segments', async () => {
    handler = sequence([404, '']);
    await client().searchToken('bsc mainnet/x?y#z', '0xab%cd');
    await failure(client().listTokens('é/..'));
    expect(hits.map((h) => h.url)).toEqual([
      '/v1/tokens/bsc%20mainnet%2Fx%3Fy%23z/search/0xab%25cd',
      '/v1/tokens/%C3%A9%2F../full',
    ]);
  });

  it.each(['', '.', '..'])('refuses the path segment %j (URL parsing would collapse it)', async (name) => {
    const error = await failure(client().listTokens(name));
    expect(error).toBeInstanceOf(E.InvalidRequestError);
    const error2 = await failure(client().searchToken('ethereum', name));
    expect(error2).toBeInstanceOf(E.InvalidRequestError);
    expect(hits).toHaveLength(0);
  });

  it.each([
    ['', '/v1/tokens/eth/full'],
    ['/', '/v1/tokens/eth/full'],
    ['///', '/v1/tokens/eth/full'],
    ['/v1', '/v1/tokens/eth/full'],
    ['/v1/', '/v1/tokens/eth/full'],
    ['/api', '/api/v1/tokens/eth/full'],
    ['/api//', '/api/v1/tokens/eth/full'],
    ['/api/v1', '/api/v1/tokens/eth/full'],
    ['/api/v1//', '/api/v1/tokens/eth/full'],
    ['/v1/v1', '/v1/v1/tokens/eth/full'],
  ])('base URL origin + %j: the service sees %s', async (suffix, expected) => {
    handler = sequence([200, []]);
    await createSwapApiClient({ baseUrl: `${origin}${suffix}` }).listTokens('eth');
    expect(hits.map((h) => h.url)).toEqual([expected]);
  });

  it('exposes the normalised base URL', () => {
    expect(normaliseBaseUrl('https://swap.example.com/v1/')).toBe('https://swap.example.com');
    expect(normaliseBaseUrl('HTTPS://Swap.Example.com:443/api/')).toBe('https://swap.example.com/api');
    expect(createSwapApiClient({ baseUrl: `${origin}/v1` }).baseUrl).toBe(origin);
  });

  it.each([
    'not a url',
    'ftp://swap.example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'ws://127.0.0.1:1',
    'http://user:secret@swap.example.com',
    'https://swap.example.com/?key=1',
    'https://swap.example.com/#frag',
  ])('refuses the base URL %j at creation', (baseUrl) => {
    expect(() => createSwapApiClient({ baseUrl })).toThrow(E.ClientConfigError);
  });

  it('refuses a bad timeout or retry policy at creation', () => {
    expect(() => createSwapApiClient({ baseUrl: origin, timeoutMs: 0 })).toThrow(E.ClientConfigError);
    expect(() => createSwapApiClient({ baseUrl: origin, timeoutMs: Number.NaN })).toThrow(
      E.ClientConfigError,
    );
    expect(() => createSwapApiClient({ baseUrl: origin, retry: { attempts: -1 } })).toThrow(
      E.ClientConfigError,
    );
    expect(() => createSwapApiClient({ baseUrl: origin, retry: { attempts: 1.5 } })).toThrow(
      E.ClientConfigError,
    );
    expect(() => createSwapApiClient({ baseUrl: origin, retry: { maxTotalMs: 0 } })).toThrow(
      E.ClientConfigError,
    );
  });
});
