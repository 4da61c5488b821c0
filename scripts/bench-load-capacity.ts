// How the load bench finds a route's capacity and its fraction of a baseline's (scripts/bench-load.ts).
// 1. Stepping: the connections step through every count (1, 2, 4, … 128) in short stages; only a stage
//    with an error ends it early. The knee is the fewest connections whose stage reaches 95% of the
//    best error-free stage (past it more connections only queue). Every count is walked because a
//    quote's curve is not concave: route searches run in turns (service/search-turns.ts), so it may
//    sit flat from 2 to 8 connections and climb again from 16 (on 2026-11-26 a rule that stopped
//    after two flat stages confirmed the quote mix at 2 and 4 connections, 12.1-12.9k req/s, in two
//    runs of five whose neighbours reached 15-17k at 16-64).
// 2. Confirmation in rounds: a route and its baseline are confirmed at their knees in turn (baseline,
//    routes, baseline, routes, …), `rounds` times. A round's fraction is the route's req/s over the
//    baseline's from the same round; the reported fraction is the median round's. Both sides of a
//    ratio are then measured within seconds of each other: the machine's speed drifts by 10-30% over
//    minutes (the no-op POST read 38-51 µs per request in five runs of one session), which a single
//    confirmation of each, a minute apart, put whole into the ratio.
// A confirmation with an error falls back to the next lower connection count in the first round;
// from then on the count is fixed, and an error in a later round is reported (the bench row fails).
import type { QuoteAnswerCache } from '../service/quote-cache';
import { answerBytes, type LoadStage, stage, summarize, type Target } from './bench-load-stage.ts';

export interface RouteLoad {
  route: string;
  /** What the requests were (for quotes: the mix of bodies). */
  describe?: string;
  /** Each answer's size on the wire (body bytes, as sent with the browser's Accept-Encoding). */
  answerBytes?: number;
  steps: LoadStage[];
  /** The median confirmation (by req/s): the reported capacity (errors: the worst round's). */
  capacity: LoadStage;
  /** Every confirmation, in round order. */
  confirmations: LoadStage[];
  /** Quotes: the share of the confirmations' requests the per-block answer cache served. */
  cacheHitRate?: number;
}

export interface Stepping {
  steps: number[];
  stepSeconds: number;
  confirmSeconds: number;
  /** Confirmation rounds (default 3). */
  rounds?: number;
  /** Seconds of the warm-up stage before each route's stepping (default 1). */
  warmupSeconds?: number;
  log: (line: string) => void;
  /** The service's answer cache, when it runs in this process: the hit rate is read from it. */
  quoteCache?: QuoteAnswerCache;
  /** The generator's CPU, when pinned. */
  generatorCpu?: number;
}

interface Stepped {
  target: Target;
  steps: LoadStage[];
  /** Connection counts to confirm at, the knee first, then each lower clean stage. */
  candidates: number[];
}

/** Measures `targets` (the baseline first) and their capacities, confirmed in interleaved rounds. */
export async function measureGroup(url: string, targets: Target[], stepping: Stepping): Promise<RouteLoad[]> {
  const stepped: Stepped[] = [];
  for (const target of targets) stepped.push(await stepRoute(url, target, stepping));
  const confirmations: LoadStage[][] = stepped.map(() => []);
  const fixed: (number | undefined)[] = stepped.map(() => undefined);
  const hits = stepped.map(() => ({ hit: 0, served: 0 }));
  for (let round = 0; round < (stepping.rounds ?? 3); round++) {
    for (let i = 0; i < stepped.length; i++) {
      const { target, candidates } = stepped[i] as Stepped;
      const before = cacheCounts(stepping.quoteCache);
      const tries = fixed[i] === undefined ? candidates : [fixed[i] as number];
      const confirmed = await confirm(url, target, tries, stepping);
      fixed[i] = confirmed.connections;
      (confirmations[i] as LoadStage[]).push(confirmed);
      const after = cacheCounts(stepping.quoteCache);
      const counts = hits[i] as { hit: number; served: number };
      counts.hit += after.hits - before.hits;
      counts.served += after.hits + after.misses - before.hits - before.misses;
    }
  }
  const loads: RouteLoad[] = [];
  for (let i = 0; i < stepped.length; i++) {
    const { target, steps } = stepped[i] as Stepped;
    const rounds = confirmations[i] as LoadStage[];
    const { served, hit } = hits[i] as { hit: number; served: number };
    loads.push({
      route: target.route,
      ...(target.describe === undefined ? {} : { describe: target.describe }),
      answerBytes: await answerBytes(url, target),
      steps,
      capacity: reported(rounds),
      confirmations: rounds,
      ...(stepping.quoteCache && served > 0
        ? { cacheHitRate: Math.round((hit / served) * 1000) / 1000 }
        : {}),
    });
  }
  return loads;
}

