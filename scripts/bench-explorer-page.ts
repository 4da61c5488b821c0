// The page side of bench-explorer.ts: bundled with esbuild and installed before the page loads, it
// instruments the page (long tasks, layout reads, the scanner's frames and IntersectionObserver
// callbacks) and exposes `__benchMeasure`, which runs the phases against `__startScanner` (the
// scanner bundle, added once the page is in).
import { countLayoutGetters } from '../tests/support/layout-getters.ts';

type Scanner = { stats: { passes: number }; stop(): void };
type Start = (options: { chainId: number; messenger: unknown }) => Scanner;
/** [start, end] of a phase: long tasks are attributed by time window. */
type Period = [number, number];

export interface PageMeasurement {
  counts: { token: number; address: number; other: number };
  bareMs: number;
  bareOnlyMs: number;
  bareColdMs: number;
  firstPassMs: number;
  firstPassColdMs: number;
  buttonsNearViewport: number;
  mutationPassMs: number;
  mutationPasses: number;
  bareAfter: number;
  ioMax: number;
  longestScannerTaskMs: number;
  pageInsertionBaselineMs: number;
  roundsLongestTaskMs: number;
  mutationLongestTaskMs: number;
  longTasksOver50ms: number;
  layoutReads: number;
}

const bench = {
  longTasks: [] as { start: number; duration: number }[],
  layoutReads: 0,
  counting: false,
  frameTimes: [] as number[],
  ioTimes: [] as number[],
};
/** The page's own requestAnimationFrame: the benchmark's waits are not the scanner's frames. */
const raf = window.requestAnimationFrame.bind(window);
const SELECTOR = 'a[href*="/token/0x"]';
const MESSENGER = {
  whitelistedTokens: async () => ({ ok: true, result: [] }),
  oneClickQuote: async () => ({ ok: false, error: { code: 'X', message: 'bench' } }),
  openPopupPrefilled: async () => ({ ok: true, result: false }),
};

function countLayoutReads(): void {
  const count = () => {
    if (bench.counting) bench.layoutReads++;
  };
  const rect = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function (this: Element) {
    count();
    return rect.call(this);
  };
  const rects = Element.prototype.getClientRects;
  Element.prototype.getClientRects = function (this: Element) {
    count();
    return rects.call(this);
  };
  countLayoutGetters(count);
  const computed = window.getComputedStyle;
  window.getComputedStyle = (...args) => {
    count();
    return computed.apply(window, args);
  };
}

/** Long tasks (buffered), and how long each of the scanner's frames and IntersectionObserver callbacks ran. */
function timeTasks(): void {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  window.requestAnimationFrame = (callback) =>
    raf((time) => {
      const start = performance.now();
      callback(time);
      bench.frameTimes.push(performance.now() - start);
    });
  const Native = window.IntersectionObserver;
  window.IntersectionObserver = class extends Native {
    constructor(callback: IntersectionObserverCallback, init?: IntersectionObserverInit) {
      super((entries, observer) => {
        const start = performance.now();
        callback(entries, observer);
        bench.ioTimes.push(performance.now() - start);
      }, init);
    }
  };
}

