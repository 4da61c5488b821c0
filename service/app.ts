// The reference Swap Routing Service as a Hono app (contract: docs/API.md).
// createServiceApp takes everything it talks to as deps, so tests can run it without listening.
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AddressSchema, ERROR_CODES, QuoteSchema } from '../lib/api/schema';
import { build } from './build';
import { type ChainReader, createRpcChainReaders } from './chain-reader';
import { buildChainRegistry, type ChainContext, type ChainName, type ChainRegistry } from './chains';
import { type Cors, cors } from './cors';
import { ApiError, errorBody } from './errors';
import { tokenLogoSvg } from './logos';
import type { ServiceManifest } from './manifest';
import { resolvePolicy, type ServicePolicy } from './policy';
import { type PreparedAnswer, prepareAnswer } from './prepared-answer';
import { type PreparedRoute, type PreparedRoutes, preparedRoutes } from './prepared-routes';
import { QuoteAnswerCache } from './quote-cache';
import { type QuoteHits, quoteHits } from './quote-hits';
import { quoteHandler } from './quote-route';
import { readJson, summarise } from './request-body';
import { bodyBound, type ClientLimiter, clientLimiter, requestBounds } from './request-bounds';
import { searchResultJson, TokenListCache } from './tokens';
import { requireChainById, whitelisted } from './validate';

export interface ServiceDeps {
  manifest: ServiceManifest;
  /** One reader per chain name; when absent, RPC readers on the manifest's rpcUrls. */
  readers?: Partial<Record<ChainName, ChainReader>>;
  clock?: () => Date;
  policy?: Partial<ServicePolicy>;
  /** Where unexpected errors are reported (default console.error). */
  log?: (line: string) => void;
  /** Answers to repeated quote requests within a block (a fresh one when absent; the bench reads its counts). */
  quoteCache?: QuoteAnswerCache;
}

/** Extension pages (any id) and local pages; every other origin gets no CORS grant. */
const ALLOWED_ORIGIN =
  /^(?:(?:chrome|moz)-extension:\/\/[A-Za-z0-9-]+|https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?)$/;
/** The logo URL base when none is configured (startService always configures where it listens). */
const FALLBACK_BASE_URL = 'http://127.0.0.1:8787';

/** What every route needs: policy, chains and their readers, the clock, the error answer. */
interface AppContext {
  policy: ServicePolicy;
  clock: () => Date;
  log: (line: string) => void;
  registry: ChainRegistry;
  readerFor(chain: ChainContext): ChainReader;
  chainByName(name: string): ChainContext;
  baseUrl: string;
  limit: MiddlewareHandler;
  clientLimiter: ClientLimiter | null;
  cors: Cors;
  tokenLists: TokenListCache;
  quoteCache: QuoteAnswerCache;
  now(): string;
  fail(c: Context, error: ApiError): Response;
}

function createAppContext(deps: ServiceDeps): AppContext {
  const policy = resolvePolicy(deps.policy);
  const clock = deps.clock ?? (() => new Date());
  const log = deps.log ?? ((line: string) => console.error(line));
  const registry = buildChainRegistry(deps.manifest);
  const defaults = deps.readers ? {} : createRpcChainReaders(deps.manifest, policy);
  const readers = new Map<ChainName, ChainReader>();
  for (const chain of registry.chains) {
    const reader = deps.readers?.[chain.name] ?? defaults[chain.name];
    if (reader) readers.set(chain.name, reader);
  }
  const readerFor = (chain: ChainContext): ChainReader => {
    const reader = readers.get(chain.name);
    if (!reader) throw new Error(`no reader for ${chain.name}`);
    return reader;
  };
  const baseUrl = (policy.publicBaseUrl ?? FALLBACK_BASE_URL).replace(/\/+$/, '');
  const tokenLists = new TokenListCache(baseUrl);
  // Every list is serialized and gzipped now, not on a request (a first request would pay 15 ms).
  for (const chain of registry.chains) tokenLists.fullList(chain);
  const now = () => clock().toISOString();
  const fail = (c: Context, error: ApiError) =>
    c.json(errorBody(error.code, error.message, clock()), error.status);

  const chainByName = (name: string): ChainContext => {
    const chain = registry.byName(name);
    if (!chain) {
      const names = registry.chains.map((known) => known.name).join(', ');
      throw new ApiError(400, ERROR_CODES.unsupportedChain, `unknown chain "${name}"; supported: ${names}`);
    }
    return chain;
  };
  const limit = bodyBound(policy.maxBodyBytes, fail);

  const quoteCache = deps.quoteCache ?? new QuoteAnswerCache();
  const corsPolicy = cors({
    allowedOrigin: ALLOWED_ORIGIN,
    allowMethods: ['GET', 'POST'],
    allowHeaders: ['Content-Type'],
    // The extension reads how long a 429 asks it to wait.
    exposeHeaders: ['Retry-After'],
    maxAgeSeconds: 600,
  });
  return {
    policy,
    clock,
    log,
    registry,
    readerFor,
    chainByName,
    baseUrl,
    limit,
    clientLimiter: clientLimiter(policy),
    cors: corsPolicy,
    tokenLists,
    quoteCache,
    now,
    fail,
  };
}

