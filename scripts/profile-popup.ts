// Where the popup's start-up time goes: a Chromium trace (through CDP) of opening popup.html and of
// the bench's empty Preact page, in the same browser, set up as scripts/bench-popup.ts sets it up.
// Per page and phase (ms, median of the rounds): script compile, module evaluation, style and
// layout, paint, idle (waiting on the worker or the browser), up to the ready mark.
//   npx wxt build && npx tsx scripts/profile-popup.ts [rounds] [--quote]
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { extensionIdOf, launchWithExtension, serviceWorkerOf } from '../tests/e2e/launch.ts';
import { buildEmptyPage, setUpAsUser, startLiveQuote } from './bench-popup.ts';
import { startEmbeddedDefault } from './embedded.ts';

const READY_MARK = 'swaplane:popup-ready';
const CATEGORIES = [
  'devtools.timeline',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
].join(',');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; frame?: string }; fileName?: string };
}

/** Buckets of main-thread time by what the renderer did; top-level events only (no double count). */
const BUCKETS: [string, RegExp][] = [
  [
    'compile',
    /^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.produceModuleCache|v8\.parseOnBackground)$/,
  ],
  ['evaluate', /^(EvaluateScript|v8\.evaluateModule|v8\.run)$/],
  [
    'callbacks',
    /^(FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.GC.*|MajorGC|MinorGC)$/,
  ],
  [
    'style+layout',
    /^(UpdateLayoutTree|Layout|RecalculateStyles|ParseAuthorStyleSheet|UpdateLayerTree|PrePaint|IntersectionObserverController::computeIntersections)$/,
  ],
  ['paint', /^(Paint|PaintImage|Layerize|Commit|CompositeLayers|RasterTask)$/],
  ['html', /^(ParseHTML)$/],
];

async function traceOpen(context: BrowserContext, url: string) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 360, height: 600 });
  const cdp = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => {
    events.push(...(data.value as unknown as TraceEvent[]));
  });
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await page.goto(url);
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, READY_MARK, {
    polling: 20,
  });
  const ready = await page.evaluate(
    (mark) => performance.getEntriesByName(mark)[0]?.startTime ?? 0,
    READY_MARK,
  );
  await cdp.send('Tracing.end');
  await done;
  await page.close();
  return { events, ready };
}

let dumps = 0;

function summarise({ events, ready }: { events: TraceEvent[]; ready: number }) {
  if (process.env.PROFILE_DUMP)
    writeFileSync(`${process.env.PROFILE_DUMP}-${dumps++}.json`, JSON.stringify(events));
  const nav = events.find((event) => event.name === 'navigationStart' && event.args?.data?.frame);
  const start = nav?.ts ?? Math.min(...events.map((event) => event.ts));
  const end = start + ready * 1000;
  const main = nav ? { pid: nav.pid, tid: nav.tid } : null;
  const onMain = events.filter(
    (event) => event.ph === 'X' && (!main || (event.pid === main.pid && event.tid === main.tid)),
  );
  // Top-level: an event not inside an earlier, longer one on the same thread.
  onMain.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const top: TraceEvent[] = [];
  let until = 0;
  for (const event of onMain) {
    if (event.ts >= until) {
      top.push(event);
      until = event.ts + (event.dur ?? 0);
    }
  }
  const totals: Record<string, number> = {};
  const scripts: Record<string, number> = {};
  let busy = 0;
  for (const event of top) {
    const from = Math.max(event.ts, start);
    const to = Math.min(event.ts + (event.dur ?? 0), end);
    if (to <= from) continue;
    const ms = (to - from) / 1000;
    busy += ms;
    const bucket = BUCKETS.find(([, pattern]) => pattern.test(event.name))?.[0] ?? `other:${event.name}`;
    totals[bucket] = (totals[bucket] ?? 0) + ms;
    const url = event.args?.data?.url ?? event.args?.fileName;
    if (url && /compile|evaluate/.test(bucket)) {
      const key = `${bucket} ${url.split('/').slice(-1)[0]}`;
      scripts[key] = (scripts[key] ?? 0) + ms;
    }
  }
  // Compile events nested under evaluation, per script (the top-level pass hides them).
  for (const event of onMain) {
    if (!/compile/i.test(event.name) || event.ts > end) continue;
    const url = event.args?.data?.url ?? event.args?.fileName;
    if (!url) continue;
    const key = `nested ${event.name} ${url.split('/').slice(-1)[0]}`;
    scripts[key] = (scripts[key] ?? 0) + (event.dur ?? 0) / 1000;
  }
  return { ready, busy, idle: ready - busy, totals, scripts };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function medians(rounds: ReturnType<typeof summarise>[]) {
  const keys = (pick: (r: ReturnType<typeof summarise>) => Record<string, number>) =>
    [...new Set(rounds.flatMap((round) => Object.keys(pick(round))))].sort();
  const of = (pick: (r: ReturnType<typeof summarise>) => Record<string, number>) =>
    Object.fromEntries(
      keys(pick)
        .map((key) => [key, Number(median(rounds.map((round) => pick(round)[key] ?? 0)).toFixed(1))] as const)
        .filter(([, ms]) => ms >= 0.5),
    );
  return {
    ready: Number(median(rounds.map((round) => round.ready)).toFixed(1)),
    busy: Number(median(rounds.map((round) => round.busy)).toFixed(1)),
    idle: Number(median(rounds.map((round) => round.idle)).toFixed(1)),
    totals: of((round) => round.totals),
    scripts: of((round) => round.scripts),
  };
}

async function main() {
  const rounds = Number(process.argv[2] ?? 8);
  const withQuote = process.argv.includes('--quote');
  const work = mkdtempSync(path.join(tmpdir(), 'swaplane-profile-popup-'));
  const extension = path.join(work, 'extension');
  cpSync(path.resolve('.output/chrome-mv3'), extension, { recursive: true });
  await buildEmptyPage(path.join(extension, 'bench-empty'));
  const embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  const browser = await launchWithExtension(extension);
  try {
    const { context } = browser;
    const id = extensionIdOf(await serviceWorkerOf(context));
    const popupUrl = `chrome-extension://${id}/popup.html`;
    const emptyUrl = `chrome-extension://${id}/bench-empty/empty.html`;
    const setup = await setUpAsUser(context, popupUrl, embedded);
    if (withQuote) await startLiveQuote(setup);
    const popup: ReturnType<typeof summarise>[] = [];
    const empty: ReturnType<typeof summarise>[] = [];
    for (let round = 0; round < rounds + 2; round++) {
      const a = summarise(await traceOpen(context, popupUrl));
      const b = summarise(await traceOpen(context, emptyUrl));
      if (round >= 2) {
        popup.push(a);
        empty.push(b);
      }
    }
    console.log(JSON.stringify({ popup: medians(popup), empty: medians(empty) }, null, 2));
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
