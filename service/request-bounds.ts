// What any request may cost before a route runs: a bounded request target (414) and the client's
// rate limit (429 with Retry-After). Both answer with the JSON error body every other error uses.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES } from '../lib/api/schema';
import { ApiError } from './errors';
import type { ServicePolicy } from './policy';
import { clientKey, type LimitClass, RateLimiter, type TakeResult } from './rate-limit';

/** The node server's request object, where @hono/node-server puts it. */
interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/** Which bucket a path draws on; undefined for health checks, which are never limited. */
export function limitClassOf(method: string, path: string): LimitClass | undefined {
  if (path === '/v1/health') return undefined;
  if (method === 'POST' && path === '/v1/quote') return 'quote';
  if (method === 'POST' && path === '/v1/build') return 'build';
  return 'read';
}

/** The per-client rate limit, one for the app's middleware and the server's prepared answers. */
export interface ClientLimiter {
  /** The configured header naming the client's address (lowercase), if any. */
  readonly header: string | undefined;
  /**
   * Takes one request of `kind` from its client: the first address in the configured header when
   * it has one, else the TCP peer.
   */
  take(kind: LimitClass, forwarded: string | undefined, remoteAddress: string | undefined): TakeResult;
}

/** The service's client limiter (null when the policy sets no rate limits). */
export function clientLimiter(policy: ServicePolicy): ClientLimiter | null {
  if (!policy.rateLimits) return null;
  const limiter = new RateLimiter(policy.rateLimits);
  const header = policy.clientAddressHeader?.toLowerCase();
  return {
    header,
    take(kind, forwarded, remoteAddress) {
      const first = header === undefined ? undefined : forwarded?.split(',')[0]?.trim();
      return limiter.take(kind, clientKey(first || remoteAddress));
    },
  };
}

export function requestBounds(
  policy: ServicePolicy,
  fail: (c: Context, error: ApiError) => Response,
  limiter: ClientLimiter | null,
): MiddlewareHandler {
  return async (c, next) => {
    // Path and query as sent: what follows the origin (no URL parse per request).
    const url = c.req.url;
    const target = url.length - url.indexOf('/', url.indexOf('//') + 2);
    if (target > policy.maxUrlBytes) {
      return fail(
        c,
        new ApiError(
          414,
          ERROR_CODES.badRequest,
          `the request path and query are ${target} bytes; the limit is ${policy.maxUrlBytes}`,
        ),
      );
    }
    const kind = limiter ? limitClassOf(c.req.method, c.req.path) : undefined;
    if (limiter && kind) {
      const forwarded = limiter.header === undefined ? undefined : c.req.header(limiter.header);
      const peer = (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress;
      const taken = limiter.take(kind, forwarded, peer);
      if (!taken.ok) {
        c.header('Retry-After', String(taken.retryAfterSeconds));
        return fail(
          c,
          new ApiError(
            429,
            ERROR_CODES.rateLimited,
            `too many ${kind} requests from this client; retry in ${taken.retryAfterSeconds} s`,
          ),
        );
      }
    }
    await next();
  };
}

/**
 * The body bound (413) for routes that read a body. A declared Content-Length is checked from the
 * header alone: Hono's bodyLimit reads `c.req.raw.body` first, and on @hono/node-server that
 * builds a WHATWG Request with a web stream over the socket (and makes the later body read go
 * through it), the largest cost of a POST after the socket write. Node's parser reads exactly the
 * declared length. A body without one (chunked) is counted as it streams, by Hono's bodyLimit.
 */
export function bodyBound(
  maxBytes: number,
  fail: (c: Context, error: ApiError) => Response,
): MiddlewareHandler {
  const tooLarge = (c: Context) =>
    fail(c, new ApiError(413, ERROR_CODES.badRequest, `request body is larger than ${maxBytes} bytes`));
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(declared, 10) > maxBytes) return tooLarge(c);
      return next();
    }
    return streamed(c, next);
  };
}