/** What the server answers before the app, each also answered by the app when it is not taken there. */
export interface EarlyAnswers {
  /** The token lists and the bench's sized no-op (service/prepared-routes.ts). */
  prepared: PreparedRoutes;
  /** Quotes answered from the per-block answer cache (service/quote-hits.ts). */
  quoteHits: QuoteHits;
}

/** The app, and what the server answers before it (the same answers the app gives the same requests). */
export function createService(deps: ServiceDeps): { app: Hono } & EarlyAnswers {
  const ctx = createAppContext(deps);
  const app = new Hono();
  app.use('*', ctx.cors.middleware);
  app.use('*', requestBounds(ctx.policy, ctx.fail, ctx.clientLimiter));

  const sizedNoop = sizedNoopAnswers();
  tokenRoutes(app, ctx);
  swapRoutes(app, ctx);
  utilityRoutes(app, ctx, sizedNoop);
  errorAnswers(app, ctx);
  const prepared = preparedRoutes(preparedRouteFor(ctx, sizedNoop), ctx.cors, ctx.clientLimiter);
  const { quoteCache: cache, registry, readerFor, now, cors, clientLimiter: limiter, policy } = ctx;
  const hits = quoteHits({
    cache,
    registry,
    readerFor,
    now,
    cors,
    limiter,
    maxBodyBytes: policy.maxBodyBytes,
  });
  return { app, prepared, quoteHits: hits };
}

export function createServiceApp(deps: ServiceDeps): Hono {
  return createService(deps).app;
}

/** The prepared answer for a request target, when it is exactly a list's path or a sized no-op's. */
function preparedRouteFor(
  { registry, tokenLists }: AppContext,
  sizedNoop: (count: number) => PreparedAnswer | undefined,
): (path: string) => PreparedRoute | undefined {
  const lists = new Map<string, PreparedRoute>();
  for (const chain of registry.chains) {
    lists.set(`/v1/tokens/${chain.name}/full`, (headers) =>
      tokenLists.answer(chain, headers['if-none-match'], headers['accept-encoding']),
    );
  }
  // The sized no-op's routes by answer, so a request makes no closure (the bench's list-sized baseline).
  const sizedRoutes = new WeakMap<PreparedAnswer, PreparedRoute>();
  return (path) => {
    const list = lists.get(path);
    if (list !== undefined) return list;
    const count = SIZED_NOOP_PATH.exec(path)?.[1];
    const answer = count === undefined ? undefined : sizedNoop(Number(count));
    if (answer === undefined) return undefined;
    let route = sizedRoutes.get(answer);
    if (!route) {
      route = () => answer;
      sizedRoutes.set(answer, route);
    }
    return route;
  };
}

/** GET the token list and search. */
function tokenRoutes(app: Hono, { chainByName, tokenLists, baseUrl, cors }: AppContext): void {
  app.get('/v1/tokens/:chain/search/:address', (c) => {
    const chain = chainByName(c.req.param('chain'));
    const address = c.req.param('address');
    if (!AddressSchema.safeParse(address).success) {
      throw new ApiError(
        400,
        ERROR_CODES.badRequest,
        `"${clip(address)}" is not an address (0x + 40 hex digits)`,
      );
    }
    const token = whitelisted(chain, address);
    if (!token) {
      throw new ApiError(
        404,
        ERROR_CODES.tokenNotFound,
        `${address} is not a whitelisted token on ${chain.name}`,
      );
    }
    return c.json(searchResultJson(baseUrl, chain, token));
  });

  // Every answer here is prepared when the list is (service/tokens.ts): no per-request headers.
  app.get('/v1/tokens/:chain/full', (c) => {
    const chain = chainByName(c.req.param('chain'));
    const answer = tokenLists.answer(chain, c.req.header('if-none-match'), c.req.header('accept-encoding'));
    return cors.send(c, answer);
  });
}

