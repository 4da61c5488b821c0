// `npm run bench`: every budget of docs/PERFORMANCE.md, each figure with the
// baseline it is compared to, measured in the same run. Prints a table and writes
// bench-results/latest.json. Timings are ratios against a baseline, never absolute pass/fail.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildTokenSearchIndex } from '../lib/tokens/search.ts';
import { syntheticTokens } from '../tests/support/tokens.ts';
import { benchExplorer } from './bench-explorer.ts';
import { benchQuoteOverhead } from './bench-extension.ts';
import { benchLoad, type RouteLoad } from './bench-load.ts';
import { benchLoadRuns } from './bench-load-runs.ts';
import { benchPopupReady } from './bench-popup.ts';
import { benchService } from './bench-service.ts';
import { benchSoak } from './bench-soak.ts';

interface Row {
  name: string;
  figure: string;
  baseline: string;
  ratio: number | null;
  budget: string;
  withinBudget: boolean | null;
}

const rows: Row[] = [];
const OUTPUT = '.output/chrome-mv3';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const gzipKb = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length / 1024;

/** Scripts an HTML page of the build loads at start: its module entry and the chunks it preloads. */
function initialScriptsOf(html: string): string[] {
  const page = readFileSync(join(OUTPUT, html), 'utf8');
  return [...page.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((match) => match[1] as string);
}

function benchBundles(): void {
  const popup = initialScriptsOf('popup.html').reduce((sum, file) => sum + gzipKb(join(OUTPUT, file)), 0);
  const content = gzipKb(join(OUTPUT, 'content-scripts', 'explorer.js'));
  const background = gzipKb(join(OUTPUT, 'background.js'));
  // On every http(s) page: the in-page provider (MAIN world) and its bridge (isolated world).
  const provider = gzipKb(join(OUTPUT, 'content-scripts', 'dapp-provider.js'));
  const bridge = gzipKb(join(OUTPUT, 'content-scripts', 'dapp-bridge.js'));
  for (const [name, kb, budget] of [
    ['popup initial JS (gzip)', popup, 60],
    ['content script (gzip)', content, 8],
    ['in-page provider (gzip)', provider, 10],
    ['dapp bridge content script (gzip)', bridge, 8],
    ['background (gzip)', background, 150],
  ] as const) {
    rows.push({
      name,
      figure: `${kb.toFixed(1)} kB`,
      baseline: `budget ${budget} kB`,
      ratio: kb / budget,
      budget: '<= 1.00 of budget',
      withinBudget: kb <= budget,
    });
  }
}

function benchTokenSearch(): void {
  const tokens = syntheticTokens(10_000);
  const index = buildTokenSearchIndex(tokens);
  // Keystrokes of real queries, typed one character at a time.
  const queries = [
    'u',
    'us',
    'usd',
    'usdc',
    'w',
    'we',
    'wet',
    'weth',
    'li',
    'lin',
    'link',
    'staked',
    '0x9e37',
    'zzz',
  ];
  const symbols = tokens.map((token) => token.symbol.toLowerCase());
  const time = (fn: () => unknown) => {
    const start = performance.now();
    fn();
    return performance.now() - start;
  };
  const search: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < 200; round++) {
    for (const query of queries) {
      search.push(time(() => index.search(query))); // the picker asks for every match (virtualised list)
      // Baseline: the least a search can do, one startsWith over every symbol.
      baseline.push(time(() => symbols.filter((symbol) => symbol.startsWith(query))));
    }
  }
  const p95 = percentile(search, 95);
  const baseP95 = percentile(baseline, 95);
  rows.push({
    name: 'token search, 10,000 tokens, per keystroke p95 (all matches)',
    figure: `${p95.toFixed(3)} ms`,
    baseline: `bare startsWith scan ${baseP95.toFixed(3)} ms`,
    ratio: p95 / baseP95,
    budget: '<= 1 ms',
    withinBudget: p95 <= 1,
  });
}

/** `--soak <minutes>`: the soak alone (scripts/bench-soak.ts); undefined when not asked for. */
function soakMinutes(argv: readonly string[]): number | undefined {
  const index = argv.indexOf('--soak');
  if (index < 0) return undefined;
  const minutes = Number(argv[index + 1]);
  if (!Number.isFinite(minutes) || minutes <= 0)
    throw new Error(`--soak needs minutes above 0, got "${argv[index + 1] ?? ''}"`);
  return minutes;
}

