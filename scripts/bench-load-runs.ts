// `npm run bench -- --load-runs <n>`: the capacity figures n times back to back (the budgets ask for
// five runs, not one), each with the machine's load average when it starts, since other processes
// move these figures more than the code does. The stepping of `npm run bench` with shorter stages
// (2 s; three confirmation rounds of 4 s beside the baseline), without the 1- and 2-process runs. Prints a table row per run and
// writes bench-results/load-runs.json. Each capacity cell says the service's and the generator's
// CPU (in cores) at that stage: the side at ~1.0 is the one that set the pace.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { benchLoad, type LoadBenchResult, type RouteLoad } from './bench-load.ts';

export interface LoadRun {
  run: number;
  startedAt: string;
  /** 1, 5 and 15 minute load averages when the run started (2 cores). */
  loadAverage: number[];
  result: LoadBenchResult;
}

/**
 * Requests/s (connections; CPU of the service / of the generator, in cores, at that stage; the
 * service's CPU per request in µs).
 */
const cell = (route: RouteLoad) =>
  `${route.capacity.requestsPerSecond.toLocaleString('en-US')} (${route.capacity.connections}; ` +
  `${route.capacity.serverCpu.toFixed(2)}/${route.capacity.generatorCpu.toFixed(2)}; ` +
  `${Math.round(route.capacity.serverMicrosPerRequest)} µs)` +
  (route.capacity.errors > 0 ? ` ${route.capacity.errors} errors` : '');

/** The confirmation rounds' own fractions, of which the cell's figure is the median. */
const rounds = (fractions: number[]) => fractions.map((f) => f.toFixed(2)).join('/');

export function loadRunRow({ run, loadAverage, result }: LoadRun): string {
  const hit =
    result.quote.cacheHitRate === undefined ? '-' : `${Math.round(result.quote.cacheHitRate * 100)}%`;
  return [
    run,
    loadAverage.map((n) => n.toFixed(1)).join(', '),
    cell(result.quote),
    hit,
    cell(result.quoteAllMiss),
    cell(result.noopPost),
    `${result.fractions.quote.toFixed(2)} (${rounds(result.fractionsByRound.quote)})`,
    `${result.fractions.quoteAllMiss.toFixed(2)} (${rounds(result.fractionsByRound.quoteAllMiss)})`,
    cell(result.tokenList),
    cell(result.tokenListRevalidated),
    cell(result.noopGet),
    `${result.fractions.tokenList.toFixed(2)} (${rounds(result.fractionsByRound.tokenList)})`,
    result.fractions.tokenListRevalidated.toFixed(2),
    cell(result.noopGetListSized),
    result.fractions.tokenListOverSizedNoop.toFixed(2),
  ].join(' | ');
}

export const LOAD_RUN_HEADER =
  'run | load average | quote mix req/s (conns) | from cache | quote all new | no-op POST | quote fraction (rounds) | all-new fraction (rounds) | ' +
  'token list | list 304 | no-op GET | list fraction (rounds) | 304 fraction | list-sized no-op GET | list / list-sized';

export async function benchLoadRuns(
  count: number,
  log: (line: string) => void = console.log,
  pin = true,
): Promise<LoadRun[]> {
  const runs: LoadRun[] = [];
  log(`| ${LOAD_RUN_HEADER} |`);
  log(`|${' --- |'.repeat(LOAD_RUN_HEADER.split(' | ').length)}`);
  for (let run = 1; run <= count; run++) {
    const loadAverage = loadavg().map((n) => Math.round(n * 100) / 100);
    const startedAt = new Date().toISOString();
    const result = await benchLoad({ stepSeconds: 2, confirmSeconds: 4, rounds: 3, workerCounts: [], pin });
    const entry = { run, startedAt, loadAverage, result };
    runs.push(entry);
    log(`| ${loadRunRow(entry)} |`);
  }
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/load-runs.json', `${JSON.stringify(runs, null, 2)}\n`);
  const bytes = runs[0]?.result;
  if (bytes) {
    log(
      `answer bytes: quote ${bytes.quote.answerBytes}, no-op POST ${bytes.noopPost.answerBytes}, ` +
        `token list ${bytes.tokenList.answerBytes}, 304 ${bytes.tokenListRevalidated.answerBytes}, no-op GET ${bytes.noopGet.answerBytes}, ` +
        `list-sized no-op GET ${bytes.noopGetListSized.answerBytes}`,
    );
    log(
      bytes.pinned
        ? `pinned: the service on CPU ${bytes.pinned.service}, the generator on CPU ${bytes.pinned.generator}`
        : 'not pinned (one CPU or no taskset)',
    );
  }
  return runs;
}
