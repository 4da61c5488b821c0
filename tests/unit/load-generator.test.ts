// The bench's raw-socket load generator against a real node:http server: it frames answers by
// Content-Length (a large body split over many reads, a bodiless 304), counts statuses it was not
// told to expect, sends each mix body in turn with never-repeated numbers, and reports its CPU.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad, UNIQUE_MARK } from '../../scripts/load-generator';

const BIG = Buffer.alloc(92_012, 7);
const seen: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (text: string) => {
      body += text;
    });
    request.on('end', () => {
      if (request.url === '/big') return response.end(BIG);
      if (request.url === '/not-modified') return response.writeHead(304).end();
      if (request.url === '/missing') return response.writeHead(404).end('{"no":1}');
      seen.push(body);
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the load generator', () => {
  it('reads a 92 kB body whole on every answer and counts its bytes', async () => {
    const run = await runLoad(base, { method: 'GET', path: '/big', headers: {} }, 2, 0.5);
    expect(run.requests).toBeGreaterThan(0);
    expect(run.errors + run.non2xx).toBe(0);
    expect(run.bodyBytes).toBe(run.requests * BIG.byteLength);
    expect(run.generatorCpu).toBeGreaterThan(0);
  });

  it('takes a bodiless 304 as answered when told to expect it, and a 404 as a failure', async () => {
    const revalidated = await runLoad(
      base,
      { method: 'GET', path: '/not-modified', headers: {}, okStatuses: [304] },
      1,
      0.3,
    );
    expect(revalidated.requests).toBeGreaterThan(0);
    expect(revalidated.non2xx + revalidated.errors).toBe(0);
    const missing = await runLoad(base, { method: 'GET', path: '/missing', headers: {} }, 1, 0.3);
    expect(missing.non2xx).toBe(missing.requests);
  });

  it('sends the bodies in turn, a new number wherever the mark is', async () => {
    seen.length = 0;
    const bodies = ['{"a":1}', `{"n":"${UNIQUE_MARK}"}`];
    const run = await runLoad(
      base,
      { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, bodies },
      1,
      0.3,
    );
    expect(run.errors + run.non2xx).toBe(0);
    expect(seen.length).toBe(run.requests);
    expect(seen.filter((body) => body === '{"a":1}').length).toBe(Math.ceil(run.requests / 2));
    const fresh = seen.filter((body) => body !== '{"a":1}');
    expect(fresh.every((body) => /^\{"n":"\d{9}"\}$/.test(body))).toBe(true);
    expect(new Set(fresh).size).toBe(fresh.length);
  });
});
