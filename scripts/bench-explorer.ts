// Content script on a 10,000-link explorer page (docs/PERFORMANCE.md): the scanner's first pass and a
// mutation pass against a bare querySelectorAll pass over the same links, same page, same run; the
// longest task; layout reads during passes; and the built content script's gzip size.
//
// The scanner runs as the content script would (same code, bundled with esbuild) in a plain Chromium
// page served at https://etherscan.io/tokens, with a background stand-in that answers at once, so
// the figures are the DOM work alone. Each round starts a fresh scanner on the same page.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';

export interface ExplorerBenchResult {
  /** Links on the synthetic page: /token/ links (the baseline's), /address/ links, other links. */
  links: { token: number; address: number; other: number };
  rounds: number;
  /** Baseline: querySelectorAll('a[href*="/token/0x"]') and a loop reading each href (median, ms). */
  bareMs: number;
  /** The same querySelectorAll without the loop (median, ms). */
  bareQuerySelectorAllOnlyMs: number;
  /** The scanner's first pass (startScanner: scan, parse, observe), median of warm rounds (ms). */
  firstPassMs: number;
  /** The very first run in the page: cold code, as on a real page load (ms). */
  firstPassColdMs: number;
  /** firstPassMs / bareMs (budget <= 2). */
  firstPassRatio: number;
  /** firstPassColdMs / the first bare run (also cold). */
  firstPassColdRatio: number;
  /** Buttons injected near the viewport after the first pass (the rest wait for scrolling). */
  buttonsNearViewport: number;
  mutation: {
    rows: number;
    /** The one pass that handled the added rows (ms). */
    passMs: number;
    /** Passes it took (1: batched). */
    passes: number;
    /** Baseline: a bare pass over the whole page after the rows were added (ms). */
    bareMs: number;
    /** passMs / bareMs. */
    ratio: number;
  };
  /** The slowest IntersectionObserver callback (it injects the buttons that came near) (ms). */
  intersectionCallbackMaxMs: number;
  /**
   * Long tasks, ms ('longtask' PerformanceObserver, attributed by time window; plus the scanner's own
   * timings). Budget: none over 50 ms.
   */
  longTasks: {
    /** The longest stretch of scanner code in one task: first pass (cold included), frame passes,
     * IntersectionObserver callbacks. */
    scannerMs: number;
    /** Longest task of any kind from a scanner's start until its buttons are in: our code and the
     * browser's style, layout and paint after the insertions. */
    startMs: number;
    /** Longest task of any kind in the mutation phase: the page's own relayout after its 1,000 new
     * rows, then our pass and insertions. */
    mutationPhaseMs: number;
    /** Baseline, same page, same run, no scanner: the longest task after inserting 40 plain <span>s
     * beside links (as many rounds as `startMs` had). A 10,000-row auto-layout table re-lays itself
     * out on any insertion: that part is the page's cost, not the scanner's. */
    pageInsertionBaselineMs: number;
    /** Tasks over 50 ms of any kind in those scanner windows. */
    over50ms: number;
  };
  /** getBoundingClientRect, offset*, client*, getComputedStyle... called during passes (budget 0). */
  layoutReadsDuringPasses: number;
  /** .output/chrome-mv3/content-scripts/explorer.js, gzip -9 (null when not built). */
  contentScriptGzipBytes: number | null;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CONTENT_SCRIPT = path.join(ROOT, '.output/chrome-mv3/content-scripts/explorer.js');

async function scannerBundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents:
        "import { startScanner } from './lib/explorer/scanner.ts'; globalThis.__startScanner = startScanner;",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no scanner bundle');
  return output.text;
}

const hex = (i: number, salt: number) => `0x${(i * 7919 + salt).toString(16).padStart(40, '0')}`;

