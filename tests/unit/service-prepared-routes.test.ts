// The token list (and the bench's sized no-op) answered by the server before the app
// (service/prepared-routes.ts): the same bytes, status and headers the app gives the same request,
// the same rate limit bucket, and every request it does not own (HEAD, a query, an unknown chain,
// another method) still the app's. The app's answer to the same request is read by adding a query
// string to the path (the app ignores it; the server's prepared paths are exact).
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../service/rate-limit';
import { type RunningService, startService } from '../../service/server';
import { fakeReader } from '../support/fake-chain-reader';
import { type HttpAnswer, readAnswer } from '../support/http-answer';
import { ethereumManifest } from '../support/service-manifest';

const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const LIST = '/v1/tokens/ethereum/full';

/** A request as sent, the answer as received (no decoding, no connection reuse). */
function send(base: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) =>
      readAnswer(res).then(resolve, reject),
    );
    req.on('error', reject);
    req.end();
  });
}

let service: RunningService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(policy: Parameters<typeof startService>[0]['policy'] = {}): Promise<RunningService> {
  service = await startService({
    manifest: ethereumManifest(),
    readers: { ethereum: fakeReader({ head: 1n }) },
    port: 0,
    log: () => {},
    policy,
  });
  return service;
}

describe('prepared answers written by the server', () => {
  it('are the app answers to the same requests, byte for byte and header for header', async () => {
    const { url, preparedAnswers } = await start();
    // Brotli is made once in the background on the first ask: wait until it is served.
    for (let i = 0; i < 500; i++) {
      const first = await send(url, LIST, { 'accept-encoding': 'br' });
      if (first.headers['content-encoding'] === 'br') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const etag = (await send(url, LIST)).headers.etag ?? '';
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const cases: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'gzip' },
      { 'accept-encoding': 'gzip, deflate, br, zstd' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'if-none-match': etag },
      { 'if-none-match': `W/${etag}`, origin: EXTENSION },
      { 'if-none-match': '"another"', 'accept-encoding': 'br' },
      { origin: EXTENSION, 'accept-encoding': 'br' },
      { origin: 'https://evil.example', 'accept-encoding': 'gzip' },
    ];
    for (const headers of cases) {
      const before = preparedAnswers?.() ?? 0;
      const prepared = await send(url, LIST, headers);
      expect(preparedAnswers?.(), JSON.stringify(headers)).toBe(before + 1);
      const fromApp = await send(url, `${LIST}?from=app`, headers);
      expect(preparedAnswers?.()).toBe(before + 1);
      expect(prepared, JSON.stringify(headers)).toEqual(fromApp);
    }
    const granted = await send(url, LIST, { origin: EXTENSION });
    expect(granted.headers['access-control-allow-origin']).toBe(EXTENSION);
    expect(granted.headers.vary).toBe('Accept-Encoding, Origin');
    expect(granted.headers['content-length']).toBe(String(granted.body.length));
    expect((await send(url, LIST, { origin: 'https://evil.example' })).headers).not.toHaveProperty(
      'access-control-allow-origin',
    );
    expect((await send(url, LIST, { 'if-none-match': etag })).status).toBe(304);

    const sized = await send(url, '/__noop/bytes/1000');
    expect(sized.status).toBe(200);
    expect(sized.body.equals(Buffer.alloc(1000, 0x20))).toBe(true);
    expect(sized).toEqual(await send(url, '/__noop/bytes/1000?from=app'));
  });

  it('leave to the app every request they do not own', async () => {
    const { url, preparedAnswers } = await start();
    const head = await send(url, LIST, { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const post = await send(url, LIST, {}, 'POST');
    expect(post.status).toBe(405);
    expect(JSON.parse(post.body.toString()).error.code).toBeTypeOf('string');
    const unknown = await send(url, '/v1/tokens/nowhere/full');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body.toString()).error.message).toContain('unknown chain "nowhere"');
    expect((await send(url, '/v1/tokens/Ethereum/full')).status).toBe(400);
    expect((await send(url, `${LIST}/`)).status).toBe(404);
    expect((await send(url, '/__noop/bytes/2000000')).status).toBe(400);
    expect(preparedAnswers?.()).toBe(0);
  });

  it('draw on the client bucket the app draws on, and a refusal is the app 429', async () => {
    const { url, preparedAnswers } = await start({
      rateLimits: { ...DEFAULT_RATE_LIMITS, read: { burst: 3, perSecond: 0.001 } },
    });
    // Three reads in all, whichever side answers them.
    expect(
      (await send(url, '/v1/tokens/ethereum/search/0x0000000000000000000000000000000000000001')).status,
    ).toBe(404);
    expect((await send(url, LIST)).status).toBe(200);
    expect((await send(url, `${LIST}?from=app`)).status).toBe(200);
    const refused = await send(url, LIST, { origin: EXTENSION });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['access-control-allow-origin']).toBe(EXTENSION);
    expect(JSON.parse(refused.body.toString()).error.code).toBe('RATE_LIMITED');
    expect(preparedAnswers?.()).toBe(1);
  });
});
