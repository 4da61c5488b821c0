// How long a first popup (fresh profile: no snapshot, no cached prices) takes to show USD values on
// the home's holdings, on the devnet and reference service the demo runs (free ports here, so it
// never meets a running demo). Per round, a new browser profile: settings and the wallet are set from
// one page, then a second page opens the popup and is timed from its navigation start to
//   - the first holding row (the balances read),
//   - the first holding row with a USD value ("$…", not "—"),
//   - the native coin's row with one,
//   - every held row with one (or the last change, when some stay "—").
// Usage: npx wxt build && npx tsx scripts/first-usd.ts [rounds]
import { extensionIdOf, launchWithExtension, serviceWorkerOf } from '../tests/e2e/launch.ts';
import { importBenchWallet } from './bench-popup.ts';
import { startEmbeddedDefault } from './embedded.ts';

/** Sampled in the page every 10 ms, against its own navigation start. */
const SAMPLER = `new Promise((resolve) => {
          let firstUsdMs = null;
          let rowsMs = null;
          let nativeUsdMs = null;
          let lastChangeMs = null;
          let lastPriced = -1;
          const started = performance.now();
          const tick = () => {
            const now = performance.now();
            const rows = [...document.querySelectorAll('[data-testid^="holding-"] .holding-usd')];
            const priced = rows.filter((row) => row.textContent?.includes('$')).length;
            const native = document.querySelector('[data-testid="holding-ETH"] .holding-usd');
            if (rows.length > 0 && rowsMs === null) rowsMs = now;
            if (priced > 0 && firstUsdMs === null) firstUsdMs = now;
            if (nativeUsdMs === null && native?.textContent?.includes('$')) nativeUsdMs = now;
            if (priced !== lastPriced) {
              lastPriced = priced;
              lastChangeMs = now;
            }
            const all = rows.length > 0 && priced === rows.length;
            if (all || now - started > 40_000) {
              resolve({
                rows: rows.length,
                rowsMs,
                firstUsdMs,
                nativeUsdMs,
                allUsdMs: all ? now : lastChangeMs,
                pricedAtEnd: priced,
              });
              return;
            }
            setTimeout(tick, 10);
          };
          setTimeout(tick, 10);
        })`;

interface Round {
  rows: number;
  /** The first holding row on screen (balances read). */
  rowsMs: number | null;
  firstUsdMs: number | null;
  nativeUsdMs: number | null;
  allUsdMs: number | null;
  pricedAtEnd: number;
}

async function round(embedded: Awaited<ReturnType<typeof startEmbeddedDefault>>): Promise<Round> {
  const browser = await launchWithExtension();
  try {
    const worker = await serviceWorkerOf(browser.context);
    const popupUrl = `chrome-extension://${extensionIdOf(worker)}/popup.html`;
    const setup = await browser.context.newPage();
    // Not the popup: a popup here would read the holdings and prices first, and the timed one find them cached.
    await setup.goto(popupUrl.replace('popup.html', 'options.html'));
    await importBenchWallet(setup, embedded);
    const popup = await browser.context.newPage();
    await popup.setViewportSize({ width: 360, height: 600 });
    await popup.goto(popupUrl);
    // A string, not a function: tsx's name helpers do not exist in the page.
    return (await popup.evaluate(`${SAMPLER}`)) as Round;
  } finally {
    await browser.close();
  }
}

const rounds = Number(process.argv[2] ?? 3);
const embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
try {
  const fmt = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);
  for (let i = 0; i < rounds; i++) {
    const result = await round(embedded);
    console.log(
      `round ${i + 1}: ${result.rows} held rows at ${fmt(result.rowsMs)}; first USD ${fmt(result.firstUsdMs)}, ETH's USD ${fmt(result.nativeUsdMs)}, ` +
        `all USD ${fmt(result.allUsdMs)} (${result.pricedAtEnd}/${result.rows} priced)`,
    );
  }
} finally {
  await embedded.stop();
}