async function soak(minutes: number, argv: readonly string[]): Promise<void> {
  // `--soak-fraction 0.5`: a lower share of capacity, for a machine others are loading too.
  const index = argv.indexOf('--soak-fraction');
  const fraction = index < 0 ? 0.8 : Number(argv[index + 1]);
  const result = await benchSoak(minutes, (line) => console.log(line), fraction);
  const { start, end, heapGrowthMbPerHour } = result.memory;
  console.log(
    `\nsoak ${result.minutes} min at ${result.rate} req/s (${result.fraction} of capacity): ${result.requests} requests, ${result.errors} errors; ` +
      `rss ${start.rssMb} -> ${end.rssMb} MB, heap ${start.heapUsedMb} -> ${end.heapUsedMb} MB ` +
      `(heap trend ${heapGrowthMbPerHour} MB/hour)`,
  );
  console.log(JSON.stringify(result, null, 2));
  if (result.errors > 0) process.exitCode = 1;
}

/** `--load-runs <n>`: the capacity figures alone, n times (scripts/bench-load-runs.ts). */
function loadRuns(argv: readonly string[]): number | undefined {
  const index = argv.indexOf('--load-runs');
  if (index < 0) return undefined;
  const count = Number(argv[index + 1]);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`--load-runs needs a whole number of runs, got "${argv[index + 1] ?? ''}"`);
  return count;
}

async function main(): Promise<void> {
  const runs = loadRuns(process.argv.slice(2));
  // `--no-pin`: the service and the generator where the OS puts them (a machine others load too).
  const pin = !process.argv.includes('--no-pin');
  if (runs !== undefined) {
    await benchLoadRuns(runs, console.log, pin);
    return;
  }
  const minutes = soakMinutes(process.argv.slice(2));
  if (minutes !== undefined) return soak(minutes, process.argv.slice(2));
  const skipBuild = process.argv.includes('--no-build');
  if (!skipBuild) execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });
  benchBundles();
  benchTokenSearch();

  const service = await serviceRows();
  const load = await loadRows(pin);
  const explorer = await explorerRows();
  const overhead = await benchQuoteOverhead();
  overheadRow(overhead);
  const popupReady = await popupRows();
  report({ service, load, explorer, overhead, popupReady });
}

/** Quote latency and throughput against the no-op route, and devnet start-up. */
async function serviceRows() {
  const service = await benchService();
  rows.push({
    name: 'reference service: quote p50 (mix of pairs and amounts, 1 in 5 new)',
    figure: `${service.sequential.quote.p50Ms.toFixed(2)} ms`,
    baseline: `no-op route ${service.sequential.noop.p50Ms.toFixed(2)} ms`,
    ratio: service.ratios.sequentialP50,
    budget: '<= 1.5x no-op',
    withinBudget: service.ratios.sequentialP50 <= 1.5,
  });
  rows.push({
    name: 'reference service: quote p50, every request new (a route search each)',
    figure: `${service.sequential.quoteAllNew.p50Ms.toFixed(2)} ms`,
    baseline: `no-op route ${service.sequential.noop.p50Ms.toFixed(2)} ms`,
    ratio: service.ratios.sequentialP50AllNew,
    budget: 'reported',
    withinBudget: null,
  });
  rows.push({
    name: 'reference service: quote p99',
    figure: `${service.sequential.quote.p99Ms.toFixed(2)} ms`,
    baseline: `no-op route ${service.sequential.noop.p99Ms.toFixed(2)} ms`,
    ratio: service.ratios.sequentialP99,
    budget: 'reported',
    withinBudget: null,
  });
  rows.push({
    name: 'reference service: quote throughput, 8 in flight',
    figure: `${service.concurrent8.quote.throughput.toFixed(0)} req/s`,
    baseline: `no-op route ${service.concurrent8.noop.throughput.toFixed(0)} req/s`,
    ratio: service.ratios.throughputSlowdown,
    budget: 'reported',
    withinBudget: null,
  });
  const cold = service.devnet.cold?.reduce((max, chain) => Math.max(max, chain.ms), 0);
  const warm = service.devnet.warm.reduce((max, chain) => Math.max(max, chain.ms), 0);
  rows.push({
    name: 'devnet start, warm (saved state)',
    figure: `${warm.toFixed(0)} ms`,
    baseline: cold === undefined ? 'cold not measured' : `cold deploy ${cold.toFixed(0)} ms`,
    ratio: cold ? warm / cold : null,
    budget: 'reported',
    withinBudget: null,
  });

  return service;
}

