// The swap form holds still while the home fills in: a person (or a test) who aims at "You pay"'s
// token button as soon as it shows must land on it, not on a holdings row that pushed it down.
// Every frame from the first one showing the button, its box is recorded (a requestAnimationFrame
// loop started before the popup's own scripts), and the layout shifts the browser reports after it.
import type { BrowserContext, Page } from '@playwright/test';
import {
  checkAndShoot,
  ETH,
  expect,
  openProxiedPopup,
  pickToken,
  proxiedTest,
  quoteEthToUsdc,
  setUpWallet,
  test,
  USDC,
} from './fixtures';
import { POPUP_SIZES } from './layout';

interface FormMotion {
  /** The button's box in the first frame it was visible. */
  first: { x: number; y: number; width: number; height: number } | null;
  /** The largest distance (px) of any later frame's box from the first. */
  moved: number;
  /** How many frames showed the button. */
  frames: number;
  /** The layout-shift score summed over the shifts after the button first showed (no input meanwhile). */
  shift: number;
  /** What those shifts moved up or down in the form or over it (the holdings' rows among them). */
  shifted: string[];
}

/** Records the "You pay" token button's box in every frame, from before the popup's scripts run. */
function recordFormMotion() {
  const motion: FormMotion = { first: null, moved: 0, frames: 0, shift: 0, shifted: [] };
  let shownAt: number | null = null;
  (globalThis as unknown as { formMotion: FormMotion }).formMotion = motion;
  const frame = () => {
    const button = document.querySelector('[data-testid="from-picker"]');
    const box = button?.getBoundingClientRect();
    if (box && box.width > 0 && box.height > 0) {
      if (!motion.first) {
        motion.first = { x: box.x, y: box.y, width: box.width, height: box.height };
        shownAt = performance.now();
      }
      motion.frames += 1;
      motion.moved = Math.max(
        motion.moved,
        Math.abs(box.x - motion.first.x),
        Math.abs(box.y - motion.first.y),
        Math.abs(box.width - motion.first.width),
        Math.abs(box.height - motion.first.height),
      );
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  type Shift = PerformanceEntry & {
    value: number;
    hadRecentInput: boolean;
    sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Shift[]) {
      if (entry.hadRecentInput || shownAt === null || entry.startTime < shownAt) continue;
      motion.shift += entry.value;
      for (const source of entry.sources ?? []) {
        const node = source.node;
        const element = node instanceof Element ? node : node?.parentElement;
        const { previousRect: was, currentRect: now } = source;
        // What moves under a pointer: an element on screen before and after, gone up or down, in
        // the form or over it (the holdings' rows too). Text that only grows sideways (a balance
        // landing) and what comes after the form (a notice under it pushes the quote down) are not.
        const vertical = was.height > 0 && now.height > 0 && Math.abs(now.y - was.y) > 1;
        const form = document.querySelector('form.swap');
        const afterForm =
          form && element && !form.contains(element) && form.compareDocumentPosition(element) & 4;
        if (!vertical || afterForm) continue;
        motion.shifted.push(
          `${element ? `${element.tagName.toLowerCase()}.${element.className || element.id}` : '?'}: y ${was.y} -> ${now.y}`,
        );
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** The home has its holdings, their prices and its total. */
async function holdingsLoaded(page: Page) {
  const home = page.getByRole('region', { name: /Your tokens on Ethereum/ });
  await expect(home.getByTestId('holding-ETH')).toContainText(/\$[\d,]+\.\d\d/, { timeout: 20_000 });
  await expect(home.locator('.holding-usd', { hasText: '—' })).toHaveCount(0, { timeout: 20_000 });
  await expect(home.getByTestId('holdings-total')).toContainText(/^\$[\d,]+\.\d\d\+?$/);
}

/**
 * Opens the popup at `size` with the recorder in, waits for `loaded`, then past the last thing the
 * home may add late (the note on old prices, 1.5 s in) and two frames, and returns what the form did.
 */
async function openAndRecord(
  context: BrowserContext,
  popupUrl: string,
  size: (typeof POPUP_SIZES)[number],
  loaded: (page: Page) => Promise<void> = holdingsLoaded,
): Promise<{ page: Page; motion: FormMotion }> {
  const page = await context.newPage();
  await page.addInitScript(recordFormMotion);
  await page.setViewportSize(size);
  await page.goto(popupUrl);
  await loaded(page);
  await page.waitForFunction(() => performance.now() > 2_500);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const motion = await page.evaluate(() => (globalThis as unknown as { formMotion: FormMotion }).formMotion);
  return { page, motion };
}

function expectStill(motion: FormMotion, what: string) {
  test.info().annotations.push({ type: 'layout shift', description: `${what}: ${motion.shift.toFixed(4)}` });
  expect(motion.first, `${what}: "You pay"'s token button was shown`).not.toBeNull();
  expect(motion.frames, `${what}: frames recorded`).toBeGreaterThan(1);
  expect(
    motion.moved,
    `${what}: "You pay"'s token button moved (px) after its first frame`,
  ).toBeLessThanOrEqual(1);
  expect(motion.shifted, `${what}: moved up or down by layout shifts after the form showed`).toEqual([]);
}

test('the swap form holds still while the holdings load: a first popup (no snapshot) and a reopened one, at 360x600 and 360x480', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const popupUrl = `chrome-extension://${extensionId}/popup.html`;
  const setup = await setUpWallet(context, extensionId);
  // A first popup: no holdings snapshot of any account or network (the setup page is the options page).
  expect(
    await setup.page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('holdings'))),
  ).toEqual([]);
  await setup.page.close();

  const first = await openAndRecord(context, popupUrl, POPUP_SIZES[1]);
  expectStill(first.motion, 'first popup, 360x600');
  await first.page.close();

  // Reopened: the last popup's snapshot paints in the first frame; the fresh rows replace it.
  for (const size of [POPUP_SIZES[1], POPUP_SIZES[0]]) {
    const again = await openAndRecord(context, popupUrl, size);
    expectStill(again.motion, `reopened popup, ${size.width}x${size.height}`);
    await again.page.close();
  }

  // Reopened on a live quote: the pair is restored in the first frame, holdings folded from it.
  const quoting = await context.newPage();
  await quoting.setViewportSize(POPUP_SIZES[0]);
  await quoting.goto(popupUrl);
  await quoteEthToUsdc(quoting, '0.5');
  await quoting.close();
  const onQuote = await openAndRecord(context, popupUrl, POPUP_SIZES[0], async (page) => {
    await expect(page.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
    await expect(page.getByTestId('holdings-total')).toContainText(/^\$[\d,]+\.\d\d\+?$/, {
      timeout: 20_000,
    });
  });
  expectStill(onQuote.motion, 'reopened on a live quote, 360x480');
  await onQuote.page.close();
});

proxiedTest(
  'a failing RPC: the holdings error, the list error and the balances that cannot be read do not move the form, unfolded and folded',
  async ({ context, extensionId, rpcProxy, serviceProxy }, testInfo) => {
    proxiedTest.setTimeout(120_000);
    // The RPC refuses everything from the start: the token list cannot be checked against the chain.
    rpcProxy.add({ fault: { kind: 'status', status: 503 } });
    const { popup, popupUrl } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
    await popup.close();
    const listFailed = await openAndRecord(context, popupUrl, POPUP_SIZES[0], async (page) => {
      await expect(page.getByTestId('list-error')).toBeVisible({ timeout: 30_000 });
    });
    expectStill(listFailed.motion, 'token list error, 360x480');
    await listFailed.page.close();

    // Another chain's node behind Ethereum's RPC URL: the list is in, every balance read refuses it.
    rpcProxy.clear();
    rpcProxy.add({
      match: (request) => request.rpcMethods.includes('eth_chainId'),
      fault: { kind: 'rewrite', transform: (body) => body.replace(/"result":"0x1"/, '"result":"0x2105"') },
    });
    const failed = async (page: Page) => {
      const home = page.getByRole('region', { name: /Your tokens on Ethereum/ });
      await expect(home.getByRole('alert')).toContainText('is for Base (chain 8453)', { timeout: 30_000 });
    };

    const unfolded = await openAndRecord(context, popupUrl, POPUP_SIZES[0], failed);
    expectStill(unfolded.motion, 'holdings error, unfolded, 360x480');
    // Axe-clean in light and dark, as a person sees it: the error inside the box, the cause under the form.
    await checkAndShoot(unfolded.page, testInfo, 'holdings-error-unfolded-480');
    // A pair and an amount: the next popup opens on them, its holdings folded from the first frame.
    await pickToken(unfolded.page, 'from', 'ETH', ETH);
    await pickToken(unfolded.page, 'to', 'USDC', USDC);
    await unfolded.page.getByLabel('Amount').fill('0.5');
    await expect(unfolded.page.getByRole('button', { name: 'Show' })).toBeVisible();
    await unfolded.page.close();

    const folded = await openAndRecord(context, popupUrl, POPUP_SIZES[0], async (page) => {
      const home = page.getByRole('region', { name: /Your tokens on Ethereum/ });
      await expect(home.getByText('Not read')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('from-picker')).toContainText('ETH');
    });
    expectStill(folded.motion, 'holdings error, folded, 360x480');
    // Show opens the folded box on the error and its Try again.
    await folded.page.getByRole('button', { name: 'Show' }).click();
    await failed(folded.page);
    await expect(folded.page.getByRole('button', { name: 'Try again' }).first()).toBeVisible();
    await checkAndShoot(folded.page, testInfo, 'holdings-error-folded-480');
    await folded.page.close();
  },
);
