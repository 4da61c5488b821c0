// Load run: the reference service on the devnet (loopback, as scripts/bench-service.ts starts it)
// under a closed-loop load generator (scripts/load-generator.ts). For each route the number of connections steps up (1, 2, 4, …) in short,
// time-bounded stages until throughput stops growing or a stage sees an error; the capacity is the
// fewest connections that reach 95% of the best error-free throughput (past that knee more
// connections only queue). A longer confirmation stage at that many connections gives the reported
// requests/s and p99, and must itself be error-free (no connection error, timeout or non-2xx);
// otherwise the next lower stage is confirmed instead. The no-op route of the same server, under
// the same stepping, is the baseline. The generator runs in a worker thread so it does not share
// the service's event loop. `benchLoad()` is wired into `npm run bench`; `tsx scripts/bench-load.ts`
// prints it alone.
import { pathToFileURL } from 'node:url';
import { startDevnet } from '../devnet/start';
import { startServiceCluster } from '../service/cluster';
import { startService } from '../service/server';
import { BENCH_POLICY, QUOTE_BODY } from './bench-service.ts';
import { runLoad } from './load-generator.ts';

export interface LoadStage {
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors (timeouts included) + non-2xx answers + body mismatches. */
  errors: number;
  non2xx: number;
  timeouts: number;
}

export interface RouteLoad {
  route: string;
  steps: LoadStage[];
  /** The confirmed stage at the measured capacity (errors: 0, or the run failed to find one). */
  capacity: LoadStage;
}

export interface LoadBenchResult {
  quote: RouteLoad;
  tokenList: RouteLoad;
  /** Baselines: the no-op route, POST with the quote's body and GET. */
  noopPost: RouteLoad;
  noopGet: RouteLoad;
  /** Baseline requests/s over the route's (how many times slower than the no-op route). */
  ratios: { quoteThroughput: number; tokenListThroughput: number; quoteP99: number; tokenListP99: number };
  /** Route capacity as a fraction of the no-op route's (the targets: quote >= 0.75, list >= 0.9). */
  fractions: { quote: number; tokenList: number };
  /** Quote capacity with the service as 1 and as 2 processes (node:cluster) on the same devnet. */
  workers: { workers: number; quote: RouteLoad }[];
}

export interface BenchLoadOptions {
  /** Seconds per stepping stage (default 3). */
  stepSeconds?: number;
  /** Seconds of the confirmation stage at capacity (default 10). */
  confirmSeconds?: number;
  /** Connection counts to step through (default 1, 2, 4, …, 128). */
  connections?: number[];
  log?: (line: string) => void;
}

