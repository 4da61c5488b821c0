// Long tasks on a real explorer page (tests/fixtures/explorer/real/, saved by others): the page alone
// against the same page with the content script's scanner, same browser, same steps (load, open the
// holdings dropdown, scroll it and the page through). The scanner is bundled as in bench-explorer.ts
// with a background stand-in that answers at once, so the figures are its DOM work alone.
// Run: npx tsx scripts/bench-explorer-real.ts; `… source` runs the pages built from the explorers'
// source instead (tests/fixtures/explorer/source/: Blockscout's app and server-rendered UI, Otterscan).
import { chromium, type Page } from '@playwright/test';
import { REAL_PAGES, realHtml } from '../tests/fixtures/explorer/real/pages.ts';
import { SOURCE_PAGES, sourceHtml } from '../tests/fixtures/explorer/source/pages.ts';
import { bundle } from './bench-explorer.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROUNDS = 5;

/** The scanner alone (no background), as bench-explorer.ts bundles it. */
const scannerBundle = () =>
  bundle(
    "import { startScanner } from './lib/explorer/scanner.ts'; globalThis.__startScanner = startScanner;",
  );

/** Loads the page, optionally starts the scanner, walks it through; the long tasks it saw (ms). */
async function run(
  page: Page,
  url: string,
  chainId: number,
  bundle: string | undefined,
): Promise<{ longest: number; count: number; buttons: number }> {
  await page.goto(url);
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const bench = { longTasks: [] as number[] };
        (globalThis as unknown as { __bench: typeof bench }).__bench = bench;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) bench.longTasks.push(entry.duration);
        }).observe({ type: 'longtask', buffered: false });
        requestAnimationFrame(() => done());
      }),
  );
  if (bundle) {
    await page.addScriptTag({ content: bundle });
    await page.evaluate((chainId) => {
      const messenger = {
        whitelistedTokens: async (_chain: number, addresses: string[]) => ({
          ok: true,
          result: addresses.slice(0, 3),
        }),
        oneClickQuote: async () => ({ ok: false, error: { code: 'X', message: 'x' } }),
        openPopupPrefilled: async () => ({ ok: true, result: false }),
        explorerChain: async () => ({ ok: true, result: chainId }),
        tokenSafety: async () => ({ ok: false, error: { code: 'X', message: 'x' } }),
      };
      (globalThis as unknown as { __startScanner(o: unknown): unknown }).__startScanner({
        chainId,
        messenger,
      });
    }, chainId);
  }
  await page.evaluate(async () => {
    const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    // The holdings dropdown, opened: Etherscan's, Blockscout's server-rendered one.
    for (const menu of document.querySelectorAll<HTMLElement>('#availableBalance, .token-balance-dropdown'))
      menu.style.display = 'block';
    for (const item of document.querySelectorAll(
      '#availableBalance li, [data-dropdown-token-balance-test]',
    )) {
      item.scrollIntoView({ block: 'nearest' });
      await frames();
    }
    for (let y = 0; y < document.documentElement.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await frames();
    }
  });
  return page.evaluate(() => {
    const { longTasks } = (globalThis as unknown as { __bench: { longTasks: number[] } }).__bench;
    return {
      longest: Math.max(0, ...longTasks),
      count: longTasks.length,
      buttons: document.querySelectorAll('swaplane-swap').length,
    };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const bundle = await scannerBundle();
  const args = ['--disable-gpu', '--no-first-run', '--disable-background-networking'];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  try {
    const source = process.argv[2] === 'source';
    const pages = Object.entries(source ? SOURCE_PAGES : REAL_PAGES);
    for (const [name, fixture] of pages) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      // tsx (esbuild keepNames) wraps named functions in __name(); give the page a no-op one first.
      await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
      const html = source ? sourceHtml(fixture.file) : realHtml(fixture.file);
      await page.route(/^https:\/\//, (route) =>
        route.request().resourceType() === 'document'
          ? route.fulfill({ contentType: 'text/html; charset=utf-8', body: html })
          : route.fulfill({ status: 204, body: '' }),
      );
      const alone: number[] = [];
      const withScanner: number[] = [];
      let buttons = 0;
      for (let i = 0; i < ROUNDS; i++) {
        alone.push((await run(page, fixture.url, fixture.chainId, undefined)).longest);
        const measured = await run(page, fixture.url, fixture.chainId, bundle);
        withScanner.push(measured.longest);
        buttons = measured.buttons;
      }
      console.log(
        `${name}: longest task after load, median of ${ROUNDS}: page alone ${median(alone).toFixed(0)} ms, ` +
          `with the scanner ${median(withScanner).toFixed(0)} ms (${buttons} buttons); ` +
          `all rounds alone [${alone.map((v) => v.toFixed(0)).join(', ')}], with [${withScanner.map((v) => v.toFixed(0)).join(', ')}]`,
      );
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
