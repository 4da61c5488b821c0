// An answer made once and sent many times: its status, bytes and one frozen header object. Sent
// through `Cors.send` (service/cors.ts), nothing is built per request: @hono/node-server writes a
// plain header object as it is, where a route's multi-header answer otherwise becomes a Headers
// object, set, sorted and iterated again (measured at ~7 µs of the token list's ~37 µs per request).
// Every prepared answer varies by Origin (CORS grants differ by it), so its Vary names Origin. Its
// Content-Length is among its headers: the server writes it as is (service/prepared-routes.ts), and
// @hono/node-server, seeing it, writes the header object without copying it.

export interface PreparedAnswer {
  readonly status: 200 | 304;
  readonly body: Uint8Array<ArrayBuffer> | null;
  readonly headers: Readonly<Record<string, string>>;
}

/** `vary` names what else the answer depends on (Origin is added). */
export function prepareAnswer(
  status: 200 | 304,
  body: Uint8Array<ArrayBuffer> | null,
  headers: Readonly<Record<string, string>>,
  vary: readonly string[] = [],
): PreparedAnswer {
  return Object.freeze({
    status,
    body,
    headers: Object.freeze({
      ...headers,
      ...(body === null ? {} : { 'Content-Length': String(body.byteLength) }),
      Vary: [...vary, 'Origin'].join(', '),
    }),
  });
}