interface Target {
  route: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/**
 * Every request carries the Accept-Encoding a browser (and so the extension's fetch) always sends:
 * the service answers the token list with bytes it gzipped once, as a browser would receive them.
 * The no-op baselines carry the same headers. Not sent: If-None-Match, so every list answer is the
 * full body (a first load), never a 304.
 */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' } as const;

const TARGETS = {
  noopPost: { route: 'POST /__noop', method: 'POST', path: '/__noop', body: QUOTE_BODY },
  quote: { route: 'POST /v1/quote', method: 'POST', path: '/v1/quote', body: QUOTE_BODY },
  noopGet: { route: 'GET /__noop', method: 'GET', path: '/__noop' },
  tokenList: { route: 'GET /v1/tokens/ethereum/full', method: 'GET', path: '/v1/tokens/ethereum/full' },
} satisfies Record<string, Target>;

export async function benchLoad(options: BenchLoadOptions = {}): Promise<LoadBenchResult> {
  const stepSeconds = options.stepSeconds ?? 3;
  const confirmSeconds = options.confirmSeconds ?? 10;
  const steps = options.connections ?? [1, 2, 4, 8, 16, 32, 64, 128];
  const log = options.log ?? (() => {});
  const devnet = await startDevnet({ ports: { ethereum: 0, base: 0 } });
  const service = await startService({
    manifest: devnet.manifest,
    port: 0,
    log: () => {},
    policy: BENCH_POLICY,
  });
  try {
    const measure = async (target: Target, url = service.url): Promise<RouteLoad> => {
      const run = (target: Target, connections: number, seconds: number) =>
        stage(url, target, connections, seconds);
      await run(target, 8, 1); // warm-up: JIT, sockets, the reserves cache for the current block
      const measured: LoadStage[] = [];
      let best = 0;
      let flat = 0;
      for (const connections of steps) {
        const result = await run(target, connections, stepSeconds);
        measured.push(result);
        log(`${target.route} ${summarize(result)}`);
        if (result.errors > 0) break;
        if (result.requestsPerSecond > best * 1.05) flat = 0;
        else if (++flat >= 2) break; // two stages without 5% more: saturated
        best = Math.max(best, result.requestsPerSecond);
      }
      const clean = measured.filter((result) => result.errors === 0);
      const top = Math.max(0, ...clean.map((result) => result.requestsPerSecond));
      // Candidates from the knee down: a confirmation that sees errors falls back to fewer connections.
      // If none is error-free the last one is reported with its errors (and the bench row fails).
      const knee = clean.findIndex((result) => result.requestsPerSecond >= 0.95 * top);
      let capacity = measured[0] as LoadStage;
      for (const candidate of clean.slice(0, knee + 1).reverse()) {
        capacity = await run(target, candidate.connections, confirmSeconds);
        log(`${target.route} confirm ${summarize(capacity)}`);
        if (capacity.errors === 0) break;
      }
      return { route: target.route, steps: measured, capacity };
    };
    const noopPost = await measure(TARGETS.noopPost);
    const quote = await measure(TARGETS.quote);
    const noopGet = await measure(TARGETS.noopGet);
    const tokenList = await measure(TARGETS.tokenList);
    const workers: LoadBenchResult['workers'] = [];
    for (const count of [1, 2]) {
      const cluster = await startServiceCluster({
        workers: count,
        manifest: devnet.manifest,
        port: 0,
        log: () => {},
        policy: BENCH_POLICY,
      });
      try {
        workers.push({ workers: count, quote: await measure(TARGETS.quote, cluster.url) });
      } finally {
        await cluster.close();
      }
    }
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return {
      workers,
      fractions: {
        quote: ratio(quote.capacity.requestsPerSecond, noopPost.capacity.requestsPerSecond),
        tokenList: ratio(tokenList.capacity.requestsPerSecond, noopGet.capacity.requestsPerSecond),
      },
      quote,
      tokenList,
      noopPost,
      noopGet,
      ratios: {
        quoteThroughput: ratio(noopPost.capacity.requestsPerSecond, quote.capacity.requestsPerSecond),
        tokenListThroughput: ratio(noopGet.capacity.requestsPerSecond, tokenList.capacity.requestsPerSecond),
        quoteP99: ratio(quote.capacity.p99Ms, noopPost.capacity.p99Ms),
        tokenListP99: ratio(tokenList.capacity.p99Ms, noopGet.capacity.p99Ms),
      },
    };
  } finally {
    await service.close();
    await devnet.stop();
  }
}

async function stage(base: string, target: Target, connections: number, seconds: number): Promise<LoadStage> {
  const headers: Record<string, string> = { ...BROWSER_HEADERS };
  if (target.body !== undefined) headers['content-type'] = 'application/json';
  const run = await runLoad(
    base,
    {
      method: target.method,
      path: target.path,
      headers,
      ...(target.body === undefined ? {} : { body: target.body }),
    },
    connections,
    seconds,
  );
  return {
    connections,
    seconds: run.seconds,
    requestsPerSecond: Math.round(run.requests / run.seconds),
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    errors: run.errors + run.non2xx,
    non2xx: run.non2xx,
    timeouts: run.timeouts,
  };
}

function summarize(result: LoadStage): string {
  return (
    `${result.connections} conns: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, ` +
    `p99 ${result.p99Ms} ms, ${result.errors} errors`
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchLoad({ log: (line) => console.log(line) })
    .then((result) =>
      console.log(
        JSON.stringify(
          {
            capacity: capacities(result),
            ratios: result.ratios,
            fractions: result.fractions,
            workers: result.workers.map((w) => ({ workers: w.workers, capacity: w.quote.capacity })),
          },
          null,
          2,
        ),
      ),
    )
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}

function capacities(result: LoadBenchResult) {
  return Object.fromEntries(
    (['quote', 'tokenList', 'noopPost', 'noopGet'] as const).map((key) => [key, result[key].capacity]),
  );
}
