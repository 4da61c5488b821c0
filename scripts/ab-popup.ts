// Two popup builds against the empty Preact page, in one browser, in rotating order: the only fair
// way to tell whether a change to the popup's start-up pays on a shared machine, whose load moves
// every absolute figure and even same-run ratios from one run to the next.
//   npx wxt build && npx tsx scripts/ab-popup.ts <other build's .output/chrome-mv3> [rounds]
// The other build's chunks are copied beside this build's (Vite names them by content, so a shared
// name is the same file) and its popup.html becomes popup-other.html: same extension, same origin,
// same background, same cached list. Prints p50 of the ready mark for each page and each popup's
// ratio, with the cached list and then reopened on a live quote (as scripts/bench-popup.ts), and
// the two builds compared round by round (p50 of this / other, and how many rounds this one won).
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { extensionIdOf, launchWithExtension, serviceWorkerOf } from '../tests/e2e/launch.ts';
import { buildEmptyPage, setUpAsUser, startLiveQuote } from './bench-popup.ts';
import { startEmbeddedDefault } from './embedded.ts';

const READY_MARK = 'swaplane:popup-ready';
/** popupStart's answer parsed (entrypoints/popup/main.tsx): from it to ready is the popup's own work. */
const START_MARK = 'swaplane:popup-start-in';
/** popupStart sent (the module's first line) and the module graph evaluated: the evaluation's time. */
const SENT_MARK = 'swaplane:popup-start-sent';
const MODULE_MARK = 'swaplane:popup-module';
const PAGES = ['empty', 'this', 'other'] as const;
type PageName = (typeof PAGES)[number];

/** The ready mark, and how long after the popup had its start (0 on the empty page, which has none). */
interface Open {
  ready: number;
  afterStart: number;
  /** From popupStart sent (the module's first line) to the module graph evaluated; 0 without the marks. */
  evaluation: number;
}

async function readyOf(context: BrowserContext, url: string): Promise<Open> {
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 360, height: 600 });
    await page.goto(url);
    await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, READY_MARK, {
      timeout: 10_000,
      polling: 50,
    });
    // Let the page finish what follows its first screen (the list, logos) before the next opens.
    await page.waitForTimeout(150);
    return await page.evaluate(
      // No named helpers in here: the page runs this as written, without tsx's `__name`.
      (names) => {
        const [ready, start, sent, evaluated] = names.map(
          (name) => performance.getEntriesByName(name)[0]?.startTime,
        );
        return {
          ready: ready ?? 0,
          afterStart: start === undefined ? 0 : (ready ?? 0) - start,
          evaluation: sent === undefined || evaluated === undefined ? 0 : evaluated - sent,
        };
      },
      [READY_MARK, START_MARK, SENT_MARK, MODULE_MARK],
    );
  } finally {
    await page.close();
  }
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function rotate(context: BrowserContext, urls: Record<PageName, string>, rounds: number) {
  const ready: Record<PageName, number[]> = { empty: [], this: [], other: [] };
  const afterStart: Record<PageName, number[]> = { empty: [], this: [], other: [] };
  const evaluation: Record<PageName, number[]> = { empty: [], this: [], other: [] };
  for (let round = 0; round < rounds; round++)
    for (let i = 0; i < PAGES.length; i++) {
      const name = PAGES[(round + i) % PAGES.length] as PageName;
      const open = await readyOf(context, urls[name]);
      ready[name].push(open.ready);
      afterStart[name].push(open.afterStart);
      evaluation[name].push(open.evaluation);
    }
  const empty = p50(ready.empty);
  // Paired within each round (the three opens are seconds apart, so the machine's load is nearly the
  // same for them): cancels the drift of a shared machine's load across the run.
  const paired = ready.this.map((ms, round) => ms / (ready.other[round] ?? Number.NaN));
  return {
    emptyMs: Number(empty.toFixed(1)),
    thisMs: Number(p50(ready.this).toFixed(1)),
    otherMs: Number(p50(ready.other).toFixed(1)),
    thisRatio: Number((p50(ready.this) / empty).toFixed(2)),
    otherRatio: Number((p50(ready.other) / empty).toFixed(2)),
    /** p50 of this / other in the same round (< 1: this build is faster). */
    pairedThisOverOther: Number(p50(paired).toFixed(3)),
    /** Rounds in which this build was ready first. */
    thisFirstInRounds: `${paired.filter((ratio) => ratio < 1).length} of ${paired.length}`,
    /** p50 from popupStart's answer parsed to ready: render, first frame, effects (less noisy). */
    thisAfterStartMs: Number(p50(afterStart.this).toFixed(1)),
    otherAfterStartMs: Number(p50(afterStart.other).toFixed(1)),
    /** p50 of the module's evaluation (0 for a build without the marks). */
    thisEvaluationMs: Number(p50(evaluation.this).toFixed(1)),
    otherEvaluationMs: Number(p50(evaluation.other).toFixed(1)),
  };
}

async function main() {
  const other = process.argv[2];
  if (!other) throw new Error('usage: npx tsx scripts/ab-popup.ts <other build dir> [rounds]');
  const rounds = Number(process.argv[3] ?? 20);
  const work = mkdtempSync(path.join(tmpdir(), 'swaplane-ab-popup-'));
  const extension = path.join(work, 'extension');
  cpSync(path.resolve('.output/chrome-mv3'), extension, { recursive: true });
  for (const dir of ['chunks', 'assets'])
    for (const file of readdirSync(path.join(other, dir)))
      cpSync(path.join(other, dir, file), path.join(extension, dir, file));
  cpSync(path.join(other, 'popup.html'), path.join(extension, 'popup-other.html'));
  await buildEmptyPage(path.join(extension, 'bench-empty'));
  const embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  const browser = await launchWithExtension(extension);
  try {
    const { context } = browser;
    const id = extensionIdOf(await serviceWorkerOf(context));
    const urls = {
      empty: `chrome-extension://${id}/bench-empty/empty.html`,
      this: `chrome-extension://${id}/popup.html`,
      other: `chrome-extension://${id}/popup-other.html`,
    };
    const setup = await setUpAsUser(context, urls.this, embedded);
    await rotate(context, urls, 3); // warm-up
    const cachedList = await rotate(context, urls, rounds);
    await startLiveQuote(setup);
    const liveQuote = await rotate(context, urls, rounds);
    console.log(JSON.stringify({ rounds, cachedList, liveQuote }, null, 2));
  } finally {
    await browser.close();
    await embedded.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
