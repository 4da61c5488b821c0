// Popup ready with a cached token list, against an empty Preact popup in the same browser
// (docs/PERFORMANCE.md: <= 1.25x; reopened on a live quote <= 1.3x).
//
// - Baseline: scripts/bench-popup/empty.html, a trivial Preact component built with Vite and the same
//   Preact preset as the extension, copied into a copy of the built extension (so it is an extension
//   page of the same extension, same origin, same process model) and never shipped.
// - Figure: the real popup.html, unlocked wallet, settings on the embedded default, token list already
//   fetched once (the cache is warm), quote session empty.
// - Ready: the `swaplane:popup-ready` performance mark, relative to the page's navigation start. Both
//   pages set it from a Preact effect, which runs after the first paint of what it rendered: for the
//   empty page its first render, for the popup the swap screen showing the live quote session, with
//   the form restored from it and the wallet, settings and the session's tokens from the cached list
//   (hooks/useSwapForm.ts). The whole list (2,000 tokens) follows for the pickers: the popup asks for it
//   after its first frame, and when it is in (`swaplane:popup-token-list`) is reported beside.
// - Each round opens both pages as new tabs, in alternating order; p50 over all rounds.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from '@playwright/test';
import preact from '@preact/preset-vite';
import { build } from 'vite';
import { extensionIdOf, launchWithExtension, serviceWorkerOf } from '../tests/e2e/launch.ts';
import { USDC } from '../tests/support/addresses.ts';
import { startEmbeddedDefault } from './embedded.ts';

const READY_MARK = 'swaplane:popup-ready';
const LIST_MARK = 'swaplane:popup-token-list';
const OUTPUT = path.resolve('.output/chrome-mv3');
const PASSWORD = 'bench popup password';
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
const QUOTE_INPUT = {
  chainId: 1,
  inToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
  outToken: USDC,
  inAmount: '1000000000000000000',
  slippage: 0.5,
};

export interface PopupReadyResult {
  rounds: number;
  emptyP50Ms: number;
  popupP50Ms: number;
  emptyP95Ms: number;
  popupP95Ms: number;
  /** Reopened on a live quote session (form, quote card and route restored), alternating with empty. */
  quote: { rounds: number; emptyP50Ms: number; popupP50Ms: number; popupPhases: Phases };
  /** When the whole token list was in the popup's pickers, p50 (ms from navigation start). */
  popupListP50Ms: number;
  /** popupP50Ms / emptyP50Ms (budget <= 1.25). */
  ratio: number;
  /** Where the popup's time goes, p50 of each phase end (ms from navigation start). */
  popupPhases: Phases;
  emptyPhases: Phases;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Builds the empty Preact page into `outDir` (a folder of the copied extension). */
export async function buildEmptyPage(outDir: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.resolve('scripts/bench-popup'),
    base: './',
    plugins: [preact()],
    build: { outDir, emptyOutDir: true, rollupOptions: { input: 'empty.html' } },
  });
}

/** The popup's own start-up marks (entrypoints/popup/main.tsx); 0 for the empty page. */
const PHASE_MARKS = {
  startSent: 'swaplane:popup-start-sent',
  startAnswered: 'swaplane:popup-start-answered',
  moduleEvaluated: 'swaplane:popup-module',
  startParsed: 'swaplane:popup-start-in',
  firstRender: 'swaplane:popup-rendered',
} as const;
type PhaseMarks = Record<keyof typeof PHASE_MARKS, number>;

interface Phases extends PhaseMarks {
  responseEnd: number;
  domContentLoaded: number;
  firstPaint: number;
  ready: number;
}

interface Sample extends PhaseMarks {
  responseEnd: number;
  domContentLoaded: number;
  firstPaint: number;
  ready: number;
  /** The popup's whole-list mark (0 for the empty page). */
  list: number;
}

