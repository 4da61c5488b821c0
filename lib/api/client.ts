// HTTP client of the Swap Routing Service (shared/spec/swap-routing-service.md).
// Runs in the background service worker: platform fetch + AbortController only.
// Every answer is parsed with the contract schemas; money stays in decimal strings here.
import { type core, type output, safeParse } from 'zod/mini';
import {
  type ApiEndpoint,
  BadRequestError,
  ClientConfigError,
  InvalidRequestError,
  InvalidResponseError,
  QuoteOutdatedError,
  RequestCancelledError,
  ServiceUnavailableError,
  SlippageError,
  type SwapApiError,
  type UnavailableCause,
  UnsupportedChainError,
  UnsupportedTokenError,
} from '@/lib/api/errors';
import {
  BuildResponseSchema,
  type BuildResult,
  ErrorBodySchema,
  ErrorCodeSchema,
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

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
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
/** Error bodies are only read for a code and a message: never keep more than this. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_SERVER_MESSAGE_CHARS = 500;
const MAX_ISSUES = 10;
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

  function policyFor(opts: CallOptions | undefined): RetryPolicy | false {
    if (opts?.retry === false) return false;
    if (opts?.retry === undefined) return clientPolicy;
    return checkPolicy({ ...(clientPolicy || DEFAULT_RETRY), ...stripUndefined(opts.retry) });
  }

  /** Runs attempts until one settles, retrying only ServiceUnavailableError within count and time budget. */
  async function call<T>(
    endpoint: ApiEndpoint,
    request: { method: 'GET' | 'POST'; path: string; body?: string },
    opts: CallOptions | undefined,
    interpret: (answer: RawAnswer) => T,
  ): Promise<T> {
    const signal = opts?.signal;
    const policy = policyFor(opts);
    const start = now();
    for (let retryIndex = 0; ; retryIndex++) {
      if (signal?.aborted) throw new RequestCancelledError({ endpoint });
      const remaining = policy ? policy.maxTotalMs - (now() - start) : timeoutMs;
      const attemptTimeout = Math.max(1, Math.min(timeoutMs, remaining));
      try {
        const answer = await exchange(endpoint, request, attemptTimeout, signal);
        return interpret(answer);
      } catch (error) {
        if (!(error instanceof ServiceUnavailableError) || !policy || retryIndex >= policy.attempts)
          throw error;
        const delay = backoffDelay(retryIndex, policy, random);
        if (now() - start + delay >= policy.maxTotalMs) throw error;
        await sleep(delay, signal);
        if (signal?.aborted) throw new RequestCancelledError({ endpoint });
      }
    }
  }

  /** One HTTP exchange under its own timeout, joined with the caller's signal. */
  async function exchange(
    endpoint: ApiEndpoint,
    request: { method: 'GET' | 'POST'; path: string; body?: string },
    attemptTimeout: number,
    signal: AbortSignal | undefined,
  ): Promise<RawAnswer> {
    const controller = new AbortController();
    let timedOut = false;
    const onCallerAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, attemptTimeout);
    // The caller's abort wins over a timeout that fired at the same time: they asked to stop.
    const failure = (underlying: unknown): SwapApiError => {
      if (signal?.aborted) return new RequestCancelledError({ endpoint });
      const cause: UnavailableCause = timedOut ? 'timeout' : 'network';
      return new ServiceUnavailableError({ endpoint, cause, underlying });
    };
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await doFetch(`${baseUrl}${request.path}`, {
          method: request.method,
          headers,
          body: request.body,
          signal: controller.signal,
          credentials: 'omit',
          // A redirect could send the request (and trust) to another origin: refuse it (SECURITY.md).
          redirect: 'error',
        });
      } catch (error) {
        throw failure(error);
      }
      if (response.ok) {
        try {
          const body = await readCapped(response, maxResponseBytes);
          return { status: response.status, ok: true, ...body };
        } catch (error) {
          throw failure(error);
        }
      }
      // An error body is a bonus: if it cannot be read (hangs, breaks), the status alone decides.
      let body: { bytes: Uint8Array; truncated: boolean } = { bytes: new Uint8Array(), truncated: false };
      try {
        body = await readCapped(response, MAX_ERROR_BODY_BYTES);
      } catch {
        if (signal?.aborted) throw new RequestCancelledError({ endpoint, status: response.status });
      }
      return { status: response.status, ok: false, ...body };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  function parseSuccess<S extends core.$ZodType>(
    endpoint: ApiEndpoint,
    answer: RawAnswer,
    schema: S,
  ): output<S> {
    return parseJson(endpoint, answer.status, successJson(endpoint, answer), schema);
  }

  function parseJson<S extends core.$ZodType>(
    endpoint: ApiEndpoint,
    status: number,
    json: unknown,
    schema: S,
  ): output<S> {
    const parsed = safeParse(schema, json);
    if (!parsed.success) {
      throw new InvalidResponseError({
        endpoint,
        status,
        reason: 'schema',
        issues: formatIssues(parsed.error.issues).map((i) => `${i.path}: ${i.message}`),
      });
    }
    return parsed.data;
  }

  return {
    baseUrl,

    async searchToken(chainName, address, opts) {
      const endpoint = 'search';
      const path = `/v1/tokens/${segment(endpoint, chainName, 'chainName')}/search/${segment(endpoint, address, 'address')}`;
      return call(endpoint, { method: 'GET', path }, opts, (answer) => {
        if (answer.status === 404) return null;
        if (!answer.ok) throw errorForStatus(endpoint, answer);
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
        if (!answer.ok) throw errorForStatus(endpoint, answer);
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
        if (!answer.ok) throw errorForStatus(endpoint, answer);
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
        if (!answer.ok) throw errorForStatus(endpoint, answer);
        const parsed = parseSuccess(endpoint, answer, BuildResponseSchema);
        return { build: parsed.data, timestamp: parsed.timestamp };
      });
    },
  };
}

