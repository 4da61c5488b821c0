// Load run: the reference service on the devnet (loopback, as scripts/bench-service.ts starts it)
// under a closed-loop load generator (scripts/load-generator.ts). Each route is stepped through the
// connection counts to its knee and confirmed there in rounds interleaved with its baseline, the
// no-op route of the same server (scripts/bench-load-capacity.ts says how and why); a confirmation
// must be error-free (no connection error, timeout or non-2xx).
// Which side sets the pace: the generator is its own process (raw sockets, scripts/load-generator.ts)
// and, on a machine with 2 or more CPUs and `taskset`, runs pinned to CPU 1 while this process (the
// service: its event loop, GC and libuv threads) is pinned to CPU 0, for every route and baseline
// alike. Each stage records the service's CPU (this process, in cores), its event loop's
// utilization and the generator's CPU. `benchLoad()` is wired into `npm run bench`;
// `tsx scripts/bench-load.ts` prints it alone.
import { pathToFileURL } from 'node:url';
import { startDevnet } from '../devnet/start';
import { startServiceCluster } from '../service/cluster';
import type { ServiceManifest } from '../service/manifest';
import { QuoteAnswerCache } from '../service/quote-cache';
import { BENCH_POLICY, QUOTE_BODY, startBenchService } from './bench-service.ts';

export type { RouteLoad } from './bench-load-capacity.ts';
export type { LoadStage } from './bench-load-stage.ts';

import {
  capacityFraction,
  measureGroup,
  type RouteLoad,
  roundFractions,
  type Stepping,
} from './bench-load-capacity.ts';
import { BROWSER_HEADERS, pinService, type Target } from './bench-load-stage.ts';
import { quoteMixes } from './quote-mix.ts';

export interface LoadBenchResult {
  /** The mix: repeated requests (answered from the per-block cache) and 1 in 5 new ones. */
  quote: RouteLoad;
  /** Every request a new amount: a route search each time. */
  quoteAllMiss: RouteLoad;
  /** Full answers, as on a first load (the browser's Accept-Encoding, no If-None-Match). */
  tokenList: RouteLoad;
  /** A returning client's revalidation: If-None-Match with the list's ETag, answered 304. */
  tokenListRevalidated: RouteLoad;
  /** Baselines: the no-op route, POST with the quote's body and GET. */
  noopPost: RouteLoad;
  noopGet: RouteLoad;
  /**
   * Not a baseline of any budget: the no-op GET answering prepared bytes as many as the token
   * list's brotli (the same transfer, no route work): what moving the list's bytes alone costs.
   */
  noopGetListSized: RouteLoad;
  /** The CPUs the service and the generator were pinned to (undefined: not pinned). */
  pinned?: { service: number; generator: number };
  /**
   * The route's p99 over its baseline's, at the median round of each. (Throughput is in `fractions`:
   * paired round by round, not median against median.)
   */
  ratios: { quoteP99: number; tokenListP99: number };
  /** Route capacity as a fraction of the no-op route's (the targets: quote >= 0.75, list >= 0.9). */
  fractions: {
    quote: number;
    quoteAllMiss: number;
    tokenList: number;
    tokenListRevalidated: number;
    /** The token list over the list-sized no-op GET (beside the budget's figure, not instead). */
    tokenListOverSizedNoop: number;
  };
  /** Each confirmation round's own fraction (the figures above are their medians). */
  fractionsByRound: { quote: number[]; quoteAllMiss: number[]; tokenList: number[] };
  /** Quote capacity with the service as 1 and as 2 processes (node:cluster) on the same devnet. */
  workers: { workers: number; quote: RouteLoad }[];
}

export interface BenchLoadOptions {
  /** Seconds per stepping stage (default 3). */
  stepSeconds?: number;
  /** Seconds of each confirmation stage at capacity (default 5). */
  confirmSeconds?: number;
  /** Confirmation rounds, each route beside its baseline (default 3). */
  rounds?: number;
  /** Connection counts to step through (default 1, 2, 4, …, 128). */
  connections?: number[];
  /** Service processes to measure the quote mix with (default 1 and 2; [] skips it). */
  workerCounts?: number[];
  /** Pin the service and the generator to a CPU each (default: when there are 2 CPUs and taskset). */
  pin?: boolean;
  log?: (line: string) => void;
}

const LIST_PATH = '/v1/tokens/ethereum/full';
const TARGETS = {
  noopPost: { route: 'POST /__noop', method: 'POST', path: '/__noop', body: QUOTE_BODY },
  noopGet: { route: 'GET /__noop', method: 'GET', path: '/__noop' },
  tokenList: { route: `GET ${LIST_PATH}`, method: 'GET', path: LIST_PATH },
} satisfies Record<string, Target>;

/** Blocks as on Ethereum (a 12 s slot): the answer cache starts again at each. */
const BLOCK_SECONDS = 12;

