// Where the popup's start-up time goes: a Chromium trace (through CDP) of opening popup.html and of
// the bench's empty Preact page, in the same browser, set up as scripts/bench-popup.ts sets it up.
// Per page (ms from navigation start, median of the rounds): when the HTML was parsed, the preload
// script and the module ran, DOMContentLoaded, first contentful paint and the ready mark; and the
// main thread's time in tasks up to ready, by kind (script, style+layout+paint, gc, loading).
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
  ...(process.env.PROFILE_CPU ? ['disabled-by-default-v8.cpu_profiler'] : []),
].join(',');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; frame?: string }; fileName?: string; frame?: string };
}

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

interface Phases {
  /** ms from navigation start: the HTML parsed, the preload script run, the module evaluated, … */
  html: number | null;
  preload: number | null;
  module: number | null;
  domContentLoaded: number | null;
  firstContentfulPaint: number | null;
  ready: number;
  /** Main-thread time in tasks up to ready, and the part of it in each kind of work. */
  busy: number;
  work: Record<string, number>;
}

/** What the renderer did: each top-level task's largest child names it. */
const KINDS: [string, RegExp][] = [
  [
    'script',
    /^(v8\.evaluateModule|v8\.run|EvaluateScript|v8\.compile.*|v8\.streamingCompile.*|FunctionCall|TimerFire|RunMicrotasks|v8\.callFunction)$/,
  ],
  ['style+layout+paint', /^(UpdateLayoutTree|Layout|PrePaint|Paint|Layerize|Commit|ParseAuthorStyleSheet)$/],
  ['gc', /GC|Scavenge/],
  [
    'navigation+loading',
    /^(DocumentLoader::.*|NavigationBodyLoader::.*|ParseHTML|ThrottlingURLLoader::.*|ResourceRequestSender::.*|URLLoader::.*|DocumentModuleScriptFetcher::.*)$/,
  ],
];

function summarise({ events, ready }: { events: TraceEvent[]; ready: number }): Phases {
  if (process.env.PROFILE_DUMP)
    writeFileSync(`${process.env.PROFILE_DUMP}-${dumps++}.json`, JSON.stringify(events));
  const nav = events.find(
    (event) =>
      event.name === 'navigationStart' &&
      String(
        (event.args?.data as { documentLoaderURL?: string } | undefined)?.documentLoaderURL ?? '',
      ).startsWith('chrome-extension:'),
  );
  if (!nav) throw new Error('no navigation in the trace');
  const start = nav.ts;
  const main = events
    .filter((event) => event.pid === nav.pid && event.tid === nav.tid && event.ts >= start)
    .sort((a, b) => a.ts - b.ts);
  const at = (pick: (event: TraceEvent) => boolean) => {
    const found = main.find(pick);
    return found ? Number(((found.ts - start) / 1000).toFixed(1)) : null;
  };
  const frame = nav.args?.frame ?? (nav as { args?: { frame?: string } }).args?.frame;
  const inFrame = (event: TraceEvent) => (event.args?.data?.frame ?? event.args?.frame) === frame;
  const end = start + ready * 1000;
  const tasks = main.filter((event) => event.ph === 'X' && event.name === 'RunTask' && event.ts < end);
  const work: Record<string, number> = {};
  let busy = 0;
  for (const task of tasks) {
    const ms = (Math.min(task.ts + (task.dur ?? 0), end) - task.ts) / 1000;
    busy += ms;
    const inside = main.filter(
      (event) =>
        event !== task &&
        event.ph === 'X' &&
        event.ts >= task.ts &&
        event.ts + (event.dur ?? 0) <= task.ts + (task.dur ?? 0),
    );
    const largest = inside.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
    const kind = largest
      ? (KINDS.find(([, pattern]) => pattern.test(largest.name))?.[0] ?? 'other')
      : 'other';
    work[kind] = (work[kind] ?? 0) + ms;
  }
  return {
    html: at(
      (event) =>
        event.name === 'ParseHTML' &&
        String((event.args as { beginData?: { url?: string } } | undefined)?.beginData?.url ?? '').endsWith(
          '.html',
        ),
    ),
    preload: at((event) => event.name === 'v8.run' && String(event.args?.fileName ?? '').includes('preload')),
    module: at((event) => event.name === 'v8.evaluateModule'),
    domContentLoaded: at((event) => event.name === 'MarkDOMContent' && inFrame(event)),
    firstContentfulPaint: at((event) => event.name === 'firstContentfulPaint' && inFrame(event)),
    ready,
    busy,
    work,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function medians(rounds: Phases[]) {
  const of = (pick: (round: Phases) => number | null | undefined) =>
    Number(
      median(rounds.map((round) => pick(round) ?? Number.NaN).filter((ms) => !Number.isNaN(ms))).toFixed(1),
    );
  const kinds = [...new Set(rounds.flatMap((round) => Object.keys(round.work)))].sort();
  return {
    html: of((round) => round.html),
    preload: of((round) => round.preload),
    module: of((round) => round.module),
    domContentLoaded: of((round) => round.domContentLoaded),
    firstContentfulPaint: of((round) => round.firstContentfulPaint),
    ready: of((round) => round.ready),
    busy: of((round) => round.busy),
    work: Object.fromEntries(kinds.map((kind) => [kind, of((round) => round.work[kind] ?? 0)])),
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
    const popup: Phases[] = [];
    const empty: Phases[] = [];
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
