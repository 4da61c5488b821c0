// The soak's open-loop load: requests leave at a fixed rate whatever the answers do (a closed loop
// would slow down with the service and hide queueing), spread over a weighted mix of routes. Runs
// in a worker thread, off the service's event loop; reports each minute's count, errors and
// latency percentiles. The body of a build is swapped in from outside as fresh quotes arrive.
import { Worker } from 'node:worker_threads';

export interface SoakRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** A mix sent in turn instead of `body`; `__UNIQUE__` in one becomes a never-repeated number. */
  bodies?: string[];
  /** Share of the requests (weights are normalised). */
  weight: number;
}

export interface SoakMinute {
  minute: number;
  requests: number;
  errors: number;
  /** Non-2xx answers by route and status, e.g. { "POST /v1/build 400": 2 }. */
  failures: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { base, routes, rate, seconds } = workerData;
const url = new URL(base);
// Idle sockets are dropped after 4 s, before the server's 5 s keep-alive timeout closes them: reusing
// one the server is closing at that instant resets the request (browsers retry those; we count them).
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4000 });
const total = routes.reduce((sum, r) => sum + r.weight, 0);
const bodies = new Map(routes.map((r) => [r.name, r.body]));
const turns = new Map(routes.map((r) => [r.name, 0]));
let fresh = 0;
function bodyOf(route) {
  if (!route.bodies || bodies.get(route.name) !== route.body) return bodies.get(route.name);
  const turn = turns.get(route.name);
  turns.set(route.name, turn + 1);
  const body = route.bodies[turn % route.bodies.length];
  return body.replace('__UNIQUE__', () => String(++fresh % 1e9).padStart(9, '0'));
}
parentPort.on('message', (m) => { if (m && m.type === 'body') bodies.set(m.name, m.body); });
let latencies = [], errors = 0, requests = 0, failures = {};
let minute = 1, inFlight = 0;
const started = performance.now();
function pick(i) {
  // A deterministic interleave by weight: route k gets weight_k / total of the requests.
  let x = ((i * 0.6180339887) % 1) * total;
  for (const r of routes) { if ((x -= r.weight) < 0) return r; }
  return routes[routes.length - 1];
}
function send(route) {
  const body = bodyOf(route);
  const headers = { 'accept-encoding': 'gzip', 'content-type': 'application/json' };
  if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
  const t0 = performance.now();
  inFlight++;
  const done = (ok, label) => {
    inFlight--;
    requests++;
    if (!ok) { errors++; failures[label] = (failures[label] || 0) + 1; }
    latencies.push(performance.now() - t0);
  };
  const req = http.request({ host: url.hostname, port: url.port, path: route.path, method: route.method, agent, headers }, (res) => {
    res.on('data', () => {});
    res.on('end', () => done(res.statusCode >= 200 && res.statusCode < 300, route.name + ' ' + res.statusCode));
    res.on('error', () => done(false, route.name + ' response error'));
  });
  req.setTimeout(10000, () => { req.destroy(new Error('timeout')); });
  req.on('error', (e) => done(false, route.name + ' ' + (e.message === 'timeout' ? 'timeout' : 'connection error ' + (e.code || e.message))));
  req.end(body);
}
function flush() {
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0;
  parentPort.postMessage({ type: 'minute', minute, requests, errors, failures, p50Ms: Math.round(at(0.5) * 100) / 100, p99Ms: Math.round(at(0.99) * 100) / 100 });
  latencies = []; errors = 0; requests = 0; failures = {}; minute++;
}
let sent = 0;
const interval = 1000 / rate;
function tick() {
  const now = performance.now() - started;
  if (now >= seconds * 1000) return finish();
  while (sent * interval <= now) send(pick(sent++));
  if (now >= minute * 60000) flush();
  setTimeout(tick, Math.max(1, Math.min(20, interval)));
}
function finish() {
  const wait = () => (inFlight > 0 ? setTimeout(wait, 20) : (flush(), agent.destroy(), parentPort.postMessage({ type: 'done' })));
  wait();
}
tick();
`;

export interface SoakLoad {
  /** Replaces the body a route sends (the build's quote, as it is refreshed). */
  setBody(name: string, body: string): void;
  /** Resolves with every minute once the run ends. */
  done: Promise<SoakMinute[]>;
}

export function startSoakLoad(
  base: string,
  routes: readonly SoakRoute[],
  rate: number,
  seconds: number,
  onMinute: (minute: SoakMinute) => void = () => {},
): SoakLoad {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { base, routes, rate, seconds } });
  const minutes: SoakMinute[] = [];
  const done = new Promise<SoakMinute[]>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { type: string } & SoakMinute) => {
      if (message.type === 'minute') {
        const { type: _type, ...minute } = message;
        minutes.push(minute);
        onMinute(minute);
      } else if (message.type === 'done') {
        void worker.terminate();
        resolve(minutes);
      }
    });
  });
  return { setBody: (name, body) => worker.postMessage({ type: 'body', name, body }), done };
}