export async function benchLoad(options: BenchLoadOptions = {}): Promise<LoadBenchResult> {
  const quoteCache = new QuoteAnswerCache();
  // The devnet first: anvil is another process, and started after the pinning it would share CPU 0.
  const devnet = await startDevnet({ ports: { ethereum: 0, base: 0 }, blockTime: BLOCK_SECONDS });
  const pinned = options.pin === false ? undefined : pinService();
  const stepping: Stepping = {
    steps: options.connections ?? [1, 2, 4, 8, 16, 32, 64, 128],
    stepSeconds: options.stepSeconds ?? 3,
    confirmSeconds: options.confirmSeconds ?? 5,
    rounds: options.rounds ?? 3,
    log: options.log ?? (() => {}),
    quoteCache,
    ...(pinned ? { generatorCpu: pinned.pins.generator } : {}),
  };
  try {
    const service = await startBenchService(devnet.manifest, quoteCache);
    try {
      const listed = await brotliReady(service.url);
      const targets = mixTargets(devnet.manifest, listed);
      // Each budget's route beside its baseline (scripts/bench-load-capacity.ts).
      const [noopPost, quote, quoteMissed] = (await measureGroup(
        service.url,
        [TARGETS.noopPost, targets.quoteMix, targets.quoteAllMiss],
        stepping,
      )) as [RouteLoad, RouteLoad, RouteLoad];
      const [noopGet, tokenList, tokenListRevalidated, noopGetListSized] = (await measureGroup(
        service.url,
        [TARGETS.noopGet, TARGETS.tokenList, targets.revalidate, targets.listSized],
        stepping,
      )) as [RouteLoad, RouteLoad, RouteLoad, RouteLoad];
      // Worker processes fork with this process's CPU mask: unpinned, so two can use both cores.
      pinned?.restore();
      const { generatorCpu: _pinnedGenerator, ...unpinned } = stepping;
      const workers = await workerRuns(devnet.manifest, targets.quoteMix, unpinned, options.workerCounts);
      return {
        workers,
        ...(pinned ? { pinned: pinned.pins } : {}),
        fractions: {
          quote: capacityFraction(quote, noopPost),
          quoteAllMiss: capacityFraction(quoteMissed, noopPost),
          tokenList: capacityFraction(tokenList, noopGet),
          tokenListRevalidated: capacityFraction(tokenListRevalidated, noopGet),
          tokenListOverSizedNoop: capacityFraction(tokenList, noopGetListSized),
        },
        fractionsByRound: {
          quote: roundFractions(quote, noopPost),
          quoteAllMiss: roundFractions(quoteMissed, noopPost),
          tokenList: roundFractions(tokenList, noopGet),
        },
        quote,
        quoteAllMiss: quoteMissed,
        tokenList,
        tokenListRevalidated,
        noopPost,
        noopGet,
        noopGetListSized,
        ratios: {
          quoteP99: Math.round((quote.capacity.p99Ms / noopPost.capacity.p99Ms) * 100) / 100,
          tokenListP99: Math.round((tokenList.capacity.p99Ms / noopGet.capacity.p99Ms) * 100) / 100,
        },
      };
    } finally {
      await service.close();
    }
  } finally {
    pinned?.restore();
    await devnet.stop();
  }
}

/** The quote mix with the service as 1 and as 2 processes (node:cluster) on the same devnet. */
async function workerRuns(
  manifest: ServiceManifest,
  target: Target,
  stepping: Stepping,
  counts: number[] = [1, 2],
): Promise<LoadBenchResult['workers']> {
  const workers: LoadBenchResult['workers'] = [];
  for (const count of counts) {
    const cluster = await startServiceCluster({
      workers: count,
      manifest,
      port: 0,
      log: () => {},
      policy: BENCH_POLICY,
    });
    try {
      // No baseline to pair with here: one confirmation.
      const { quoteCache: _inOtherProcesses, ...elsewhere } = stepping;
      const [quote] = await measureGroup(cluster.url, [target], { ...elsewhere, rounds: 1 });
      workers.push({ workers: count, quote: quote as RouteLoad });
    } finally {
      await cluster.close();
    }
  }
  return workers;
}

/** The quote mixes (scripts/quote-mix.ts), the list's revalidation with its ETag, and its size. */
function mixTargets(manifest: ServiceManifest, list: { etag: string; bytes: number }) {
  const mixes = quoteMixes(manifest);
  const quote = { method: 'POST', path: '/v1/quote' } as const;
  return {
    quoteMix: {
      ...quote,
      route: 'POST /v1/quote',
      bodies: mixes.repeated.bodies,
      describe: mixes.repeated.describe,
    },
    quoteAllMiss: {
      ...quote,
      route: 'POST /v1/quote (all new)',
      bodies: mixes.allMiss.bodies,
      describe: mixes.allMiss.describe,
    },
    revalidate: {
      ...TARGETS.tokenList,
      route: `GET ${LIST_PATH} (If-None-Match: 304)`,
      headers: { 'if-none-match': list.etag },
      okStatuses: [304],
    },
    listSized: {
      route: `GET /__noop/bytes/${list.bytes} (as many bytes as the list)`,
      method: 'GET',
      path: `/__noop/bytes/${list.bytes}`,
    },
  } satisfies Record<string, Target>;
}

/**
 * The service makes the list's brotli on the first request that accepts it, in the background
 * (seconds of CPU): wait for it before measuring anything. Answers the list's ETag and size.
 */
export async function brotliReady(base: string): Promise<{ etag: string; bytes: number }> {
  for (let i = 0; i < 600; i++) {
    const response = await fetch(`${base}${LIST_PATH}`, { headers: BROWSER_HEADERS });
    await response.arrayBuffer();
    if (response.headers.get('content-encoding') === 'br') {
      const bytes = Number(response.headers.get('content-length'));
      return { etag: response.headers.get('etag') ?? '', bytes };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the token list was never served with brotli');
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
    (
      [
        'quote',
        'quoteAllMiss',
        'tokenList',
        'tokenListRevalidated',
        'noopPost',
        'noopGet',
        'noopGetListSized',
      ] as const
    ).map((key) => [
      key,
      { ...result[key].capacity, answerBytes: result[key].answerBytes, hitRate: result[key].cacheHitRate },
    ]),
  );
}
