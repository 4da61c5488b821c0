// `npm run bench -- --soak <minutes>`: the reference service over time. Quotes, token lists,
// searches and builds at 80% of the capacity measured at the start, open loop, against a devnet that
// mines a block every 2 s, for <minutes>. Reports requests, errors (the run fails on any), p50/p99
// per minute, and the service process's RSS and V8 heap at the start and end with the heap's growth
// per hour (a least-squares slope over the per-minute samples after the first, so one GC's timing
// does not read as growth). The load generator is a worker thread of the same process, so RSS
// includes it; the heap is the service's own isolate. Off in `npm test` (it runs for minutes).
import { pathToFileURL } from 'node:url';
import { startDevnet } from '../devnet/start';
import { USDC } from '../tests/support/addresses.ts';
import { QUOTE_BODY, startBenchService } from './bench-service.ts';
import { runLoad } from './load-generator.ts';
import { quoteMixes } from './quote-mix.ts';
import { type SoakMinute, type SoakRoute, startSoakLoad } from './soak-generator.ts';

export interface MemorySample {
  minute: number;
  rssMb: number;
  heapUsedMb: number;
}

export interface SoakResult {
  minutes: number;
  /** Of the capacity measured at the start (0.8 unless --soak-fraction says otherwise). */
  fraction: number;
  rate: number;
  capacities: Record<string, number>;
  requests: number;
  errors: number;
  perMinute: SoakMinute[];
  memory: { start: MemorySample; end: MemorySample; samples: MemorySample[]; heapGrowthMbPerHour: number };
}

const ROUTES: SoakRoute[] = [
  // The load bench's mix (scripts/quote-mix.ts), set once the devnet is up: 1 request in 5 new.
  { name: 'POST /v1/quote', method: 'POST', path: '/v1/quote', body: QUOTE_BODY, weight: 4 },
  { name: 'GET /v1/tokens/ethereum/full', method: 'GET', path: '/v1/tokens/ethereum/full', weight: 1 },
  { name: 'GET search', method: 'GET', path: `/v1/tokens/ethereum/search/${USDC}`, weight: 3 },
  // The body is a fresh quote, set before the load starts and replaced every few seconds.
  { name: 'POST /v1/build', method: 'POST', path: '/v1/build', body: '', weight: 1 },
];

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
function sample(minute: number): MemorySample {
  const usage = process.memoryUsage();
  return { minute, rssMb: mb(usage.rss), heapUsedMb: mb(usage.heapUsed) };
}

/** Least-squares slope of heap against minutes, in MB per hour. */
function heapSlopePerHour(samples: readonly MemorySample[]): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.minute, 0) / n;
  const my = samples.reduce((s, p) => s + p.heapUsedMb, 0) / n;
  const num = samples.reduce((s, p) => s + (p.minute - mx) * (p.heapUsedMb - my), 0);
  const den = samples.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return den === 0 ? 0 : Math.round((num / den) * 60 * 10) / 10;
}

async function freshQuote(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: QUOTE_BODY,
  });
  if (!response.ok) throw new Error(`soak: a quote for the build body failed with ${response.status}`);
  return JSON.stringify(((await response.json()) as { data: unknown }).data);
}

export async function benchSoak(
  minutes: number,
  log: (line: string) => void = () => {},
  fraction = 0.8,
): Promise<SoakResult> {
  if (!(minutes > 0)) throw new Error(`--soak needs a number of minutes above 0, got ${minutes}`);
  if (!(fraction > 0 && fraction <= 1))
    throw new Error(`the soak's share of capacity must be in (0, 1], got ${fraction}`);
  const devnet = await startDevnet({ ports: { ethereum: 0, base: 0 }, blockTime: 2 });
  const service = await startBenchService(devnet.manifest);
  let refresher: ReturnType<typeof setInterval> | undefined;
  try {
    const buildBody = await freshQuote(service.url);
    const mix = quoteMixes(devnet.manifest).repeated.bodies;
    const routes = ROUTES.map((route) => {
      if (route.name === 'POST /v1/build') return { ...route, body: buildBody };
      if (route.name === 'POST /v1/quote') return { ...route, bodies: mix };
      return route;
    });
    // Capacity of each route alone (closed loop, 8 connections), then the mix's: 80% of it.
    const capacities: Record<string, number> = {};
    for (const route of routes) {
      const run = await runLoad(
        service.url,
        {
          method: route.method,
          path: route.path,
          headers: { 'accept-encoding': 'gzip', 'content-type': 'application/json' },
          ...(route.body === undefined ? {} : { body: route.body }),
          ...(route.bodies === undefined ? {} : { bodies: route.bodies }),
        },
        8,
        4,
      );
      if (run.errors + run.non2xx > 0) throw new Error(`soak: ${route.name} failed while measuring capacity`);
      capacities[route.name] = Math.round(run.requests / run.seconds);
      log(`capacity ${route.name}: ${capacities[route.name]} req/s`);
    }
    const weights = routes.reduce((sum, route) => sum + route.weight, 0);
    const secondsPerRequest = routes.reduce(
      (sum, route) => sum + route.weight / weights / (capacities[route.name] as number),
      0,
    );
    const rate = Math.round((fraction / secondsPerRequest) * 10) / 10;
    log(
      `soak: ${minutes} min at ${rate} req/s (${Math.round(fraction * 100)}% of the mix's capacity), a block every 2 s`,
    );

    const start = sample(0);
    const samples: MemorySample[] = [];
    const load = startSoakLoad(service.url, routes, rate, minutes * 60, (minute) => {
      const memory = sample(minute.minute);
      samples.push(memory);
      log(
        `minute ${minute.minute}: ${minute.requests} requests, ${minute.errors} errors, p50 ${minute.p50Ms} ms, ` +
          `p99 ${minute.p99Ms} ms, rss ${memory.rssMb} MB, heap ${memory.heapUsedMb} MB` +
          (minute.errors > 0 ? ` ${JSON.stringify(minute.failures)}` : ''),
      );
    });
    // A quote stays buildable for 20 blocks (40 s here): refresh the build's body well within that
    // (every 2 s; a failed refresh keeps the previous body, still valid for a while).
    refresher = setInterval(() => {
      freshQuote(service.url).then(
        (body) => load.setBody('POST /v1/build', body),
        (error: unknown) => log(`build body refresh failed: ${String(error)}`),
      );
    }, 2_000);
    const perMinute = await load.done;
    const end = sample(minutes);
    return {
      minutes,
      fraction,
      rate,
      capacities,
      requests: perMinute.reduce((sum, m) => sum + m.requests, 0),
      errors: perMinute.reduce((sum, m) => sum + m.errors, 0),
      perMinute,
      memory: { start, end, samples, heapGrowthMbPerHour: heapSlopePerHour(samples.slice(1)) },
    };
  } finally {
    clearInterval(refresher);
    await service.close();
    await devnet.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const minutes = Number(process.argv[2] ?? '1');
  benchSoak(minutes, (line) => console.log(line), Number(process.argv[3] ?? '0.8'))
    .then((result) => {
      console.log(JSON.stringify({ ...result, perMinute: undefined }, null, 2));
      if (result.errors > 0) process.exitCode = 1;
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
