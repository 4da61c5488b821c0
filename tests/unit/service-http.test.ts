// The service's own CORS and body bound keep a request cheap on @hono/node-server: the route's
// response leaves as the object the route made (Hono's cors rebuilt it, which made the server copy
// and stream its body), and a body with a declared length is bounded without touching `raw.body`
// (Hono's bodyLimit reads it, which builds a WHATWG Request and a web stream per request).
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { cors } from '../../service/cors';
import type { ApiError } from '../../service/errors';
import { prepareAnswer } from '../../service/prepared-answer';
import { bodyBound } from '../../service/request-bounds';

const ORIGIN = 'chrome-extension://abcdefghijklmnop';

const PREPARED = prepareAnswer(
  200,
  new Uint8Array([4, 5]),
  { 'Content-Type': 'application/json', ETag: '"e"' },
  ['Accept-Encoding'],
);

function corsApp(made: Response[]): Hono {
  const app = new Hono();
  const policy = cors({
    allowedOrigin: /^chrome-extension:\/\/[a-z]+$/,
    allowMethods: ['GET', 'POST'],
    allowHeaders: ['Content-Type'],
    exposeHeaders: ['Retry-After'],
    maxAgeSeconds: 600,
  });
  app.use('*', policy.middleware);
  app.get('/bytes', (c) => {
    const response = c.body(new Uint8Array([1, 2, 3]), 200, { Vary: 'Accept-Encoding' });
    made.push(response);
    return response;
  });
  app.get('/prepared', (c) => {
    const response = policy.send(c, PREPARED);
    made.push(response);
    return response;
  });
  return app;
}

describe('cors', () => {
  it('answers with the response the route made, its headers added', async () => {
    const made: Response[] = [];
    const response = await corsApp(made).request('/bytes', { headers: { Origin: ORIGIN } });
    expect(response).toBe(made[0]);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('access-control-expose-headers')).toBe('Retry-After');
    expect(response.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('sends a prepared answer with its own header object, a copy only to add a grant', async () => {
    expect(PREPARED.headers.Vary).toBe('Accept-Encoding, Origin');
    const made: Response[] = [];
    const app = corsApp(made);
    const plain = await app.request('/prepared');
    expect(plain).toBe(made[0]);
    expect(plain.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(plain.headers.get('etag')).toBe('"e"');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect([...new Uint8Array(await plain.arrayBuffer())]).toEqual([4, 5]);
    const granted = await app.request('/prepared', { headers: { Origin: ORIGIN } });
    expect(granted.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(granted.headers.get('access-control-expose-headers')).toBe('Retry-After');
    // The middleware leaves a sent answer alone: Origin named once, the prepared object untouched.
    expect(granted.headers.get('vary')).toBe('Accept-Encoding, Origin');
    expect(PREPARED.headers).not.toHaveProperty('Access-Control-Allow-Origin');
    const refused = await app.request('/prepared', { headers: { Origin: 'https://evil.example' } });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('grants no other origin, and answers preflights', async () => {
    const app = corsApp([]);
    const other = await app.request('/bytes', { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toBe('Accept-Encoding, Origin');
    const preflight = await app.request('/bytes', {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(preflight.headers.get('access-control-max-age')).toBe('600');
  });
});

describe('bodyBound', () => {
  const app = new Hono();
  const fail = (c: Parameters<Parameters<Hono['onError']>[0]>[1], error: ApiError) =>
    c.json({ message: error.message }, error.status);
  app.post('/echo', bodyBound(16, fail), async (c) => c.text(await c.req.text()));

  /** A request whose `body` stream must not be touched (as @hono/node-server's would be built). */
  function untouchedBody(text: string): Request {
    const request = new Request('http://service/echo', {
      method: 'POST',
      body: text,
      headers: { 'Content-Length': String(new TextEncoder().encode(text).length) },
    });
    return new Proxy(request, {
      get(target, key) {
        if (key === 'body') throw new Error('raw.body was read');
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  it('bounds a declared length from the header alone', async () => {
    const ok = await app.fetch(untouchedBody('{"a":1}'));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('{"a":1}');
    const big = await app.fetch(untouchedBody('x'.repeat(17)));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: 'request body is larger than 16 bytes' });
  });

  it('counts a body without a length as it streams', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(8)));
        controller.close();
      },
    });
    const response = await app.request('/echo', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });
});