interface RawAnswer {
  status: number;
  ok: boolean;
  bytes: Uint8Array;
  truncated: boolean;
}

/** Maps a non-2xx answer to its typed error; the meaning of a status depends on the endpoint. */
export function errorForStatus(
  endpoint: ApiEndpoint,
  answer: Pick<RawAnswer, 'status' | 'bytes'>,
): SwapApiError {
  const { status } = answer;
  const init = { endpoint, status, ...serverError(answer.bytes) };
  if (status >= 500) return new ServiceUnavailableError({ ...init, cause: 'http-5xx' });
  if (status < 400) return new InvalidResponseError({ ...init, reason: 'unexpected-status' });
  if (endpoint === 'quote') {
    if (status === 400) return new UnsupportedChainError(init);
    if (status === 404) return new UnsupportedTokenError(init);
    if (status === 406) return new SlippageError(init);
  }
  if (endpoint === 'build' && status === 400) return new QuoteOutdatedError(init);
  return new BadRequestError(init);
}

/** Code and message of an error body when it has them; any other body (HTML, garbage, none) gives nothing. */
function serverError(bytes: Uint8Array): { serverCode?: string; serverMessage?: string } {
  if (bytes.length === 0) return {};
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return {};
  }
  const strict = ErrorBodySchema.safeParse(json);
  const error = strict.success ? strict.data.error : lenientError(json);
  const result: { serverCode?: string; serverMessage?: string } = {};
  if (error?.code !== undefined && ErrorCodeSchema.safeParse(error.code).success)
    result.serverCode = error.code;
  if (error?.message !== undefined) result.serverMessage = error.message.slice(0, MAX_SERVER_MESSAGE_CHARS);
  return result;
}

// Same `error` object without the envelope's other fields (another service may omit the timestamp).
function lenientError(json: unknown): { code?: string; message?: string } | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const error = (json as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' ? message : undefined,
  };
}

function successJson(endpoint: ApiEndpoint, answer: RawAnswer): unknown {
  const base = { endpoint, status: answer.status };
  if (answer.truncated) throw new InvalidResponseError({ ...base, reason: 'too-large' });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(answer.bytes);
  } catch {
    throw new InvalidResponseError({ ...base, reason: 'not-json' });
  }
  if (text.trim() === '') throw new InvalidResponseError({ ...base, reason: 'empty' });
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidResponseError({ ...base, reason: 'not-json' });
  }
}

/** Reads at most `max` bytes, then stops the download: a huge or endless body cannot exhaust memory. */
async function readCapped(
  response: Response,
  max: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!response.body) return { bytes: new Uint8Array(), truncated: false };
  if (Number.isFinite(declared) && declared > max) {
    void response.body.cancel().catch(() => {});
    return { bytes: new Uint8Array(), truncated: true };
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > max) {
      chunks.push(value.subarray(0, max - total));
      total = max;
      truncated = true;
      void reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

/** One encoded path segment. Empty, `.` and `..` are refused: URL parsing would collapse them (even as %2E). */
function segment(endpoint: ApiEndpoint, value: string, name: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new InvalidRequestError({
      endpoint,
      issues: [{ path: name, message: 'not a valid path segment' }],
    });
  }
  return encodeURIComponent(value);
}

function formatIssues(issues: readonly core.$ZodIssue[]): { path: string; message: string }[] {
  return issues
    .slice(0, MAX_ISSUES)
    .map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
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
