// The HTTP side of the Swap Routing Service client (lib/api/client.ts): one exchange under its own
// timeout, bodies read with a size cap, error bodies read leniently, statuses mapped to typed errors.
import { type core, type output, safeParse } from 'zod/mini';
import {
  type ApiEndpoint,
  BadRequestError,
  InvalidRequestError,
  InvalidResponseError,
  QuoteOutdatedError,
  RateLimitedError,
  RequestCancelledError,
  ServiceUnavailableError,
  SlippageError,
  type SwapApiError,
  type UnavailableCause,
  UnsupportedChainError,
  UnsupportedTokenError,
} from '@/lib/api/errors';
import { ErrorBodySchema, ErrorCodeSchema } from '@/lib/api/schema';

const MAX_ISSUES = 10;
const MAX_SERVER_MESSAGE_CHARS = 500;
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
/** What one exchange needs from the client. */
export interface Transport {
  baseUrl: string;
  doFetch: FetchLike;
  maxResponseBytes: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** One HTTP exchange under its own timeout, joined with the caller's signal. */
export async function exchange(
  transport: Transport,
  endpoint: ApiEndpoint,
  request: HttpRequest,
  attemptTimeout: number,
  signal: AbortSignal | undefined,
): Promise<RawAnswer> {
  const { baseUrl, doFetch, maxResponseBytes } = transport;
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
        // A redirect could send the request (and trust) to another origin: never followed
        // (SECURITY.md). 'manual' rather than 'error' so the user is told that, not "cannot reach".
        redirect: 'manual',
      });
    } catch (error) {
      throw failure(error);
    }
    if (isRedirect(response)) {
      await response.body?.cancel().catch(() => undefined);
      throw new InvalidResponseError({ endpoint, status: response.status, reason: 'redirect' });
    }
    const retryAfter = response.headers.get('retry-after');
    if (response.ok) {
      try {
        const body = await readCapped(response, maxResponseBytes);
        return { status: response.status, ok: true, retryAfter, ...body };
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
    return { status: response.status, ok: false, retryAfter, ...body };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A browser hides a manual redirect as an opaque response (status 0); Node shows the 3xx itself. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || REDIRECT_STATUSES.has(response.status);
}

export function parseJson<S extends core.$ZodType>(
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

export interface RawAnswer {
  status: number;
  ok: boolean;
  /** The Retry-After header as sent, if any. */
  retryAfter?: string | null;
  bytes: Uint8Array;
  truncated: boolean;
}

/** Maps a non-2xx answer to its typed error; the meaning of a status depends on the endpoint. */
export function errorForStatus(
  endpoint: ApiEndpoint,
  answer: Pick<RawAnswer, 'status' | 'bytes' | 'retryAfter'>,
  nowMs: number = Date.now(),
): SwapApiError {
  const { status } = answer;
  const init = { endpoint, status, ...serverError(answer.bytes) };
  if (status >= 500) return new ServiceUnavailableError({ ...init, cause: 'http-5xx' });
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(answer.retryAfter, nowMs);
    return new RateLimitedError(retryAfterSeconds === undefined ? init : { ...init, retryAfterSeconds });
  }
  if (status < 400) return new InvalidResponseError({ ...init, reason: 'unexpected-status' });
  if (endpoint === 'quote') {
    if (status === 400) return new UnsupportedChainError(init);
    if (status === 404) return new UnsupportedTokenError(init);
    if (status === 406) return new SlippageError(init);
  }
  if (endpoint === 'build' && status === 400) return new QuoteOutdatedError(init);
  return new BadRequestError(init);
}

/** Longest Retry-After taken at its word (a day); anything longer reads as no usable answer. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/**
 * Retry-After (RFC 9110 10.2.3) as whole seconds from now: delta-seconds or an HTTP date. Missing,
 * malformed or absurd values give undefined: the client then does not wait on the service's word.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  let seconds: number;
  if (/^\d{1,9}$/.test(text)) seconds = Number(text);
  else {
    const at = Date.parse(text);
    if (!/[A-Za-z]/.test(text) || Number.isNaN(at)) return undefined;
    seconds = Math.max(0, Math.ceil((at - nowMs) / 1000));
  }
  return seconds <= MAX_RETRY_AFTER_SECONDS ? seconds : undefined;
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

export function successJson(endpoint: ApiEndpoint, answer: RawAnswer): unknown {
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
export function segment(endpoint: ApiEndpoint, value: string, name: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new InvalidRequestError({
      endpoint,
      issues: [{ path: name, message: 'not a valid path segment' }],
    });
  }
  return encodeURIComponent(value);
}

export function formatIssues(issues: readonly core.$ZodIssue[]): { path: string; message: string }[] {
  return issues
    .slice(0, MAX_ISSUES)
    .map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}
