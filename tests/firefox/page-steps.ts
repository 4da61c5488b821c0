// The explorer step of the Firefox smoke: an explorer page at its real URL (served by request
// interception, nothing leaves the machine) gets its controls and a quote card.
import type { Browser, HTTPRequest } from 'puppeteer-core';
import { formatAmount } from '../../lib/amounts/index.ts';
import { ETH, fixtureHtml, PAGES } from '../fixtures/explorer/pages.ts';
import { explorer, STEP_TIMEOUT_MS } from './screen.ts';
import type { Embedded } from './wallet-steps.ts';

/** Serves the explorer fixture at its URL; any other request gets an empty answer, none goes out. */
function serveExplorer(request: HTTPRequest): void {
  const url = new URL(request.url());
  if (url.protocol === 'moz-extension:' || url.hostname === '127.0.0.1') {
    void request.continue();
    return;
  }
  const served = new URL(PAGES.token.url);
  if (request.isNavigationRequest() && url.hostname === served.hostname && url.pathname === served.pathname) {
    void request.respond({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: fixtureHtml(PAGES.token.file),
    });
    return;
  }
  void request.respond({ status: 204, body: '' });
}

/** What the reference service quotes for 0.1 ETH -> USDC on Ethereum at 0.5%, asked directly. */
async function directQuote(serviceUrl: string): Promise<string> {
  const response = await fetch(`${serviceUrl}/v1/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      chainId: 1,
      inToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      outToken: ETH.usdc,
      inAmount: (10n ** 17n).toString(),
      slippage: 0.5,
    }),
  });
  const { data } = (await response.json()) as { data: { outAmount: string; outDecimals: number } };
  return `0.1 ETH ≈ ${formatAmount(BigInt(data.outAmount), data.outDecimals)} USDC`;
}

export async function explorerQuote(browser: Browser, embedded: Embedded): Promise<void> {
  const page = await browser.newPage();
  await page.setRequestInterception(true);
  page.on('request', serveExplorer);
  await page.goto(PAGES.token.url, { waitUntil: 'load' });
  // The token page's title control; its button and card live in the control's open shadow root.
  const control = 'h1 + swaplane-swap >>> ';
  await page
    .locator(`${control}[role="button"]::-p-text(${explorer.swapButton})`)
    .setTimeout(STEP_TIMEOUT_MS)
    .click();
  const card = await page.waitForSelector(`${control}[role="dialog"][aria-label="${explorer.card}"]`, {
    timeout: STEP_TIMEOUT_MS,
  });
  if (!card) throw new Error('no quote card');
  const expected = await directQuote(embedded.serviceUrl);
  await page
    .waitForFunction(
      (element: Element, text: string) => element.textContent?.includes(text),
      { timeout: STEP_TIMEOUT_MS },
      card,
      expected,
    )
    .catch(async (error) => {
      const shown = await card.evaluate((element) => element.textContent);
      throw new Error(`the quote card never read "${expected}" (${String(error)}); it read: ${shown}`);
    });
  await page.close();
}
