// What each route costs the service, in CPU per answered request: the devnet and the service start
// as the load bench starts them (service pinned to CPU 0, the generator's process to CPU 1), and each
// route runs at a fixed number of connections for a few seconds. Per-request CPU is the service's
// own figure whichever side sets the pace, so it holds on a busy machine where req/s do not; a
// route's cost against its no-op baseline's (GET against GET, POST against POST) estimates the
// capacity fraction a service-bound load run reads. A development tool beside scripts/bench-load.ts.
//   npx tsx scripts/service-cost.ts [routes, comma-separated, or all] [connections=32] [rounds=2] [seconds=5]
// Routes: noop-get, noop-bytes (as many bytes as the list's brotli), tokens, tokens-ext (with the
// extension's Origin), tokens-304, noop-post,
// quote-hit (one body: every answer from the per-block cache), quote-repeated (the mix's repeated
// bodies: all from the cache), quote-mix, quote-new.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startDevnet } from '../devnet/start';
import { QuoteAnswerCache } from '../service/quote-cache';
import { brotliReady } from './bench-load.ts';
import { pinService, stage, type Target } from './bench-load-stage.ts';
import { QUOTE_BODY, startBenchService } from './bench-service.ts';
import { UNIQUE_MARK } from './load-generator.ts';
import { quoteMixes } from './quote-mix.ts';

const LIST_PATH = '/v1/tokens/ethereum/full';
const EXTENSION_ORIGIN = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

async function main(): Promise<void> {
  const [routesArg = 'all', connectionsArg = '32', roundsArg = '2', secondsArg = '5'] = process.argv.slice(2);
  const connections = Number(connectionsArg);
  const rounds = Number(roundsArg);
  const seconds = Number(secondsArg);
  const quoteCache = new QuoteAnswerCache();
  const devnet = await startDevnet({ ports: { ethereum: 0, base: 0 }, blockTime: 12 });
  const pinned = pinService();
  const service = await startBenchService(devnet.manifest, quoteCache);
  try {
    const list = await brotliReady(service.url);
    const mixes = quoteMixes(devnet.manifest);
    const targets: Target[] = [
      { route: 'noop-get', method: 'GET', path: '/__noop' },
      { route: 'noop-bytes', method: 'GET', path: `/__noop/bytes/${list.bytes}` },
      { route: 'tokens', method: 'GET', path: LIST_PATH },
      // As the extension's fetch asks: its origin is granted CORS.
      { route: 'tokens-ext', method: 'GET', path: LIST_PATH, headers: { origin: EXTENSION_ORIGIN } },
      {
        route: 'tokens-304',
        method: 'GET',
        path: LIST_PATH,
        headers: { 'if-none-match': list.etag },
        okStatuses: [304],
      },
      { route: 'noop-post', method: 'POST', path: '/__noop', body: QUOTE_BODY },
      { route: 'quote-hit', method: 'POST', path: '/v1/quote', body: QUOTE_BODY },
      { route: 'quote-mix', method: 'POST', path: '/v1/quote', bodies: mixes.repeated.bodies },
      // The mix's repeated bodies alone: every answer from the cache, 32 different ones.
      {
        route: 'quote-repeated',
        method: 'POST',
        path: '/v1/quote',
        bodies: mixes.repeated.bodies.filter((body) => !body.includes(UNIQUE_MARK)),
      },
      { route: 'quote-new', method: 'POST', path: '/v1/quote', bodies: mixes.allMiss.bodies },
    ];
    const wanted = routesArg === 'all' ? undefined : new Set(routesArg.split(','));
    const unknown = [...(wanted ?? [])].filter((name) => !targets.some((t) => t.route === name));
    if (unknown.length > 0) throw new Error(`unknown route(s): ${unknown.join(', ')}`);
    const chosen = targets.filter((t) => !wanted || wanted.has(t.route));
    const baseline = new Map<string, number>();
    // The collector's pauses on the main thread during each stage, by kind (µs per request).
    const gc: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => gc.push(...list.getEntries()));
    observer.observe({ entryTypes: ['gc'] });
    console.log(`${connections} connections, ${seconds} s per route, pinned: ${pinned ? 'yes' : 'no'}`);
    for (let round = 1; round <= rounds; round++) {
      for (const target of chosen) {
        const hits = quoteCache.hits;
        const misses = quoteCache.misses;
        gc.length = 0;
        const s = await stage(service.url, target, connections, seconds, pinned?.pins.generator);
        const requests = s.requestsPerSecond * s.seconds;
        const base = target.method === 'GET' ? 'noop-get' : 'noop-post';
        if (target.route === base) baseline.set(base, s.serverMicrosPerRequest);
        const against = baseline.get(base);
        const fraction =
          against && target.route !== base
            ? ` ${(against / s.serverMicrosPerRequest).toFixed(2)} of ${base}`
            : '';
        const served = quoteCache.hits - hits + (quoteCache.misses - misses);
        const cached = served > 0 ? `, cache ${Math.round(((quoteCache.hits - hits) / served) * 100)}%` : '';
        console.log(
          `${round} ${target.route.padEnd(11)} ${String(s.requestsPerSecond).padStart(6)} req/s ` +
            `${s.serverMicrosPerRequest.toFixed(1).padStart(6)} µs/req${fraction} (service ${s.serverCpu}, ` +
            `generator ${s.generatorCpu}, errors ${s.errors}${cached}) GC ${gcSummary(gc, requests)}`,
        );
      }
    }
    observer.disconnect();
  } finally {
    await service.close();
    pinned?.restore();
    await devnet.stop();
  }
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};

/** The stage's GC pauses: µs per request by kind, and how many. */
function gcSummary(entries: PerformanceEntry[], requests: number): string {
  const byKind = new Map<string, { ms: number; count: number }>();
  for (const entry of entries) {
    const kind =
      GC_KINDS[(entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
    const sum = byKind.get(kind) ?? { ms: 0, count: 0 };
    sum.ms += entry.duration;
    sum.count += 1;
    byKind.set(kind, sum);
  }
  return [...byKind]
    .map(
      ([kind, { ms, count }]) => `${kind} ${((ms * 1000) / Math.max(1, requests)).toFixed(1)} µs (${count})`,
    )
    .join(', ');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