async function openUntilReady(context: BrowserContext, url: string, marks: string[]): Promise<Sample> {
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 360, height: 600 });
    await page.goto(url);
    await page.waitForFunction(
      (names) => names.every((name) => performance.getEntriesByName(name).length > 0),
      marks,
      { timeout: 10_000, polling: 50 },
    );
    return await page.evaluate(
      ([mark, listMark, phaseMarks]) => {
        const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        const paint = performance.getEntriesByName('first-paint')[0];
        return {
          responseEnd: navigation?.responseEnd ?? 0,
          domContentLoaded: navigation?.domContentLoadedEventEnd ?? 0,
          firstPaint: paint?.startTime ?? 0,
          ready: performance.getEntriesByName(mark)[0]?.startTime ?? 0,
          list: performance.getEntriesByName(listMark)[0]?.startTime ?? 0,
          startSent: performance.getEntriesByName(phaseMarks.startSent)[0]?.startTime ?? 0,
          startAnswered: performance.getEntriesByName(phaseMarks.startAnswered)[0]?.startTime ?? 0,
          moduleEvaluated: performance.getEntriesByName(phaseMarks.moduleEvaluated)[0]?.startTime ?? 0,
          startParsed: performance.getEntriesByName(phaseMarks.startParsed)[0]?.startTime ?? 0,
          firstRender: performance.getEntriesByName(phaseMarks.firstRender)[0]?.startTime ?? 0,
        };
      },
      [READY_MARK, LIST_MARK, PHASE_MARKS] as const,
    );
  } finally {
    await page.close();
  }
}

type Embedded = Awaited<ReturnType<typeof startEmbeddedDefault>>;
type Page = Awaited<ReturnType<BrowserContext['newPage']>>;

/**
 * Points the extension at the embedded default and imports the bench's wallet, from an extension
 * page already open (`page`), through the background's own messages.
 */
export async function importBenchWallet(page: Page, embedded: Embedded): Promise<void> {
  await page.evaluate(
    async ({ serviceUrl, rpcUrls, secret, password }) => {
      type Runtime = { sendMessage(message: unknown): Promise<{ ok: boolean; result: unknown }> };
      const runtime = (globalThis as unknown as { chrome: { runtime: Runtime } }).chrome.runtime;
      const settings = await runtime.sendMessage({ type: 'getSettings' });
      const updated = await runtime.sendMessage({
        type: 'updateSettings',
        settings: { ...(settings.result as object), serviceBaseUrl: serviceUrl, rpcOverrides: rpcUrls },
      });
      const imported = await runtime.sendMessage({
        type: 'walletImport',
        kind: 'mnemonic',
        secret,
        password,
        confirmation: password,
      });
      if (!updated.ok || !imported.ok) throw new Error('bench setup failed');
    },
    {
      serviceUrl: embedded.service.url,
      rpcUrls: embedded.rpcUrls,
      secret: ANVIL_MNEMONIC,
      password: PASSWORD,
    },
  );
}

/**
 * Sets the extension up as a user would have it: settings on the embedded default, a wallet, the
 * list fetched once. Returns the setup page, which stays open (as another view would) so the worker
 * is not idled out mid-run.
 */
export async function setUpAsUser(
  context: BrowserContext,
  popupUrl: string,
  embedded: Embedded,
): Promise<Page> {
  const setup = await context.newPage();
  await setup.goto(popupUrl);
  await importBenchWallet(setup, embedded);
  await setup.reload();
  await setup.locator('form.swap[data-ready="true"]').waitFor({ timeout: 20_000 });
  const cached = await setup.evaluate(async () => {
    type Runtime = {
      sendMessage(message: unknown): Promise<{ ok: boolean; result: { tokens: unknown[] } }>;
    };
    const runtime = (globalThis as unknown as { chrome: { runtime: Runtime } }).chrome.runtime;
    return (await runtime.sendMessage({ type: 'getTokenList', chainId: 1 })).result.tokens.length;
  });
  if (cached === 0) throw new Error('the token list was not cached');
  return setup;
}

