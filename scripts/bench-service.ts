// Reference service benchmark: quote latency and throughput against a no-op JSON route of the same
// server, same run (POST /__noop with the same body: same HTTP stack, body read and JSON reply, no
// work), sequential and with 8 requests in flight; plus devnet cold and warm start times. Quotes are
// the load bench's mix (most answered from the per-block cache) and, reported beside it, all new.
// `benchService()` is wired into `npm run bench`; `tsx scripts/bench-service.ts` prints it alone.

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ChainStart, startDevnet } from '../devnet/start';
import { DEFAULT_CONNECTION_LIMITS } from '../service/connection-limits';
import type { ServiceManifest } from '../service/manifest';
import type { ServicePolicy } from '../service/policy';
import type { QuoteAnswerCache } from '../service/quote-cache';
import { DEFAULT_RATE_LIMITS } from '../service/rate-limit';
import { type RunningService, startService } from '../service/server';
import { USDC } from '../tests/support/addresses.ts';
import { UNIQUE_MARK } from './load-generator.ts';
import { quoteMixes } from './quote-mix.ts';

export interface LatencyStats {
  count: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests per second. */
  throughput: number;
}

export interface ServiceBenchResult {
  /** quote: the load bench's mix (1 request in 5 new); quoteAllNew: a route search every time. */
  sequential: { noop: LatencyStats; quote: LatencyStats; quoteAllNew: LatencyStats };
  concurrent8: { noop: LatencyStats; quote: LatencyStats };
  /** quote / noop: latency ratios (budget: sequential p50 <= 1.5), throughput ratio noop / quote. */
  ratios: {
    sequentialP50: number;
    sequentialP50AllNew: number;
    sequentialP99: number;
    concurrentP50: number;
    throughputSlowdown: number;
  };
  devnet: { cold: ChainStart[] | null; warm: ChainStart[] };
}

export interface BenchServiceOptions {
  /** Time per measured phase; 4 phases of this plus warm-up. Default 2,000 ms (about 10 s in all). */
  phaseMs?: number;
  /** Deploy once into a fresh state dir to time a cold start (default true). */
  coldStart?: boolean;
  log?: (line: string) => void;
}

/**
 * Every benchmark's service policy: rate limiting stays on (its per-request cost is measured) with
 * buckets no single-address load generator can empty, since the bench measures capacity, not limits.
 * The connection caps stay on too, the per-client one above the load bench's 128 connections from
 * 127.0.0.1 (and the total's default, 1,000, above that).
 */
const UNREACHABLE = { burst: 1_000_000_000, perSecond: 1_000_000_000 };
export const BENCH_POLICY: Partial<ServicePolicy> = {
  rateLimits: { ...DEFAULT_RATE_LIMITS, quote: UNREACHABLE, build: UNREACHABLE, read: UNREACHABLE },
  connections: { ...DEFAULT_CONNECTION_LIMITS, maxPerClient: 512 },
};

/**
 * The service as every in-process benchmark starts it: any free port, the bench policy, and (when
 * the caller reads its hit rate) the given quote answer cache.
 */
export function startBenchService(
  manifest: ServiceManifest,
  quoteCache?: QuoteAnswerCache,
  log: (line: string) => void = () => {},
): Promise<RunningService> {
  return startService({
    manifest,
    port: 0,
    log,
    policy: BENCH_POLICY,
    ...(quoteCache ? { quoteCache } : {}),
  });
}

/** The quote every service benchmark asks for (25 WETH -> USDC on chain 1). */
export const QUOTE_BODY = JSON.stringify({
  chainId: 1,
  inToken: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', // WETH
  outToken: USDC,
  inAmount: '25000000000000000000',
  slippage: 0.5,
});