/** POST quote and build. */
function swapRoutes(app: Hono, { limit, registry, readerFor, policy, now, quoteCache }: AppContext): void {
  app.post('/v1/quote', limit, quoteHandler({ registry, readerFor, policy, now, cache: quoteCache }));

  app.post('/v1/build', limit, async (c) => {
    const body = await readJson(c);
    const parsed = QuoteSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(400, ERROR_CODES.invalidQuote, summarise(parsed.error));
    const chain = requireChainById(registry, parsed.data.chainId);
    const data = await build(chain, readerFor(chain), policy, parsed.data);
    return c.json({ success: true, data, timestamp: now() });
  });
}

/** Logos, health and the bench's no-op routes. */
function utilityRoutes(
  app: Hono,
  { registry, limit, now, cors }: AppContext,
  sizedNoop: (count: number) => PreparedAnswer | undefined,
): void {
  app.get('/logos/:chain/:file', (c) => {
    const chain = registry.byName(c.req.param('chain'));
    const match = /^(0x[0-9a-fA-F]{40})\.svg$/.exec(c.req.param('file'));
    const token = chain && match?.[1] ? whitelisted(chain, match[1]) : undefined;
    if (!token) throw new ApiError(404, ERROR_CODES.notFound, 'no logo at this address');
    return c.body(tokenLogoSvg(token), 200, {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=86400, immutable',
      'X-Content-Type-Options': 'nosniff',
      // An SVG opened directly is a document: no scripts, no external loads.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
  });

  // Liveness without touching any RPC, and the bench's no-op baseline (same stack, no work).
  app.get('/v1/health', (c) =>
    c.json({
      success: true,
      data: { status: 'ok', chains: registry.chains.map((chain) => chain.name) },
      timestamp: now(),
    }),
  );
  app.on(['GET', 'POST'], '/__noop', limit, async (c) => {
    if (c.req.method === 'POST') await readJson(c);
    return c.json({ success: true, data: { ok: true }, timestamp: now() });
  });
  // The bench's transfer baseline: n prepared bytes (as many as the token list's brotli), no work.
  app.get('/__noop/bytes/:count{[0-9]{1,7}}', (c) => {
    const answer = sizedNoop(Number(c.req.param('count')));
    if (!answer) {
      throw new ApiError(
        400,
        ERROR_CODES.badRequest,
        `the no-op route answers at most ${MAX_NOOP_BYTES} bytes`,
      );
    }
    return cors.send(c, answer);
  });
}

const MAX_NOOP_BYTES = 1 << 20;
const SIZED_NOOP_PATH = /^\/__noop\/bytes\/([0-9]{1,7})$/;

/** The sized no-op's answers, prepared on first ask (the last 4 sizes); undefined past the bound. */
function sizedNoopAnswers(): (count: number) => PreparedAnswer | undefined {
  const sized = new Map<number, PreparedAnswer>();
  return (count) => {
    if (count > MAX_NOOP_BYTES) return undefined;
    let answer = sized.get(count);
    if (!answer) {
      if (sized.size >= 4) sized.clear();
      const bytes = new Uint8Array(count).fill(0x20);
      answer = prepareAnswer(200, bytes, { 'Content-Type': 'application/octet-stream' });
      sized.set(count, answer);
    }
    return answer;
  };
}

/** 405 with Allow on known paths, 404 elsewhere, and every error as the contract's JSON body. */
function errorAnswers(app: Hono, { fail, clock, log }: AppContext): void {
  const allowed: [string, string][] = [
    ['/v1/tokens/:chain/search/:address', 'GET'],
    ['/v1/tokens/:chain/full', 'GET'],
    ['/v1/quote', 'POST'],
    ['/v1/build', 'POST'],
    ['/logos/:chain/:file', 'GET'],
    ['/v1/health', 'GET'],
    ['/__noop', 'GET, POST'],
    ['/__noop/bytes/:count{[0-9]{1,7}}', 'GET'],
  ];
  for (const [path, methods] of allowed) {
    app.all(path, (c) => {
      c.header('Allow', methods);
      return fail(
        c,
        new ApiError(405, ERROR_CODES.badRequest, `${c.req.method} is not allowed here; use ${methods}`),
      );
    });
  }

  app.notFound((c) =>
    fail(c, new ApiError(404, ERROR_CODES.notFound, `no such endpoint: ${c.req.method} ${clip(c.req.path)}`)),
  );
  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.status === 503)
        log(`[service] ${error.message} (${describeError((error as { cause?: unknown }).cause)})`);
      return fail(c, error);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(errorBody(ERROR_CODES.badRequest, error.message || 'bad request', clock()), error.status);
    }
    log(`[service] unexpected error on ${c.req.method} ${c.req.path}: ${describeError(error)}`);
    return fail(
      c,
      new ApiError(503, ERROR_CODES.serviceUnavailable, 'the service could not answer; try again shortly'),
    );
  });
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
