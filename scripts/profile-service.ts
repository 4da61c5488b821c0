// Where a service route spends its CPU under load: the devnet and the service start in-process as
// scripts/bench-load.ts starts them, the closed-loop generator (its own process, not profiled) loads
// one route at a fixed number of connections, and the V8 profiler records the main thread for that
// stage only (start-up and deploys excluded). Prints the top self-time entries and the share per
// area; writes the .cpuprofile for DevTools. Self-time shares hold on a busy machine; req/s do not.
//   npx tsx scripts/profile-service.ts [routes, comma-separated: quote,quote-mix,quote-new,noop-post,tokens,noop-get] [connections=8] [seconds=6]
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startDevnet } from '../devnet/start';
import { QUOTE_BODY, startBenchService } from './bench-service.ts';
import { type LoadTarget, runLoad } from './load-generator.ts';
import { quoteMixes } from './quote-mix.ts';

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const JSON_POST = { ...BROWSER, 'content-type': 'application/json' };
const QUOTE_TARGET: LoadTarget = { method: 'POST', path: '/v1/quote', headers: JSON_POST };
const TARGETS: Record<string, LoadTarget> = {
  quote: { ...QUOTE_TARGET, body: QUOTE_BODY },
  tokens: { method: 'GET', path: '/v1/tokens/ethereum/full', headers: BROWSER },
  'noop-post': { method: 'POST', path: '/__noop', headers: JSON_POST, body: QUOTE_BODY },
  'noop-get': { method: 'GET', path: '/__noop', headers: BROWSER },
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/**
 * Self time per function (name, file and line) and per area: the share of all samples, and the
 * microseconds of CPU per request (comparable between a route and its no-op baseline).
 */
export function selfTimes(
  nodes: ProfileNode[],
  microsPerSample: number,
  requests: number,
  top = 25,
): { entries: string[]; areas: string[] } {
  const total = nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0) || 1;
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url
      .replace(/^.*\/node_modules\//, '')
      .replace(/^file:\/\/.*?\/(service|lib|scripts)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    byArea.set(areaOf(functionName, url), (byArea.get(areaOf(functionName, url)) ?? 0) + hits);
  }
  const list = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, hits]) => {
        const share = `${((hits / total) * 100).toFixed(1).padStart(5)}%`;
        const perRequest = `${((hits * microsPerSample) / Math.max(1, requests)).toFixed(1).padStart(6)} µs/req`;
        return `${share} ${perRequest}  ${key}`;
      });
  return { entries: list(byFunction, top), areas: list(byArea, 20) };
}

function areaOf(name: string, url: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)' || name === '(root)') return name;
  if (url === '') return `native (${name || 'anonymous'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:internal/deps/')) return `node: ${url.split('/')[2]}`;
  if (url.startsWith('node:internal/')) return `node: internal/${url.split('/')[1]}`;
  if (url.startsWith('node:')) return `node: ${url.slice(5)}`;
  const own = /\/(service|lib|scripts)\/(.*?)(?:\.ts)?$/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

async function profileRoute(url: string, routeName: string, connections: number, seconds: number) {
  const target = TARGETS[routeName];
  if (!target) throw new Error(`unknown route "${routeName}"; one of ${Object.keys(TARGETS).join(', ')}`);
  await runLoad(url, target, connections, 2); // warm-up: JIT, sockets, reserves cache
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
    await session.post('Profiler.start');
    const run = await runLoad(url, target, connections, seconds);
    const { profile } = await session.post('Profiler.stop');
    const file = `/tmp/profile-${routeName}-${Date.now()}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    const rate = Math.round(run.requests / run.seconds);
    console.log(
      `\n== ${target.method} ${target.path}, ${connections} conns: ${rate} req/s, p50 ${run.p50Ms} ms`,
    );
    console.log(`errors ${run.errors}, non-2xx ${run.non2xx}; profile: ${file}`);
    const microsPerSample = (profile.endTime - profile.startTime) / (profile.samples?.length || 1);
    const { entries, areas } = selfTimes(profile.nodes as ProfileNode[], microsPerSample, run.requests);
    console.log('self time by area:');
    for (const line of areas) console.log(line);
    console.log('self time by function:');
    for (const line of entries) console.log(line);
  } finally {
    session.disconnect();
  }
}

async function main(): Promise<void> {
  const [routes = 'quote', connections = '8', seconds = '6'] = process.argv.slice(2);
  const devnet = await startDevnet({ ports: { ethereum: 0, base: 0 }, chains: ['ethereum'] });
  const service = await startBenchService(devnet.manifest);
  // The load bench's quote mixes: 1 in 5 new (quote-mix) and every request new (quote-new).
  const mixes = quoteMixes(devnet.manifest);
  TARGETS['quote-mix'] = { ...QUOTE_TARGET, bodies: mixes.repeated.bodies };
  TARGETS['quote-new'] = { ...QUOTE_TARGET, bodies: mixes.allMiss.bodies };
  try {
    for (const route of routes.split(',')) {
      await profileRoute(service.url, route, Number(connections), Number(seconds));
    }
  } finally {
    await service.close();
    await devnet.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
