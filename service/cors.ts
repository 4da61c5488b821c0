// CORS for the extension's pages: the allowed origin echoed, `Retry-After` exposed (the extension
// reads how long a 429 asks it to wait), preflights answered. Hono's cors middleware reads `c.res`
// before the route runs and sets `Vary` with `c.header()` after it, and each of those makes Hono
// rebuild the route's finished response: @hono/node-server then turns it into a WHATWG Response and
// streams it (a copy of the body, a ReadableStream and a reader per request; for the 100 kB gzipped
// token list most of its CPU). This one only sets headers on the finished response, which
// @hono/node-server still writes from the bytes the route gave it.
// A route whose answer is prepared once (service/prepared-answer.ts: the token list) is sent with
// `send`: its headers already name Origin in Vary, so a request with no granted origin is answered
// with the prepared header object itself (no Headers built, copied or sorted per request), and the
// middleware leaves that answer alone.
import type { Context, MiddlewareHandler } from 'hono';
import type { PreparedAnswer } from './prepared-answer';

export interface CorsOptions {
  /** Origins granted CORS: the request's Origin is echoed when it matches. */
  allowedOrigin: RegExp;
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
}

export interface Cors {
  middleware: MiddlewareHandler;
  /** A prepared answer with this request's grant (a copy of its headers only when an origin is granted). */
  send(c: Context, answer: PreparedAnswer): Response;
  /** A prepared answer's headers for a request from `origin`: its own object unless an origin is granted. */
  preparedHeaders(answer: PreparedAnswer, origin: string | undefined): Readonly<Record<string, string>>;
  /**
   * A JSON answer's headers as the middleware leaves them, for an answer written by the server (a
   * quote served from the answer cache): one frozen object per grant, none built per request.
   */
  jsonHeaders(origin: string | undefined): Readonly<Record<string, string>>;
}

export function cors(options: CorsOptions): Cors {
  const methods = options.allowMethods.join(',');
  const allowHeaders = options.allowHeaders.join(',');
  const expose = options.exposeHeaders.join(',');
  const maxAge = String(options.maxAgeSeconds);
  /** Requests answered by `send`: their headers are complete. */
  const sent = new WeakSet<Context>();
  const granted = (origin: string | undefined): string | undefined =>
    origin !== undefined && options.allowedOrigin.test(origin) ? origin : undefined;
  const grantedOrigin = (c: Context): string | undefined => granted(c.req.header('origin'));
  const preparedHeaders = (answer: PreparedAnswer, origin: string | undefined) => {
    const grant = granted(origin);
    return grant
      ? { ...answer.headers, 'Access-Control-Allow-Origin': grant, 'Access-Control-Expose-Headers': expose }
      : answer.headers;
  };

  const middleware: MiddlewareHandler = async (c, next) => {
    const grant = grantedOrigin(c);
    if (c.req.method === 'OPTIONS') {
      const headers = new Headers({
        'Access-Control-Allow-Methods': methods,
        'Access-Control-Allow-Headers': allowHeaders,
        'Access-Control-Max-Age': maxAge,
        Vary: 'Origin, Access-Control-Request-Headers',
      });
      if (grant) {
        headers.set('Access-Control-Allow-Origin', grant);
        headers.set('Access-Control-Expose-Headers', expose);
      }
      return new Response(null, { status: 204, headers });
    }
    await next();
    if (sent.has(c)) return;
    // The route's answer depends on Origin, so caches must key on it.
    const headers = c.res.headers;
    headers.append('Vary', 'Origin');
    if (grant) {
      headers.set('Access-Control-Allow-Origin', grant);
      headers.set('Access-Control-Expose-Headers', expose);
    }
  };

  const send = (c: Context, answer: PreparedAnswer): Response => {
    sent.add(c);
    const headers = preparedHeaders(answer, c.req.header('origin'));
    return new Response(answer.body, { status: answer.status, headers });
  };

  const jsonUngranted = Object.freeze({ 'Content-Type': 'application/json', Vary: 'Origin' });
  const jsonGranted = new Map<string, Readonly<Record<string, string>>>();
  const jsonHeaders = (origin: string | undefined) => {
    const grant = granted(origin);
    if (grant === undefined) return jsonUngranted;
    let headers = jsonGranted.get(grant);
    if (!headers) {
      // Bounded: a client could send a new granted origin (any extension id) on every request.
      if (jsonGranted.size >= 64) jsonGranted.clear();
      headers = Object.freeze({
        ...jsonUngranted,
        'Access-Control-Allow-Origin': grant,
        'Access-Control-Expose-Headers': expose,
      });
      jsonGranted.set(grant, headers);
    }
    return headers;
  };

  return { middleware, send, preparedHeaders, jsonHeaders };
}
