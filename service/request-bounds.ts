// What any request may cost before a route runs: a bounded request target (414) and the client's
// rate limit (429 with Retry-After). Both answer with the JSON error body every other error uses.
import type { Context, MiddlewareHandler } from 'hono';
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

export function requestBounds(
  policy: ServicePolicy,
  fail: (c: Context, error: ApiError) => Response,
): MiddlewareHandler {
  const limiter = policy.rateLimits ? new RateLimiter(policy.rateLimits) : null;
  const header = policy.clientAddressHeader?.toLowerCase();
  const clientOf = (c: Context): string => {
    if (header) {
      const forwarded = c.req.header(header)?.split(',')[0]?.trim();
      if (forwarded) return clientKey(forwarded);
    }
    return clientKey((c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress);
  };
  return async (c, next) => {
    // Path and query as sent (the URL parser would not shorten them).
    const target = c.req.url.length - new URL(c.req.url).origin.length;
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
      const taken = limiter.take(kind, clientOf(c));
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
