// The web-page steps of the Firefox smoke: an explorer page at its real URL (served by request
// interception, nothing leaves the machine) gets its controls and a quote card; a local dapp finds
// Swaplane through EIP-6963, connects and gets a personal_sign that viem verifies; a closed approval
// window answers 4001.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { verifyMessage } from 'viem';
import { formatAmount } from '../../lib/amounts/index.ts';
import { ETH, fixtureHtml, PAGES } from '../fixtures/explorer/pages.ts';
import { EXTENSION_ORIGIN } from './firefox.ts';
import { expectWindowFits } from './layout.ts';
import { approval, explorer, find, STEP_TIMEOUT_MS, waitForText } from './screen.ts';
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

const DAPP_PAGE = `<!doctype html><html lang="en"><head><title>Firefox dapp</title></head>
<body><h1>Firefox dapp</h1><script>
window.swaplane = new Promise((resolve) => {
  window.addEventListener('eip6963:announceProvider', (event) => {
    if (event.detail.info.rdns === 'app.swaplane') resolve(event.detail);
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));
});
window.answers = {};
window.ask = (name, method, params) =>
  window.swaplane.then(({ provider }) => provider.request({ method, params })).then(
    (result) => { window.answers[name] = { result }; },
    (error) => { window.answers[name] = { error: { code: error.code, message: error.message } }; },
  );
</script></body></html>`;

/**
 * The window Swaplane opened on `file`, among pages not in `before`. Firefox reports a window that
 * an extension opens on a moz-extension:// page as about:blank to BiDi, so each page is asked.
 */
async function newExtensionWindow(browser: Browser, before: Set<Page>, file: string): Promise<Page> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    for (const candidate of await browser.pages()) {
      if (before.has(candidate)) continue;
      const href = await candidate.evaluate(() => location.href).catch(() => '');
      if (href.startsWith(`${EXTENSION_ORIGIN}/${file}`)) return candidate;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no new window on ${file} within ${STEP_TIMEOUT_MS / 1000}s`);
}

/** Starts a provider request on the dapp page and answers the approval window Swaplane opens. */
async function askAndApprove(
  browser: Browser,
  page: Page,
  request: { name: string; method: string; params?: unknown[] },
  approve: (window: Page) => Promise<void>,
): Promise<unknown> {
  const before = new Set(await browser.pages());
  // Started, not awaited: the request settles only once the window is answered.
  await page.evaluate(
    (name, method, params) => {
      void (window as unknown as { ask: (...a: unknown[]) => Promise<void> }).ask(name, method, params);
    },
    request.name,
    request.method,
    request.params as never,
  );
  const prompt = await newExtensionWindow(browser, before, 'approve.html').catch(async (error) => {
    const answers = await page.evaluate(() =>
      JSON.stringify((window as unknown as { answers: unknown }).answers),
    );
    throw new Error(`no approval window for ${request.method} (${String(error)}); answers: ${answers}`);
  });
  await approve(prompt);
  const answer = await page.waitForFunction(
    (name: string) => (window as unknown as { answers: Record<string, unknown> }).answers[name],
    { timeout: STEP_TIMEOUT_MS },
    request.name,
  );
  return answer.jsonValue();
}

export async function dappConnectAndSign(browser: Browser, account: string): Promise<void> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(DAPP_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const page = await browser.newPage();
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    const info = await page.evaluate(() =>
      (window as unknown as { swaplane: Promise<{ info: { name: string } }> }).swaplane.then(
        (d) => d.info.name,
      ),
    );
    if (info !== 'Swaplane') throw new Error(`EIP-6963 announced "${info}"`);
    const connected = await askAndApprove(
      browser,
      page,
      { name: 'connect', method: 'eth_requestAccounts' },
      async (prompt) => {
        await find(prompt, approval.connectButton, 'button');
        await expectWindowFits(prompt, 'approval window (connect)', approval.connectButton);
        await approval.connect(prompt);
      },
    );
    const accounts = (connected as { result?: string[] }).result ?? [];
    if (accounts[0]?.toLowerCase() !== account.toLowerCase())
      throw new Error(`connect answered ${JSON.stringify(connected)}`);
    const message = 'Hello from Firefox';
    const hex = `0x${Buffer.from(message).toString('hex')}`;
    const signed = await askAndApprove(
      browser,
      page,
      { name: 'sign', method: 'personal_sign', params: [hex, account] },
      async (prompt) => {
        await waitForText(prompt, approval.signHeading);
        await waitForText(prompt, message);
        await expectWindowFits(prompt, 'approval window (sign)', approval.signButton);
        await approval.sign(prompt);
      },
    );
    const signature = (signed as { result?: `0x${string}` }).result;
    if (!signature) throw new Error(`personal_sign answered ${JSON.stringify(signed)}`);
    if (!(await verifyMessage({ address: account as `0x${string}`, message, signature })))
      throw new Error('the signature does not verify for the account');
    // Closing the window refuses: the event page hears the window go (windows.onRemoved), answers 4001.
    const closed = await askAndApprove(
      browser,
      page,
      { name: 'closed', method: 'personal_sign', params: [hex, account] },
      async (prompt) => {
        await waitForText(prompt, approval.signHeading);
        await prompt.close();
      },
    );
    if ((closed as { error?: { code?: number } }).error?.code !== 4001)
      throw new Error(`closing the approval window answered ${JSON.stringify(closed)}, not 4001`);
    await page.close();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