/** Sets the session's input from the setup page and waits for its quote to be ready. */
export async function startLiveQuote(setup: Page): Promise<void> {
  const quoted = await setup.evaluate(async (input) => {
    type Start = { ok: boolean; result: { session: { status: string } } };
    type Runtime = { sendMessage(message: unknown): Promise<Start> };
    const runtime = (globalThis as unknown as { chrome: { runtime: Runtime } }).chrome.runtime;
    await runtime.sendMessage({ type: 'setQuoteInput', input });
    for (let i = 0; i < 100; i++) {
      const start = await runtime.sendMessage({ type: 'popupStart' });
      if (start.result.session.status === 'ready') return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }, QUOTE_INPUT);
  if (!quoted) throw new Error('the live quote for the bench did not arrive');
}

/** `count` rounds opening both pages, in alternating order. */
async function alternate(context: BrowserContext, emptyUrl: string, popupUrl: string, count: number) {
  const empty: Sample[] = [];
  const popup: Sample[] = [];
  const openEmpty = async () => empty.push(await openUntilReady(context, emptyUrl, [READY_MARK]));
  const openPopup = async () => popup.push(await openUntilReady(context, popupUrl, [READY_MARK, LIST_MARK]));
  for (let round = 0; round < count; round++) {
    if (round % 2 === 0) {
      await openEmpty();
      await openPopup();
    } else {
      await openPopup();
      await openEmpty();
    }
  }
  return { empty, popup };
}

const p50 = (samples: Sample[], pick: (sample: Sample) => number) => percentile(samples.map(pick), 50);

/** Where a page's time goes: p50 of each phase end. */
const phasesOf = (samples: Sample[]): Phases => ({
  responseEnd: p50(samples, (sample) => sample.responseEnd),
  startSent: p50(samples, (sample) => sample.startSent),
  startAnswered: p50(samples, (sample) => sample.startAnswered),
  moduleEvaluated: p50(samples, (sample) => sample.moduleEvaluated),
  startParsed: p50(samples, (sample) => sample.startParsed),
  firstRender: p50(samples, (sample) => sample.firstRender),
  domContentLoaded: p50(samples, (sample) => sample.domContentLoaded),
  firstPaint: p50(samples, (sample) => sample.firstPaint),
  ready: p50(samples, (sample) => sample.ready),
});

function summarize(
  rounds: number,
  { empty, popup }: { empty: Sample[]; popup: Sample[] },
  withQuote: { empty: Sample[]; popup: Sample[] },
): PopupReadyResult {
  const emptyReady = empty.map((sample) => sample.ready);
  const popupReady = popup.map((sample) => sample.ready);
  const emptyP50Ms = percentile(emptyReady, 50);
  const popupP50Ms = percentile(popupReady, 50);
  return {
    rounds,
    emptyP50Ms,
    popupP50Ms,
    emptyP95Ms: percentile(emptyReady, 95),
    popupP95Ms: percentile(popupReady, 95),
    quote: {
      rounds: Math.ceil(rounds / 2),
      emptyP50Ms: p50(withQuote.empty, (sample) => sample.ready),
      popupP50Ms: p50(withQuote.popup, (sample) => sample.ready),
      popupPhases: phasesOf(withQuote.popup),
    },
    popupListP50Ms: p50(popup, (sample) => sample.list),
    ratio: popupP50Ms / emptyP50Ms,
    popupPhases: phasesOf(popup),
    emptyPhases: phasesOf(empty),
  };
}

export async function benchPopupReady(rounds = 60): Promise<PopupReadyResult> {
  const work = mkdtempSync(path.join(tmpdir(), 'swaplane-bench-popup-'));
  const extension = path.join(work, 'extension');
  cpSync(OUTPUT, extension, { recursive: true });
  await buildEmptyPage(path.join(extension, 'bench-empty'));
  const embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  const browser = await launchWithExtension(extension);
  try {
    const { context } = browser;
    const extensionId = extensionIdOf(await serviceWorkerOf(context));
    const popupUrl = `chrome-extension://${extensionId}/popup.html`;
    const emptyUrl = `chrome-extension://${extensionId}/bench-empty/empty.html`;
    const setup = await setUpAsUser(context, popupUrl, embedded);
    // Warm-up: the first opens of each page compile and cache their code.
    await alternate(context, emptyUrl, popupUrl, 5);
    const cachedList = await alternate(context, emptyUrl, popupUrl, rounds);
    // Reopened on a live quote (1 ETH -> USDC): the form restored, the quote card and its route in
    // the first frame. The session refreshes its quote while the popup is open, as it would for a user.
    await startLiveQuote(setup);
    const withQuote = await alternate(context, emptyUrl, popupUrl, Math.ceil(rounds / 2));
    return summarize(rounds, cachedList, withQuote);
  } finally {
    await browser.close();
    await embedded.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

// `npx tsx scripts/bench-popup.ts [rounds]` runs this benchmark alone (after `npx wxt build`).
if (import.meta.url === `file://${process.argv[1]}`) {
  benchPopupReady(Number(process.argv[2] ?? 60)).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