/** An Etherscan-like token list: one /token/ link per row, an /address/ link every 10 rows, a /tx/ link each. */
function syntheticPage(rows: number): string {
  const body: string[] = [];
  for (let i = 0; i < rows; i++) body.push(row(i));
  return `<!doctype html><html><head><title>Token Tracker | Etherscan</title>
<style>body{font:14px system-ui;margin:0}td{padding:10px 8px;border-bottom:1px solid #eee}a{color:#0784c3}</style></head>
<body><h1>Token Tracker (ERC-20)</h1><table id="list"><tbody>${body.join('')}</tbody></table></body></html>`;
}

function row(i: number): string {
  const address = i % 10 === 0 ? `<a href="/address/${hex(i, 2)}">${hex(i, 2).slice(0, 10)}…</a>` : '';
  return `<tr><td>${i + 1}</td><td><a class="d-flex" href="/token/${hex(i, 1)}"><div class="hash-tag">Token ${i}</div><span>(T${i})</span></a></td><td><a href="/tx/0x${i.toString(16).padStart(64, '0')}">tx</a></td><td>${address}</td><td>$${(i % 997) + 1}.00</td></tr>`;
}

export async function benchExplorer(
  options: { links?: number; added?: number; rounds?: number } = {},
): Promise<ExplorerBenchResult> {
  const links = options.links ?? 10_000;
  const added = options.added ?? 1_000;
  const rounds = options.rounds ?? 7;
  const bundle = await scannerBundle();
  const html = syntheticPage(links);
  const extraRows = Array.from({ length: added }, (_, i) => row(links + i));

  const args = ['--disable-gpu', '--no-first-run', '--disable-background-networking'];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.route('https://etherscan.io/**', (route) =>
      route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }),
    );
    // tsx (esbuild keepNames) wraps named functions in __name(); give the page a no-op one first.
    await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    // Instruments before the page loads: long tasks (buffered), layout reads, the scanner's frames
    // and IntersectionObserver callbacks.
    await page.addInitScript(() => {
      const bench = {
        longTasks: [] as { start: number; duration: number }[],
        layoutReads: 0,
        counting: false,
        frameTimes: [] as number[],
        ioTimes: [] as number[],
      };
      (globalThis as unknown as { __bench: typeof bench }).__bench = bench;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask', buffered: true });
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
      const getters: [object, string][] = [
        [HTMLElement.prototype, 'offsetWidth'],
        [HTMLElement.prototype, 'offsetHeight'],
        [HTMLElement.prototype, 'offsetTop'],
        [HTMLElement.prototype, 'offsetLeft'],
        [Element.prototype, 'clientWidth'],
        [Element.prototype, 'clientHeight'],
        [Element.prototype, 'scrollTop'],
        [Element.prototype, 'scrollHeight'],
        [HTMLElement.prototype, 'innerText'],
      ];
      for (const [proto, name] of getters) {
        const descriptor = Object.getOwnPropertyDescriptor(proto, name);
        if (!descriptor?.get) continue;
        const get = descriptor.get;
        Object.defineProperty(proto, name, {
          ...descriptor,
          get() {
            count();
            return get.call(this);
          },
        });
      }
      const computed = window.getComputedStyle;
      window.getComputedStyle = (...args) => {
        count();
        return computed.apply(window, args);
      };
      const raf = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (callback) =>
        raf((time) => {
          const start = performance.now();
          callback(time);
          bench.frameTimes.push(performance.now() - start);
        });
      (globalThis as unknown as { __raf: typeof raf }).__raf = raf;
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
    });
    await page.goto('https://etherscan.io/tokens');
    await page.addScriptTag({ content: bundle });

    const measured = await page.evaluate(
      async ({ rounds, extraRows }) => {
        type Scanner = { stats: { passes: number }; stop(): void };
        type Start = (options: { chainId: number; messenger: unknown }) => Scanner;
        const g = globalThis as unknown as {
          __startScanner: Start;
          __raf: (callback: FrameRequestCallback) => number;
          __bench: {
            longTasks: { start: number; duration: number }[];
            layoutReads: number;
            counting: boolean;
            frameTimes: number[];
            ioTimes: number[];
          };
        };
        const bench = g.__bench;
        const messenger = {
          whitelistedTokens: async () => ({ ok: true, result: [] }),
          oneClickQuote: async () => ({ ok: false, error: { code: 'X', message: 'bench' } }),
          openPopupPrefilled: async () => ({ ok: true, result: false }),
        };
        const frames = async (n: number) => {
          for (let i = 0; i < n; i++) await new Promise((resolve) => g.__raf(resolve));
        };
        const median = (values: number[]) => {
          const sorted = [...values].sort((a, b) => a - b);
          return sorted[Math.floor(sorted.length / 2)] ?? 0;
        };
        const selector = 'a[href*="/token/0x"]';
        const bare = () => {
          const start = performance.now();
          const list = document.querySelectorAll(selector);
          let n = 0;
          for (let i = 0; i < list.length; i++) if (list[i]?.getAttribute('href')) n++;
          return { ms: performance.now() - start, n };
        };
        const bareOnly = () => {
          const start = performance.now();
          const n = document.querySelectorAll(selector).length;
          return { ms: performance.now() - start, n };
        };
        const counts = {
          token: bare().n,
          address: document.querySelectorAll('a[href*="/address/"]').length,
          other: 0,
        };
        counts.other = document.querySelectorAll('a').length - counts.token - counts.address;
        await frames(2);

        // Long tasks are attributed by time window: [start, end] of each phase, phases separated by
        // quiet time so one phase's rendering never lands in another's window.
        const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
        const quiet = async () => {
          await frames(2);
          await wait(60);
        };
        type Window = [number, number];
        const longestIn = (windows: Window[]) =>
          Math.max(
            0,
            ...bench.longTasks
              .filter((task) =>
                windows.some(([from, to]) => task.start < to && task.start + task.duration > from),
              )
              .map((task) => task.duration),
          );
        const baselineWindows: Window[] = [];
        const startWindows: Window[] = [];
        await quiet();

        // Baseline: the page's own cost of a few plain insertions beside links, as many rounds as the
        // scanner gets below (removals happen outside the windows, as the scanner's stop() does).
        for (let round = 0; round < rounds; round++) {
          const from = performance.now();
          const spans = [...document.querySelectorAll(selector)].slice(0, 40).map((link) => {
            const span = document.createElement('span');
            span.textContent = 'Swap';
            link.after(span);
            return span;
          });
          await frames(3);
          await wait(60);
          baselineWindows.push([from, performance.now()]);
          for (const span of spans) span.remove();
          await quiet();
        }

        const bareTimes: number[] = [];
        const bareOnlyTimes: number[] = [];
        const firstTimes: number[] = [];
        let buttonsNearViewport = 0;
        for (let round = 0; round < rounds; round++) {
          // Alternate which goes first so neither always runs on a warmer cache.
          const scan = () => {
            bench.counting = true;
            const start = performance.now();
            const scanner = g.__startScanner({ chainId: 1, messenger });
            firstTimes.push(performance.now() - start);
            bench.counting = false;
            return scanner;
          };
          const from = performance.now();
          let scanner: Scanner;
          if (round % 2 === 0) {
            bareTimes.push(bare().ms);
            bareOnlyTimes.push(bareOnly().ms);
            scanner = scan();
          } else {
            scanner = scan();
            bareTimes.push(bare().ms);
            bareOnlyTimes.push(bareOnly().ms);
          }
          bench.counting = true;
          await frames(3); // IntersectionObserver delivers, runs near the viewport open up, buttons go in
          await wait(60);
          bench.counting = false;
          startWindows.push([from, performance.now()]);
          buttonsNearViewport = document.querySelectorAll('swaplane-swap').length;
          scanner.stop();
          await quiet();
        }

        // Mutation pass: 1,000 rows appended one by one in a single task, as an infinite list does.
        const scanner = g.__startScanner({ chainId: 1, messenger });
        await frames(3);
        const passesBefore = scanner.stats.passes;
        const tbody = document.querySelector('#list tbody') as HTMLElement;
        const template = document.createElement('template');
        template.innerHTML = extraRows.join('');
        const newRows = [...template.content.children];
        const scannerFrames = [...bench.frameTimes];
        await quiet();
        const mutationStart = performance.now();
        bench.frameTimes.length = 0;
        bench.counting = true;
        for (const tr of newRows) tbody.append(tr);
        while (scanner.stats.passes === passesBefore) await new Promise((resolve) => setTimeout(resolve, 1));
        await frames(3);
        await wait(60);
        bench.counting = false;
        const mutationWindow: Window = [mutationStart, performance.now()];
        const mutationPassMs = Math.max(0, ...bench.frameTimes);
        const mutationPasses = scanner.stats.passes - passesBefore;
        const bareAfter = median([bare().ms, bare().ms, bare().ms]);
        scanner.stop();
        await frames(2);

        const tasks = bench.longTasks.filter((task) =>
          [...startWindows, mutationWindow].some(
            ([from, to]) => task.start < to && task.start + task.duration > from,
          ),
        );
        return {
          counts,
          bareMs: median(bareTimes),
          bareOnlyMs: median(bareOnlyTimes),
          bareColdMs: bareTimes[0] ?? 0,
          firstPassMs: median(firstTimes.slice(1)),
          firstPassColdMs: firstTimes[0] ?? 0,
          buttonsNearViewport,
          mutationPassMs,
          mutationPasses,
          bareAfter,
          ioMax: Math.max(0, ...bench.ioTimes),
          longestScannerTaskMs: Math.max(
            0,
            ...firstTimes,
            ...scannerFrames,
            ...bench.frameTimes,
            ...bench.ioTimes,
          ),
          pageInsertionBaselineMs: longestIn(baselineWindows),
          roundsLongestTaskMs: longestIn(startWindows),
          mutationLongestTaskMs: longestIn([mutationWindow]),
          longTasksOver50ms: tasks.filter((task) => task.duration > 50).length,
          layoutReads: bench.layoutReads,
        };
      },
      { rounds, extraRows },
    );

    const gzip = existsSync(CONTENT_SCRIPT)
      ? gzipSync(readFileSync(CONTENT_SCRIPT), { level: 9 }).length
      : null;
    return {
      links: measured.counts,
      rounds,
      bareMs: measured.bareMs,
      bareQuerySelectorAllOnlyMs: measured.bareOnlyMs,
      firstPassMs: measured.firstPassMs,
      firstPassColdMs: measured.firstPassColdMs,
      firstPassRatio: measured.firstPassMs / measured.bareMs,
      firstPassColdRatio: measured.firstPassColdMs / measured.bareColdMs,
      buttonsNearViewport: measured.buttonsNearViewport,
      mutation: {
        rows: added,
        passMs: measured.mutationPassMs,
        passes: measured.mutationPasses,
        bareMs: measured.bareAfter,
        ratio: measured.mutationPassMs / measured.bareAfter,
      },
      intersectionCallbackMaxMs: measured.ioMax,
      longTasks: {
        scannerMs: measured.longestScannerTaskMs,
        startMs: measured.roundsLongestTaskMs,
        mutationPhaseMs: measured.mutationLongestTaskMs,
        pageInsertionBaselineMs: measured.pageInsertionBaselineMs,
        over50ms: measured.longTasksOver50ms,
      },
      layoutReadsDuringPasses: measured.layoutReads,
      contentScriptGzipBytes: gzip,
    };
  } finally {
    await browser.close();
  }
}

// `tsx scripts/bench-explorer.ts` prints the figures on their own.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  benchExplorer().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
