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
import type { PageMeasurement } from './bench-explorer-page.ts';

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

/** An esbuild bundle (iife, minified) of a module given as source text, resolved from the repository. */
export async function bundle(contents: string): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no bundle');
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

/** The page's figures as the result, with the ratios and the built content script's size. */
function resultOf(measured: PageMeasurement, rounds: number, added: number): ExplorerBenchResult {
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
}

export async function benchExplorer(
  options: { links?: number; added?: number; rounds?: number } = {},
): Promise<ExplorerBenchResult> {
  const links = options.links ?? 10_000;
  const added = options.added ?? 1_000;
  const rounds = options.rounds ?? 7;
  const scanner = await bundle(
    "import { startScanner } from './lib/explorer/scanner.ts'; globalThis.__startScanner = startScanner;",
  );
  // Instruments the page before it loads: long tasks (buffered), layout reads, the scanner's frames
  // and IntersectionObserver callbacks; then measures the phases (scripts/bench-explorer-page.ts).
  const instruments = await bundle("import './scripts/bench-explorer-page.ts';");
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
    await page.addInitScript({ content: instruments });
    await page.goto('https://etherscan.io/tokens');
    await page.addScriptTag({ content: scanner });
    const measured = await page.evaluate(
      (input) =>
        (
          globalThis as unknown as { __benchMeasure: (input: unknown) => Promise<PageMeasurement> }
        ).__benchMeasure(input),
      { rounds, extraRows },
    );
    return resultOf(measured, rounds, added);
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
