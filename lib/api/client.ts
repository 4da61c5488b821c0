// HTTP client of the Swap Routing Service (the contract: docs/API.md).
// Runs in the background service worker: platform fetch + AbortController only.
// Every answer is parsed with the contract schemas; money stays in decimal strings here.
import type { core, output } from 'zod/mini';
import {
  type ApiEndpoint,
  ClientConfigError,
  InvalidRequestError,
  InvalidResponseError,
  RateLimitedError,
  RequestCancelledError,
  ServiceUnavailableError,
} from '@/lib/api/errors';
import {
  BuildResponseSchema,
  type BuildResult,
  type Quote,
  type QuoteRequest,
  QuoteRequestSchema,
  QuoteResponseSchema,
  QuoteSchema,
  sameAddress,
  type Token,
  TokenListResponseSchema,
  TokenSearchResponseSchema,
  type TokenWithExtensions,
} from '@/lib/api/schema';
import { sleep as abortableSleep } from '@/lib/async';
import { ensureJitlessZod } from '@/lib/zod-config';
import {
  errorForStatus,
  exchange,
  type FetchLike,
  formatIssues,
  type HttpRequest,
  parseJson,
  type RawAnswer,
  segment,
  successJson,
  type Transport,
} from './http';

export { errorForStatus, type FetchLike, MAX_ERROR_BODY_BYTES } from './http';

/** Must resolve after `ms`, or early when `signal` aborts (the client re-checks the signal). */
export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryPolicy {
  /** Retries after the first try (so `attempts + 1` requests at most). */
  attempts: number;
  /** Full-jitter backoff: retry n waits random() * min(maxDelayMs, baseDelayMs * 2^n). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Budget for the whole call, retries and waits included; no retry starts past it. */
  maxTotalMs: number;
}

export interface ClientRetryOptions extends Partial<RetryPolicy> {
  /** Injectable for tests: backoff bounds become checkable without waiting. */
  sleep?: SleepFn;
  random?: () => number;
  now?: () => number;
}

export interface SwapApiClientOptions {
  baseUrl: string;
  fetch?: FetchLike;
  /** Per attempt, headers and body included. */
  timeoutMs?: number;
  /** `false` disables retries for every call. */
  retry?: ClientRetryOptions | false;
  /** Cap on a success body (token lists can be big, but not unbounded). */
  maxResponseBytes?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Per-call override of the client's retry policy; `false` = a single try. */
  retry?: Partial<RetryPolicy> | false;
  /** Called when a 429 is waited out, with the seconds the service asked for (the view says so). */
  onWait?: (seconds: number) => void;
}

export interface SwapApiClient {
  readonly baseUrl: string;
  searchToken(chainName: string, address: string, opts?: CallOptions): Promise<TokenWithExtensions | null>;
  listTokens(chainName: string, opts?: CallOptions): Promise<Token[]>;
  quote(request: QuoteRequest, opts?: CallOptions): Promise<{ quote: Quote; timestamp: string }>;
  build(quote: Quote, opts?: CallOptions): Promise<{ build: BuildResult; timestamp: string }>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 2,
  baseDelayMs: 250,
  maxDelayMs: 2_000,
  maxTotalMs: 25_000,
};
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/**
 * The longest Retry-After a call waits out (once, never twice in a row): past it, or on a second
 * 429, the call fails with RateLimitedError and the caller decides (the quote session shows it).
 */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 20;
/** Error bodies are only read for a code and a message: never keep more than this. */
const MAX_TIMER_MS = 2 ** 31 - 1; // setTimeout overflows above this

/** Full jitter (AWS architecture blog): uniform in [0, min(maxDelay, base * 2^retryIndex)). */
export function backoffDelay(retryIndex: number, policy: RetryPolicy, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  const r = random();
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0; // a broken random() must not break bounds
  return Math.floor(unit * cap);
}