/** The route's capacity over the baseline's: the median of the rounds' own ratios. */
export function capacityFraction(route: RouteLoad, baseline: RouteLoad): number {
  const ratios = route.confirmations.map(
    (stage, i) => stage.requestsPerSecond / (baseline.confirmations[i]?.requestsPerSecond ?? Number.NaN),
  );
  return Math.round(median(ratios) * 100) / 100;
}

/** The rounds' own ratios, for the record (rounded to 0.01). */
export function roundFractions(route: RouteLoad, baseline: RouteLoad): number[] {
  return route.confirmations.map(
    (stage, i) =>
      Math.round(
        (stage.requestsPerSecond / (baseline.confirmations[i]?.requestsPerSecond ?? Number.NaN)) * 100,
      ) / 100,
  );
}

async function stepRoute(url: string, target: Target, stepping: Stepping): Promise<Stepped> {
  const run = (connections: number, seconds: number) =>
    stage(url, target, connections, seconds, stepping.generatorCpu);
  await run(8, stepping.warmupSeconds ?? 1); // warm-up: JIT, sockets, the reserves cache for the current block
  const steps: LoadStage[] = [];
  for (const connections of stepping.steps) {
    const result = await run(connections, stepping.stepSeconds);
    steps.push(result);
    stepping.log(`${target.route} ${summarize(result)}`);
    if (result.errors > 0) break;
  }
  const clean = steps.filter((result) => result.errors === 0);
  const top = Math.max(0, ...clean.map((result) => result.requestsPerSecond));
  const knee = clean.findIndex((result) => result.requestsPerSecond >= 0.95 * top);
  const candidates = clean
    .slice(0, knee + 1)
    .reverse()
    .map((result) => result.connections);
  // Nothing clean: confirm the first count anyway, so the row reports its errors.
  return { target, steps, candidates: candidates.length > 0 ? candidates : [steps[0]?.connections ?? 1] };
}

/** The first error-free confirmation among `tries` (in order), else the last one tried. */
async function confirm(url: string, target: Target, tries: number[], stepping: Stepping): Promise<LoadStage> {
  let result: LoadStage | undefined;
  for (const connections of tries) {
    result = await stage(url, target, connections, stepping.confirmSeconds, stepping.generatorCpu);
    stepping.log(`${target.route} confirm ${summarize(result)}`);
    if (result.errors === 0) break;
  }
  return result as LoadStage;
}

/** The median round by req/s; a round with errors is reported instead, so errors are never hidden. */
function reported(rounds: LoadStage[]): LoadStage {
  const failed = rounds.filter((result) => result.errors > 0);
  if (failed.length > 0) return failed.reduce((a, b) => (b.errors > a.errors ? b : a));
  const sorted = [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)] as LoadStage;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function cacheCounts(cache: QuoteAnswerCache | undefined): { hits: number; misses: number } {
  return { hits: cache?.hits ?? 0, misses: cache?.misses ?? 0 };
}
