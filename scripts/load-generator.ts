// A small closed-loop HTTP load generator for the service benchmarks: `connections` keep-alive
// sockets, each sending its next request as soon as the previous answer has fully arrived, for
// `seconds`. It runs in a worker thread, off the service's event loop. Bodies are counted, never
// decoded: autocannon appends every body chunk to a JS string, so a binary answer (the gzipped
// token list) costs the client a UTF-8 decode per chunk and the client, not the server, sets the
// pace. The same generator measures each route and its no-op baseline.
import { Worker } from 'node:worker_threads';

export interface LoadTarget {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * A mix of bodies, sent in turn (request i sends bodies[i % n]); `__UNIQUE__` in one is replaced
   * by a number no other request of the run uses, so that body is new every time. Overrides `body`.
   */
  bodies?: string[];
  /** Statuses that count as answered (default any 2xx; a revalidation expects 304). */
  okStatuses?: number[];
}

/** In a body of a mix: replaced by a number unique to the request (see LoadTarget.bodies). */
export const UNIQUE_MARK = '__UNIQUE__';

export interface LoadRun {
  connections: number;
  seconds: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  timeouts: number;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { base, target, connections, seconds, timeoutMs, uniqueStart } = workerData;
const okStatuses = target.okStatuses;
const url = new URL(target.path, base);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const latencies = [];
let errors = 0, non2xx = 0, timeouts = 0;
const started = performance.now();
const deadline = started + seconds * 1000;
const bodies = target.bodies ?? (target.body === undefined ? [] : [target.body]);
const unique = bodies.map((body) => body.includes('__UNIQUE__'));
let sent = 0;
let fresh = uniqueStart;
function nextBody() {
  if (bodies.length === 0) return undefined;
  const i = sent++ % bodies.length;
  return unique[i] ? bodies[i].replace('__UNIQUE__', String(++fresh % 1e9).padStart(9, '0')) : bodies[i];
}
function once() {
  return new Promise((resolve) => {
    const body = nextBody();
    const headers = { ...target.headers };
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    const t0 = performance.now();
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: target.method, agent, headers },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          const ok = okStatuses ? okStatuses.includes(res.statusCode) : res.statusCode >= 200 && res.statusCode <= 299;
          if (!ok) non2xx++;
          latencies.push(performance.now() - t0);
          resolve();
        });
        res.on('error', () => { errors++; resolve(); });
      },
    );
    req.setTimeout(timeoutMs, () => { timeouts++; errors++; req.destroy(); resolve(); });
    req.on('error', () => { errors++; resolve(); });
    req.end(body);
  });
}
async function loop() { while (performance.now() < deadline) await once(); }
Promise.all(Array.from({ length: connections }, loop)).then(() => {
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0;
  agent.destroy();
  parentPort.postMessage({ requests: latencies.length, elapsed, p50: at(0.5), p99: at(0.99), errors, non2xx, timeouts });
});
`;

/** Where the next run's never-repeated numbers start: runs of one process never reuse one. */
let nextUniqueStart = 0;

export function runLoad(
  base: string,
  target: LoadTarget,
  connections: number,
  seconds: number,
): Promise<LoadRun> {
  // A run sends at most a few hundred thousand requests; numbers wrap at 10^9 (9 digits).
  nextUniqueStart = (nextUniqueStart + 10_000_000) % 1e9;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { base, target, connections, seconds, timeoutMs: 10_000, uniqueStart: nextUniqueStart },
    });
    worker.once('error', reject);
    worker.once(
      'message',
      (m: {
        requests: number;
        elapsed: number;
        p50: number;
        p99: number;
        errors: number;
        non2xx: number;
        timeouts: number;
      }) => {
        void worker.terminate();
        resolve({
          connections,
          seconds: Math.round(m.elapsed * 100) / 100,
          requests: m.requests,
          p50Ms: Math.round(m.p50 * 100) / 100,
          p99Ms: Math.round(m.p99 * 100) / 100,
          errors: m.errors,
          non2xx: m.non2xx,
          timeouts: m.timeouts,
        });
      },
    );
  });
}