/** Strips trailing slashes and one trailing `/v1` (the client adds it); refuses anything but plain http(s). */
export function normaliseBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ClientConfigError('baseUrl', 'The service URL is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientConfigError('baseUrl', 'The service URL must start with http:// or https://.');
  }
  // fetch refuses URLs with credentials; a query or fragment would end up in the middle of every path.
  if (url.username || url.password)
    throw new ClientConfigError('baseUrl', 'The service URL cannot hold credentials.');
  if (url.search || url.hash) {
    throw new ClientConfigError('baseUrl', 'The service URL cannot have a query string or fragment.');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/v1')) path = path.slice(0, -'/v1'.length).replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

export function createSwapApiClient(options: SwapApiClientOptions): SwapApiClient {
  ensureJitlessZod();
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
    throw new ClientConfigError('timeoutMs', 'timeoutMs must be a positive number of milliseconds.');
  }
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const retryOptions = options.retry === false ? undefined : options.retry;
  const clientPolicy =
    options.retry === false ? false : checkPolicy({ ...DEFAULT_RETRY, ...stripUndefined(retryOptions) });
  const sleep = retryOptions?.sleep ?? abortableSleep;
  const random = retryOptions?.random ?? Math.random;
  const now = retryOptions?.now ?? Date.now;
  // A local binding, called plainly: a detached `window.fetch` then still gets the global `this`.
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const transport: Transport = { baseUrl, doFetch, maxResponseBytes };

  const env: CallEnv = { transport, clientPolicy, timeoutMs, sleep, random, now };
  const call = <T>(
    endpoint: ApiEndpoint,
    request: HttpRequest,
    opts: CallOptions | undefined,
    interpret: (answer: RawAnswer) => T,
  ): Promise<T> => callWithRetries(env, endpoint, request, opts, interpret);

  function parseSuccess<S extends core.$ZodType>(
    endpoint: ApiEndpoint,
    answer: RawAnswer,
    schema: S,
  ): output<S> {
    return parseJson(endpoint, answer.status, successJson(endpoint, answer), schema);
  }

  return {
    baseUrl,

    async searchToken(chainName, address, opts) {
      const endpoint = 'search';
      const path = `/v1/tokens/${segment(endpoint, chainName, 'chainName')}/search/${segment(endpoint, address, 'address')}`;
      return call(endpoint, { method: 'GET', path }, opts, (answer) => {
        if (answer.status === 404) return null;
        if (!answer.ok) throw errorForStatus(endpoint, answer, now());
        const tokens = parseSuccess(endpoint, answer, TokenSearchResponseSchema);
        if (tokens.length === 0) return null;
        // A search that answers another token would show wrong decimals or name: refuse it.
        const match = tokens.find((token) => sameAddress(token.address, address));
        if (!match) throw new InvalidResponseError({ endpoint, status: answer.status, reason: 'mismatch' });
        return match;
      });
    },

    async listTokens(chainName, opts) {
      const endpoint = 'list';
      const path = `/v1/tokens/${segment(endpoint, chainName, 'chainName')}/full`;
      return call(endpoint, { method: 'GET', path }, opts, (answer) => {
        if (!answer.ok) throw errorForStatus(endpoint, answer, now());
        return parseSuccess(endpoint, answer, TokenListResponseSchema);
      });
    },

    async quote(request, opts) {
      const endpoint = 'quote';
      const checked = QuoteRequestSchema.safeParse(request);
      if (!checked.success)
        throw new InvalidRequestError({ endpoint, issues: formatIssues(checked.error.issues) });
      const body = JSON.stringify(checked.data); // the parsed copy: unknown request fields are not sent
      return call(endpoint, { method: 'POST', path: '/v1/quote', body }, opts, (answer) => {
        if (!answer.ok) throw errorForStatus(endpoint, answer, now());
        const json = successJson(endpoint, answer);
        const parsed = parseJson(endpoint, answer.status, json, QuoteResponseSchema);
        // Return the received object, not zod's copy (which reorders keys): /build gets it as received.
        // Safe because QuoteSchema has no transforms or defaults: validated input == output.
        const quote = (json as { data: Quote }).data;
        return { quote, timestamp: parsed.timestamp };
      });
    },

    async build(quote, opts) {
      const endpoint = 'build';
      const checked = QuoteSchema.safeParse(quote);
      if (!checked.success)
        throw new InvalidRequestError({ endpoint, issues: formatIssues(checked.error.issues) });
      let body: string;
      try {
        body = JSON.stringify(quote); // the caller's object, unknown fields and key order kept
      } catch {
        throw new InvalidRequestError({
          endpoint,
          issues: [{ path: '', message: 'quote is not serialisable' }],
        });
      }
      return call(endpoint, { method: 'POST', path: '/v1/build', body }, opts, (answer) => {
        if (!answer.ok) throw errorForStatus(endpoint, answer, now());
        const parsed = parseSuccess(endpoint, answer, BuildResponseSchema);
        return { build: parsed.data, timestamp: parsed.timestamp };
      });
    },
  };
}