export async function benchService(options: BenchServiceOptions = {}): Promise<ServiceBenchResult> {
  const phaseMs = options.phaseMs ?? 2_000;
  const log = options.log ?? (() => {});
  const ports = { ethereum: 0, base: 0 };

  let cold: ChainStart[] | null = null;
  let stateDir: string | undefined;
  if (options.coldStart ?? true) {
    stateDir = mkdtempSync(join(tmpdir(), 'swaplane-bench-state-'));
    const first = await startDevnet({ ports, stateDir });
    cold = first.starts;
    await first.stop();
    log(`devnet cold start: ${describeStarts(cold)}`);
  }
  const devnet = await startDevnet({ ports, ...(stateDir ? { stateDir } : {}) });
  log(`devnet ${stateDir ? 'warm' : 'default'} start: ${describeStarts(devnet.starts)}`);
  const service = await startBenchService(devnet.manifest, undefined, log);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  try {
    const url = new URL(service.url);
    const noop = () => post(agent, url, '/__noop', QUOTE_BODY);
    // The load bench's mix in turn (scripts/quote-mix.ts: repeated amounts answered from the
    // per-block cache, 1 in 5 new), and every quote a new amount: a route search each time.
    const mix = quoteMixes(devnet.manifest);
    let turn = 0;
    let fresh = 0;
    const unique = (body: string) => body.replace(UNIQUE_MARK, String(++fresh % 1e9).padStart(9, '0'));
    const quote = () =>
      post(agent, url, '/v1/quote', unique(mix.repeated.bodies[turn++ % mix.repeated.bodies.length] ?? ''));
    const quoteAllNew = () =>
      post(agent, url, '/v1/quote', unique(mix.allMiss.bodies[turn++ % mix.allMiss.bodies.length] ?? ''));
    // Warm-up: JIT, sockets, and the reserves cache for the current block.
    for (let i = 0; i < 200; i++) {
      await noop();
      await quote();
      await quoteAllNew();
    }
    const [noopTimes, quoteTimes, allNewTimes] = await alternate([noop, quote, quoteAllNew], phaseMs * 2);
    if (!noopTimes || !quoteTimes || !allNewTimes) throw new Error('alternate() measures every run');
    const sequential = { noop: noopTimes, quote: quoteTimes, quoteAllNew: allNewTimes };
    const concurrentNoop = await concurrently(noop, 8, phaseMs);
    const concurrentQuote = await concurrently(quote, 8, phaseMs);
    const result: ServiceBenchResult = {
      sequential,
      concurrent8: { noop: concurrentNoop, quote: concurrentQuote },
      ratios: {
        sequentialP50: round(sequential.quote.p50Ms / sequential.noop.p50Ms),
        sequentialP50AllNew: round(sequential.quoteAllNew.p50Ms / sequential.noop.p50Ms),
        sequentialP99: round(sequential.quote.p99Ms / sequential.noop.p99Ms),
        concurrentP50: round(concurrentQuote.p50Ms / concurrentNoop.p50Ms),
        throughputSlowdown: round(concurrentNoop.throughput / concurrentQuote.throughput),
      },
      devnet: { cold, warm: devnet.starts },
    };
    log(`service bench: ${JSON.stringify(result.ratios)}`);
    return result;
  } finally {
    agent.destroy();
    await service.close();
    await devnet.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}

function post(agent: Agent, url: URL, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
          else resolve(performance.now() - started);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The requests take turns, so drift (GC, CPU clocks) hits every side alike. */
async function alternate(runs: (() => Promise<number>)[], ms: number): Promise<LatencyStats[]> {
  const times = runs.map((): number[] => []);
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (const [i, run] of runs.entries()) times[i]?.push(await run());
  }
  return times.map(stats);
}

async function concurrently(run: () => Promise<number>, workers: number, ms: number): Promise<LatencyStats> {
  const times: number[] = [];
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end) times.push(await run());
    }),
  );
  return { ...stats(times), throughput: round(times.length / ((performance.now() - started) / 1000)) };
}

function stats(times: number[]): LatencyStats {
  const sorted = [...times].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const total = times.reduce((sum, t) => sum + t, 0);
  return {
    count: times.length,
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    throughput: round(total > 0 ? times.length / (total / 1000) : 0),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function describeStarts(starts: ChainStart[]): string {
  return starts.map((start) => `${start.chainName} ${start.mode} ${start.ms} ms`).join(', ');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchService({ log: (line) => console.log(line) })
    .then((result) => console.log(JSON.stringify(result, null, 2)))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