/** Capacity under load: quote and token list against the no-op route, 1 and 2 workers. */
async function loadRows(pin: boolean) {
  const load = await benchLoad({ pin });
  // The service's and the generator's CPU at that stage (cores): the side near 1.0 set the pace.
  const at = (stage: RouteLoad['capacity']) =>
    `${stage.requestsPerSecond} req/s, p99 ${stage.p99Ms} ms (${stage.connections} conns; ` +
    `CPU service ${stage.serverCpu}, generator ${stage.generatorCpu})`;
  const hits = (route: RouteLoad) =>
    route.cacheHitRate === undefined
      ? ''
      : `, ${Math.round(route.cacheHitRate * 100)}% from the block's cache`;
  for (const [label, route, baseline, fraction, target] of [
    ['quote (mix of pairs and amounts, 1 in 5 new)', load.quote, load.noopPost, load.fractions.quote, 0.75],
    [
      'quote, every request new (a route search each)',
      load.quoteAllMiss,
      load.noopPost,
      load.fractions.quoteAllMiss,
      null,
    ],
    [
      `token list (${load.tokenList.answerBytes} B, first load)`,
      load.tokenList,
      load.noopGet,
      load.fractions.tokenList,
      0.9,
    ],
    [
      'token list revalidated (304)',
      load.tokenListRevalidated,
      load.noopGet,
      load.fractions.tokenListRevalidated,
      null,
    ],
    [
      'token list over a no-op GET of as many bytes (the transfer alone; not the budget)',
      load.tokenList,
      load.noopGetListSized,
      load.fractions.tokenListOverSizedNoop,
      null,
    ],
  ] as const) {
    const clean = route.capacity.errors === 0 && baseline.capacity.errors === 0;
    rows.push({
      name: `reference service under load: ${label} capacity / no-op capacity`,
      figure: `${at(route.capacity)}, ${route.capacity.errors} errors${hits(route)}`,
      baseline: `no-op route ${at(baseline.capacity)} (${baseline.answerBytes} B)`,
      ratio: fraction,
      budget: target === null ? 'reported, 0 errors' : `>= ${target}, 0 errors at capacity`,
      withinBudget: target === null ? (clean ? null : false) : fraction >= target && clean,
    });
  }
  const single = load.workers.find((w) => w.workers === 1);
  for (const { workers, quote } of load.workers) {
    rows.push({
      name: `reference service under load: quote capacity, ${workers} worker process${workers > 1 ? 'es' : ''}`,
      figure: `${at(quote.capacity)}, ${quote.capacity.errors} errors`,
      baseline: single ? `1 worker ${single.quote.capacity.requestsPerSecond} req/s` : '-',
      ratio: single ? quote.capacity.requestsPerSecond / single.quote.capacity.requestsPerSecond : null,
      budget: 'reported (unpinned: 2 cores shared with the load generator and anvil)',
      withinBudget: null,
    });
  }

  return load;
}