/** What every call of one client shares. */
interface CallEnv {
  transport: Transport;
  clientPolicy: RetryPolicy | false;
  timeoutMs: number;
  sleep: SleepFn;
  random: () => number;
  now: () => number;
}

/** Runs attempts until one settles, retrying only ServiceUnavailableError within count and time budget. */
async function callWithRetries<T>(
  env: CallEnv,
  endpoint: ApiEndpoint,
  request: HttpRequest,
  opts: CallOptions | undefined,
  interpret: (answer: RawAnswer) => T,
): Promise<T> {
  const { transport, clientPolicy, timeoutMs, sleep, random, now } = env;
  const signal = opts?.signal;
  const policy = policyFor(clientPolicy, opts);
  const start = now();
  let waitedOutLimit = false;
  for (let retryIndex = 0; ; retryIndex++) {
    if (signal?.aborted) throw new RequestCancelledError({ endpoint });
    const remaining = policy ? policy.maxTotalMs - (now() - start) : timeoutMs;
    const attemptTimeout = Math.max(1, Math.min(timeoutMs, remaining));
    try {
      const answer = await exchange(transport, endpoint, request, attemptTimeout, signal);
      return interpret(answer);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        // Wait as told, once, within the bound and the call's budget; a 429 never loops.
        const seconds = error.retryAfterSeconds;
        const waitMs = (seconds ?? 0) * 1000;
        const fits = policy && now() - start + waitMs < policy.maxTotalMs;
        if (waitedOutLimit || seconds === undefined || seconds > MAX_RATE_LIMIT_WAIT_SECONDS || !fits)
          throw error;
        waitedOutLimit = true;
        opts?.onWait?.(seconds);
        await sleep(waitMs, signal);
        if (signal?.aborted) throw new RequestCancelledError({ endpoint });
        retryIndex -= 1; // the wait is not one of the retries for 5xx
        continue;
      }
      if (!(error instanceof ServiceUnavailableError) || !policy || retryIndex >= policy.attempts)
        throw error;
      const delay = backoffDelay(retryIndex, policy, random);
      if (now() - start + delay >= policy.maxTotalMs) throw error;
      await sleep(delay, signal);
      if (signal?.aborted) throw new RequestCancelledError({ endpoint });
    }
  }
}

function checkPolicy(policy: RetryPolicy): RetryPolicy {
  const { attempts, baseDelayMs, maxDelayMs, maxTotalMs } = policy;
  const ok =
    Number.isInteger(attempts) &&
    attempts >= 0 &&
    attempts <= 10 &&
    [baseDelayMs, maxDelayMs].every((v) => Number.isFinite(v) && v >= 0 && v <= MAX_TIMER_MS) &&
    Number.isFinite(maxTotalMs) &&
    maxTotalMs > 0;
  if (!ok) throw new ClientConfigError('retry', 'Invalid retry policy.');
  return { attempts, baseDelayMs, maxDelayMs, maxTotalMs };
}

function stripUndefined<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A call's retry policy: the client's, or the call's own overrides of it. */
function policyFor(clientPolicy: RetryPolicy | false, opts: CallOptions | undefined): RetryPolicy | false {
  if (opts?.retry === false) return false;
  if (opts?.retry === undefined) return clientPolicy;
  return checkPolicy({ ...(clientPolicy || DEFAULT_RETRY), ...stripUndefined(opts.retry) });
}
