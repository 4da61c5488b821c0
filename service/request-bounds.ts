// What any request may cost before a route runs: a bounded request target (414) and the client's
// rate limit (429 with Retry-After). Both answer with the JSON error body every other error uses.
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES } from '../lib/api/schema';
import { ApiError } from './errors';
import type { ServicePolicy } from './policy';
import { clientKey, type LimitClass, RateLimiter } from './rate-limit';

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

/** The per-client rate limit, one for the app's middleware and the server's early answers. */
export interface ClientLimiter {
  /**
   * Takes one request from its client's bucket for the method and path (health checks are never
   * limited): the client is the first address in the configured header when it has one, else the
   * TCP peer. A refusal takes nothing.
   */
  take(
    method: string,
    path: string,
    header: (name: string) => string | undefined,
    remoteAddress: string | undefined,
  ): LimitRefusal | undefined;
}

/** A refused request: its class and how long its client is asked to wait. */
export interface LimitRefusal {
  readonly kind: LimitClass;
  readonly retryAfterSeconds: number;
}

/** The service's client limiter (null when the policy sets no rate limits). */
export function clientLimiter(policy: ServicePolicy): ClientLimiter | null {
  if (!policy.rateLimits) return null;
  const limiter = new RateLimiter(policy.rateLimits);
  const forwardedHeader = policy.clientAddressHeader?.toLowerCase();
  return {
    take(method, path, header, remoteAddress) {
      const kind = limitClassOf(method, path);
      if (kind === undefined) return undefined;
      const forwarded = forwardedHeader === undefined ? undefined : header(forwardedHeader);
      const first = forwarded?.split(',')[0]?.trim();
      const taken = limiter.take(kind, clientKey(first || remoteAddress));
      return taken.ok ? undefined : { kind, retryAfterSeconds: taken.retryAfterSeconds };
    },
  };
}

/** A header of a node request as one text (Node gives a repeated Set-Cookie as a list; none of ours is one). */
export function nodeHeader(headers: IncomingHttpHeaders): (name: string) => string | undefined {
  return (name) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
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
    const peer = (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress;
    const refused = limiter?.take(c.req.method, c.req.path, (name) => c.req.header(name), peer);
    if (refused) {
      c.header('Retry-After', String(refused.retryAfterSeconds));
      return fail(
        c,
        new ApiError(
          429,
          ERROR_CODES.rateLimited,
          `too many ${refused.kind} requests from this client; retry in ${refused.retryAfterSeconds} s`,
        ),
      );
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
