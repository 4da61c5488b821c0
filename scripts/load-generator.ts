// A small closed-loop HTTP load generator for the service benchmarks: `connections` keep-alive
// sockets, each sending its next request as soon as the previous answer has fully arrived, for
// `seconds`. It runs in its own process (pinned to its own core when asked: see `cpu`), so the
// service's process has the other core to itself. It speaks HTTP/1.1 over raw `net` sockets:
// requests are prepared bytes, and of an answer it parses only the status line and Content-Length,
// then counts the body's bytes without copying or decoding them. node:http's client (the previous
// generator) cost about as much CPU per request as the server did, so a no-op baseline measured
// the client as much as the service. The same generator measures each route and its baseline, and
// reports its own CPU so a run can say which side set the pace.
import { spawn } from 'node:child_process';

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
  /** Connection errors and timeouts (and answers the generator cannot frame: no Content-Length). */
  errors: number;
  non2xx: number;
  timeouts: number;
  /** Body bytes received over the run. */
  bodyBytes: number;
  /** The generator process's CPU over the run, in cores (1 = one core busy the whole time). */
  generatorCpu: number;
}

export interface LoadOptions {
  /** Run the generator on this CPU only (`taskset -c`); default: wherever the OS puts it. */
  cpu?: number;
  timeoutMs?: number;
}

const GENERATOR_SOURCE = `
const net = require('node:net');
const { base, target, connections, seconds, timeoutMs, uniqueStart } = JSON.parse(process.argv[1]);
const url = new URL(target.path, base);
const okStatuses = target.okStatuses;
const headerLines = Object.entries({ host: url.host, ...target.headers })
  .map(([name, value]) => name + ': ' + value + '\\r\\n').join('');
const start = target.method + ' ' + url.pathname + url.search + ' HTTP/1.1\\r\\n' + headerLines;
const requestText = (body) => body === undefined ? start + '\\r\\n'
  : start + 'content-length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body;
const bodies = target.bodies ?? (target.body === undefined ? [undefined] : [target.body]);
// Requests whose body never changes are encoded once; new-every-time ones per request.
const prepared = bodies.map((body) => body !== undefined && body.includes('__UNIQUE__') ? null : Buffer.from(requestText(body)));
let sent = 0;
let fresh = uniqueStart;
function nextRequest() {
  const i = sent++ % bodies.length;
  return prepared[i] ?? requestText(bodies[i].replace('__UNIQUE__', String(++fresh % 1e9).padStart(9, '0')));
}
const latencies = [];
let errors = 0, non2xx = 0, timeouts = 0, bodyBytes = 0;
const cpuStart = process.cpuUsage();
const started = performance.now();
const deadline = started + seconds * 1000;
const CRLF2 = Buffer.from('\\r\\n\\r\\n');

function connection() {
  return new Promise((resolve) => {
    let pending = null; // header bytes received so far
    let remaining = -1; // body bytes still to come; -1 while reading a header
    let status = 0;
    let t0 = 0;
    let finished = false;
    const socket = net.connect({ host: url.hostname.replace(/^\\[|\\]$/g, ''), port: Number(url.port) });
    socket.setNoDelay(true);
    socket.setTimeout(timeoutMs);
    const stop = () => { if (!finished) { finished = true; socket.destroy(); resolve(); } };
    const send = () => {
      if (performance.now() >= deadline) return stop();
      t0 = performance.now();
      socket.write(nextRequest());
    };
    const answered = () => {
      const ok = okStatuses ? okStatuses.includes(status) : status >= 200 && status <= 299;
      if (!ok) non2xx++;
      latencies.push(performance.now() - t0);
      remaining = -1;
      send();
    };
    socket.on('connect', send);
    socket.on('timeout', () => { timeouts++; errors++; stop(); });
    socket.on('error', () => { errors++; stop(); });
    // The service closing a connection mid-run is an error (keep-alive is what is measured).
    socket.on('close', () => { if (!finished && performance.now() < deadline) errors++; stop(); });
    socket.on('data', (chunk) => {
      let data = chunk;
      let offset = 0;
      while (offset < data.length && !finished) {
        if (remaining < 0) {
          if (pending) { data = Buffer.concat([pending, data.subarray(offset)]); offset = 0; pending = null; }
          const end = data.indexOf(CRLF2, offset);
          if (end < 0) { pending = Buffer.from(data.subarray(offset)); return; }
          const head = data.latin1Slice(offset, end);
          status = Number(head.slice(9, 12));
          const length = /\\r\\ncontent-length: *(\\d+)/i.exec(head);
          offset = end + 4;
          if (status === 304 || status === 204) remaining = 0;
          else if (length) remaining = Number(length[1]);
          else { errors++; return stop(); } // chunked or unframed: not what the service sends
          if (remaining === 0) { answered(); continue; }
        }
        const take = Math.min(remaining, data.length - offset);
        remaining -= take;
        bodyBytes += take;
        offset += take;
        if (remaining === 0) answered();
      }
    });
  });
}

Promise.all(Array.from({ length: connections }, connection)).then(() => {
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0;
  process.stdout.write(JSON.stringify({
    requests: latencies.length, elapsed, p50: at(0.5), p99: at(0.99), errors, non2xx, timeouts, bodyBytes,
    cpu: (cpu.user + cpu.system) / 1e6 / elapsed,
  }));
});
`;

/** Where the next run's never-repeated numbers start: runs of one process never reuse one. */
let nextUniqueStart = 0;

interface GeneratorAnswer {
  requests: number;
  elapsed: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  bodyBytes: number;
  cpu: number;
}

export function runLoad(
  base: string,
  target: LoadTarget,
  connections: number,
  seconds: number,
  options: LoadOptions = {},
): Promise<LoadRun> {
  // A run sends at most a few hundred thousand requests; numbers wrap at 10^9 (9 digits).
  nextUniqueStart = (nextUniqueStart + 10_000_000) % 1e9;
  const job = JSON.stringify({
    base,
    target,
    connections,
    seconds,
    timeoutMs: options.timeoutMs ?? 10_000,
    uniqueStart: nextUniqueStart,
  });
  const node = [process.execPath, '-e', GENERATOR_SOURCE, job];
  const [command, ...args] =
    options.cpu === undefined ? node : ['taskset', '-c', String(options.cpu), ...node];
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      err += text;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}: ${err.trim()}`));
      const m = JSON.parse(out) as GeneratorAnswer;
      const round = (n: number) => Math.round(n * 100) / 100;
      resolve({
        connections,
        seconds: round(m.elapsed),
        requests: m.requests,
        p50Ms: round(m.p50),
        p99Ms: round(m.p99),
        errors: m.errors,
        non2xx: m.non2xx,
        timeouts: m.timeouts,
        bodyBytes: m.bodyBytes,
        generatorCpu: round(m.cpu),
      });
    });
  });
}