const frames = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => raf(resolve));
};
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Phases are separated by quiet time so one phase's rendering never lands in another's window. */
const quiet = async () => {
  await frames(2);
  await wait(60);
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const overlaps = (task: { start: number; duration: number }, windows: Period[]) =>
  windows.some(([from, to]) => task.start < to && task.start + task.duration > from);
const longestIn = (windows: Period[]) =>
  Math.max(0, ...bench.longTasks.filter((task) => overlaps(task, windows)).map((task) => task.duration));

/** Baseline: querySelectorAll and a loop reading each href. */
function bare() {
  const start = performance.now();
  const list = document.querySelectorAll(SELECTOR);
  let n = 0;
  for (let i = 0; i < list.length; i++) if (list[i]?.getAttribute('href')) n++;
  return { ms: performance.now() - start, n };
}

function bareOnly() {
  const start = performance.now();
  const n = document.querySelectorAll(SELECTOR).length;
  return { ms: performance.now() - start, n };
}

/**
 * The page's own cost of a few plain insertions beside links: an empty inline span after each of the
 * first 40 links (the places the scanner's controls go), as many rounds as the scanner gets (removals
 * happen outside the windows, as the scanner's stop() does). A 10,000-row table re-lays itself out on
 * any insertion: this is the floor a control is held to.
 */
async function insertionBaseline(rounds: number): Promise<Period[]> {
  const windows: Period[] = [];
  for (let round = 0; round < rounds; round++) {
    const from = performance.now();
    const spans = [...document.querySelectorAll(SELECTOR)].slice(0, 40).map((link) => {
      const span = document.createElement('span');
      link.after(span);
      return span;
    });
    await frames(3);
    await wait(60);
    windows.push([from, performance.now()]);
    for (const span of spans) span.remove();
    await quiet();
  }
  return windows;
}

/** Fresh scanners on the same page, each against a bare pass (alternating which goes first). */
async function firstPasses(start: Start, rounds: number) {
  const result = {
    bare: [] as number[],
    bareOnly: [] as number[],
    first: [] as number[],
    windows: [] as Period[],
  };
  let buttonsNearViewport = 0;
  const scan = () => {
    bench.counting = true;
    const begin = performance.now();
    const scanner = start({ chainId: 1, messenger: MESSENGER });
    result.first.push(performance.now() - begin);
    bench.counting = false;
    return scanner;
  };
  const baseline = () => {
    result.bare.push(bare().ms);
    result.bareOnly.push(bareOnly().ms);
  };
  for (let round = 0; round < rounds; round++) {
    const from = performance.now();
    if (round % 2 === 0) baseline();
    const scanner = scan();
    if (round % 2 === 1) baseline();
    bench.counting = true;
    await frames(3); // IntersectionObserver delivers, runs near the viewport open up, buttons go in
    await wait(60);
    bench.counting = false;
    result.windows.push([from, performance.now()]);
    buttonsNearViewport = document.querySelectorAll('swaplane-swap').length;
    scanner.stop();
    await quiet();
  }
  return { ...result, buttonsNearViewport };
}

/** Mutation pass: rows appended one by one in a single task, as an infinite list does. */
async function mutationPhase(start: Start, extraRows: string[]) {
  const scanner = start({ chainId: 1, messenger: MESSENGER });
  await frames(3);
  const passesBefore = scanner.stats.passes;
  const tbody = document.querySelector('#list tbody') as HTMLElement;
  const template = document.createElement('template');
  template.innerHTML = extraRows.join('');
  const newRows = [...template.content.children];
  const scannerFrames = [...bench.frameTimes];
  await quiet();
  const from = performance.now();
  bench.frameTimes.length = 0;
  bench.counting = true;
  for (const tr of newRows) tbody.append(tr);
  while (scanner.stats.passes === passesBefore) await wait(1);
  await frames(3);
  await wait(60);
  bench.counting = false;
  const period: Period = [from, performance.now()];
  const passMs = Math.max(0, ...bench.frameTimes);
  const passes = scanner.stats.passes - passesBefore;
  const bareAfter = median([bare().ms, bare().ms, bare().ms]);
  scanner.stop();
  await frames(2);
  return { period, passMs, passes, bareAfter, scannerFrames };
}

async function measure({
  rounds,
  extraRows,
}: {
  rounds: number;
  extraRows: string[];
}): Promise<PageMeasurement> {
  const start = (globalThis as unknown as { __startScanner: Start }).__startScanner;
  const counts = {
    token: bare().n,
    address: document.querySelectorAll('a[href*="/address/"]').length,
    other: 0,
  };
  counts.other = document.querySelectorAll('a').length - counts.token - counts.address;
  await frames(2);
  await quiet();
  const baselineWindows = await insertionBaseline(rounds);
  const first = await firstPasses(start, rounds);
  const mutation = await mutationPhase(start, extraRows);
  const scannerWindows = [...first.windows, mutation.period];
  return {
    counts,
    bareMs: median(first.bare),
    bareOnlyMs: median(first.bareOnly),
    bareColdMs: first.bare[0] ?? 0,
    firstPassMs: median(first.first.slice(1)),
    firstPassColdMs: first.first[0] ?? 0,
    buttonsNearViewport: first.buttonsNearViewport,
    mutationPassMs: mutation.passMs,
    mutationPasses: mutation.passes,
    bareAfter: mutation.bareAfter,
    ioMax: Math.max(0, ...bench.ioTimes),
    longestScannerTaskMs: Math.max(
      0,
      ...first.first,
      ...mutation.scannerFrames,
      ...bench.frameTimes,
      ...bench.ioTimes,
    ),
    pageInsertionBaselineMs: longestIn(baselineWindows),
    roundsLongestTaskMs: longestIn(first.windows),
    mutationLongestTaskMs: longestIn([mutation.period]),
    longTasksOver50ms: bench.longTasks.filter((task) => task.duration > 50 && overlaps(task, scannerWindows))
      .length,
    layoutReads: bench.layoutReads,
  };
}

timeTasks();
countLayoutReads();
(globalThis as unknown as { __benchMeasure: typeof measure }).__benchMeasure = measure;
