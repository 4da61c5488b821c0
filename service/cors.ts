// CORS for the extension's pages: the allowed origin echoed, `Retry-After` exposed (the extension
// reads how long a 429 asks it to wait), preflights answered. Hono's cors middleware reads `c.res`
// before the route runs and sets `Vary` with `c.header()` after it, and each of those makes Hono
// rebuild the route's finished response: @hono/node-server then turns it into a WHATWG Response and
// streams it (a copy of the body, a ReadableStream and a reader per request; for the 100 kB gzipped
// token list most of its CPU). This one only sets headers on the finished response, which
// @hono/node-server still writes from the bytes the route gave it.
import type { MiddlewareHandler } from 'hono';

export interface CorsOptions {
  /** Origins granted CORS: the request's Origin is echoed when it matches. */
  allowedOrigin: RegExp;
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
}

export function cors(options: CorsOptions): MiddlewareHandler {
  const methods = options.allowMethods.join(',');
  const allowHeaders = options.allowHeaders.join(',');
  const expose = options.exposeHeaders.join(',');
  const maxAge = String(options.maxAgeSeconds);
  return async (c, next) => {
    const origin = c.req.header('origin');
    const granted = origin !== undefined && options.allowedOrigin.test(origin) ? origin : undefined;
    if (c.req.method === 'OPTIONS') {
      const headers = new Headers({
        'Access-Control-Allow-Methods': methods,
        'Access-Control-Allow-Headers': allowHeaders,
        'Access-Control-Max-Age': maxAge,
        Vary: 'Origin, Access-Control-Request-Headers',
      });
      if (granted) {
        headers.set('Access-Control-Allow-Origin', granted);
        headers.set('Access-Control-Expose-Headers', expose);
      }
      return new Response(null, { status: 204, headers });
    }
    await next();
    // The route's answer depends on Origin, so caches must key on it.
    const headers = c.res.headers;
    headers.append('Vary', 'Origin');
    if (granted) {
      headers.set('Access-Control-Allow-Origin', granted);
      headers.set('Access-Control-Expose-Headers', expose);
    }
  };
}