/** The content script on the synthetic page and on the saved real pages. */
async function explorerRows() {
  const explorer = await benchExplorer();
  rows.push({
    name: 'content script first pass, 10,000-link page',
    figure: `${explorer.firstPassMs.toFixed(1)} ms`,
    baseline: `bare querySelectorAll pass ${explorer.bareMs.toFixed(1)} ms`,
    ratio: explorer.firstPassRatio,
    budget: '<= 2x bare pass',
    withinBudget: explorer.firstPassRatio <= 2,
  });
  rows.push({
    name: `content script mutation pass (${explorer.mutation.rows} rows added)`,
    figure: `${explorer.mutation.passMs.toFixed(1)} ms in ${explorer.mutation.passes} pass(es)`,
    baseline: `bare pass ${explorer.mutation.bareMs.toFixed(1)} ms`,
    ratio: explorer.mutation.ratio,
    budget: 'reported',
    withinBudget: null,
  });
  rows.push({
    name: 'content script: longest task (scanner code / page relayout after insertion)',
    figure: `${explorer.longTasks.scannerMs.toFixed(1)} ms / ${explorer.longTasks.startMs.toFixed(0)} ms`,
    baseline: `40 empty spans inserted: ${explorer.longTasks.pageInsertionBaselineMs.toFixed(0)} ms`,
    ratio: null,
    budget: 'no task > 50 ms',
    withinBudget: explorer.longTasks.scannerMs <= 50 && explorer.longTasks.startMs <= 50,
  });
  const relayout = explorer.longTasks.startMs / Math.max(1, explorer.longTasks.pageInsertionBaselineMs);
  rows.push({
    name: 'content script: relayout after inserting its controls, vs empty spans at the same places',
    figure: `${explorer.longTasks.startMs.toFixed(0)} ms`,
    baseline: `40 empty spans inserted: ${explorer.longTasks.pageInsertionBaselineMs.toFixed(0)} ms`,
    ratio: relayout,
    budget: '<= 1.3x',
    withinBudget: relayout <= 1.3,
  });
  rows.push({
    name: 'content script: layout reads during passes',
    figure: String(explorer.layoutReadsDuringPasses),
    baseline: '0',
    ratio: null,
    budget: '0',
    withinBudget: explorer.layoutReadsDuringPasses === 0,
  });

  return explorer;
}

function overheadRow(overhead: Awaited<ReturnType<typeof benchQuoteOverhead>>): void {
  rows.push({
    name: 'extension overhead on a quote, p50',
    figure: `${overhead.extensionP50Ms.toFixed(2)} ms (+${overhead.overheadP50Ms.toFixed(2)} ms)`,
    baseline: `direct fetch ${overhead.directP50Ms.toFixed(2)} ms`,
    ratio: overhead.extensionP50Ms / overhead.directP50Ms,
    budget: '<= +3 ms p50',
    withinBudget: overhead.overheadP50Ms <= 3,
  });
}

/** Popup ready against an empty Preact popup. */
async function popupRows() {
  const popupReady = await benchPopupReady();
  rows.push({
    name: `popup ready, cached token list, p50 of ${popupReady.rounds} opens`,
    figure: `${popupReady.popupP50Ms.toFixed(0)} ms`,
    baseline: `empty Preact popup ${popupReady.emptyP50Ms.toFixed(0)} ms`,
    ratio: popupReady.ratio,
    budget: '<= 1.25x empty',
    withinBudget: popupReady.ratio <= 1.25,
  });
  rows.push({
    name: `popup ready, reopened on a live quote (form, quote card, route), p50 of ${popupReady.quote.rounds} opens`,
    figure: `${popupReady.quote.popupP50Ms.toFixed(0)} ms`,
    baseline: `empty Preact popup ${popupReady.quote.emptyP50Ms.toFixed(0)} ms`,
    ratio: popupReady.quote.popupP50Ms / popupReady.quote.emptyP50Ms,
    budget: '<= 1.3x empty',
    withinBudget: popupReady.quote.popupP50Ms / popupReady.quote.emptyP50Ms <= 1.3,
  });
  rows.push({
    name: 'popup: whole token list in the pickers (after the first frame), p50',
    figure: `${popupReady.popupListP50Ms.toFixed(0)} ms`,
    baseline: `empty Preact popup ${popupReady.emptyP50Ms.toFixed(0)} ms`,
    ratio: popupReady.popupListP50Ms / popupReady.emptyP50Ms,
    budget: 'reported',
    withinBudget: null,
  });

  return popupReady;
}

/** The table on stdout and everything measured in bench-results/latest.json. */
function report(measured: Record<string, unknown>): void {
  const columns: (keyof Row)[] = ['name', 'figure', 'baseline', 'ratio', 'budget', 'withinBudget'];
  const cell = (row: Row, key: keyof Row) =>
    key === 'ratio' ? (row.ratio === null ? '-' : row.ratio.toFixed(2)) : String(row[key] ?? '-');
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`| ${columns.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${columns.map((key) => cell(row, key)).join(' | ')} |`);
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(
    join('bench-results', 'latest.json'),
    `${JSON.stringify({ date: new Date().toISOString(), rows, ...measured }, null, 2)}\n`,
  );
  console.log('\nwrote bench-results/latest.json');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
