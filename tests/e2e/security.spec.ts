// SECURITY.md, end to end in the built extension: hostile token metadata from the swap service renders
// inertly on every screen of the popup and on the explorer card; page script cannot press Swaplane's
// buttons; web pages can neither message the extension nor frame its pages.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page, Route } from '@playwright/test';
import { fixtureHtml, PAGES } from '../fixtures/explorer/pages.ts';
import {
  DAI,
  ETH,
  expect,
  importAnvilWallet,
  pageSettled,
  pickToken,
  sendFromView,
  setUpWallet,
  test,
  trustRouterInReview,
  USDC,
  useEmbeddedDefault,
  watchPageProblems,
} from './fixtures';

const WBTC = '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599';
const HOST = 'swaplane-swap';

// Each payload sets a window flag if it ever runs; the flags must stay unset.
const XSS_SYMBOL = '<img src=x onerror="window.__pwned=1">';
const XSS_NAME = `<svg onload="window.__pwned=2"></svg><script>window.__pwned=3</script>${'W'.repeat(10_000)}`;
const HOSTILE: Record<string, { symbol?: string; name?: string; logoURI: string }> = {
  [USDC]: { symbol: XSS_SYMBOL, name: XSS_NAME, logoURI: 'javascript:window.__pwned=4' },
  [DAI]: { logoURI: 'data:text/html,<script>window.__pwned=5</script>' },
  [WBTC]: { logoURI: 'http://evil.example/logo.png' },
};

/**
 * A compromised service: the real reference service behind a proxy that rewrites the token list and
 * search answers with hostile metadata (everything else passes through untouched).
 */
async function startHostileProxy(target: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  let front = ''; // this proxy's own origin, once it listens
  const server = createServer((incoming, outgoing) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, 'accept-encoding': 'identity' },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          if (/^\/v1\/tokens\/[^/]+\/(full|search\/)/.test(incoming.url ?? '') && answer.statusCode === 200) {
            // As a front configured as the service's public URL would: the service's own logos name it.
            const tokens = JSON.parse(body.split(upstream.origin).join(front)) as { address: string }[];
            body = JSON.stringify(
              tokens.map((token) => ({ ...token, ...HOSTILE[token.address.toLowerCase()] })),
            );
          }
          const headers = { ...answer.headers };
          delete headers['content-length'];
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          outgoing.end(body);
        });
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: front, server };
}

/**
 * Injected markup or run script in the page, shadow roots included; [] when inert. On an explorer page
 * (`ours`) only Swaplane's shadow roots are ours to judge: the page has its own javascript: links.
 */
async function injections(page: Page, ours = false): Promise<string[]> {
  return page.evaluate((ours) => {
    const found: string[] = [];
    const flag = (window as unknown as { __pwned?: unknown }).__pwned;
    if (flag !== undefined) found.push(`window.__pwned=${String(flag)}`);
    const visit = (root: Document | ShadowRoot) => {
      for (const element of root.querySelectorAll('*')) {
        const tag = element.tagName.toLowerCase();
        if (tag === 'iframe' || (tag === 'script' && root !== document)) found.push(`<${tag}>`);
        if (tag === 'script' && element.textContent?.includes('__pwned')) found.push('<script>__pwned');
        for (const name of element.getAttributeNames()) {
          const value = element.getAttribute(name) ?? '';
          if (name.startsWith('on')) found.push(`${tag}[${name}]`);
          if (/^(javascript|data:text)/i.test(value)) found.push(`${tag}[${name}=${value.slice(0, 20)}]`);
          if (tag === 'img' && name === 'src' && /^(x|http:\/\/evil)/.test(value))
            found.push(`img[src=${value}]`);
        }
        if (element.shadowRoot) visit(element.shadowRoot);
      }
    };
    if (!ours) visit(document);
    else
      for (const host of document.querySelectorAll('swaplane-swap'))
        if (host.shadowRoot) visit(host.shadowRoot);
    return found;
  }, ours);
}

async function serveExplorer(context: BrowserContext): Promise<void> {
  const serve = (route: Route) => {
    const url = new URL(route.request().url());
    if (route.request().resourceType() !== 'document') return route.fulfill({ status: 204, body: '' });
    if (url.href === PAGES.token.url) {
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: fixtureHtml(PAGES.token.file) });
    }
    return route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html><title>page</title>',
    });
  };
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, serve);
}

let proxy: { url: string; server: Server } | undefined;
test.afterAll(async () => {
  await new Promise((resolve) => (proxy ? proxy.server.close(resolve) : resolve(undefined)));
});

test('hostile token metadata from the service is inert in the popup (picker, quote, route, review, progress, activity) and on the explorer card', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(150_000);
  const popupUrl = `chrome-extension://${extensionId}/popup.html`;
  const setup = await context.newPage();
  await setup.goto(popupUrl);
  const { serviceUrl } = await useEmbeddedDefault(setup);
  proxy = await startHostileProxy(serviceUrl);
  const current = (await sendFromView(setup, { type: 'getSettings' })) as { result: Record<string, unknown> };
  expect(
    await sendFromView(setup, {
      type: 'updateSettings',
      settings: { ...current.result, serviceBaseUrl: proxy.url },
      confirmTrustChange: true,
    }),
  ).toMatchObject({ ok: true });
  await importAnvilWallet(setup);
  await setup.close();

  const popup = await context.newPage();
  await popup.setViewportSize({ width: 360, height: 600 });
  const problems = await watchPageProblems(popup);
  await popup.goto(popupUrl);

  // The picker: the hostile rows are listed as text, the 10 kB name does not widen the popup, and only
  // the service's own logos load (the javascript:, data:text/html and foreign http logos fall back).
  await pickToken(popup, 'from', 'ETH', ETH);
  await popup.getByTestId('to-picker').click();
  await popup.getByLabel(/Search to token/i).fill('<img');
  const row = popup.locator(`button[data-token="${USDC}"]`);
  await expect(row).toContainText(XSS_SYMBOL);
  await expect(row.locator('.logo-fallback')).toHaveText('<I');
  await popup.getByLabel(/Search to token/i).fill('');
  await expect(popup.locator(`button[data-token="${DAI}"] .logo-fallback`)).toHaveText('DA');
  await expect(popup.locator(`button[data-token="${WBTC}"] .logo-fallback`)).toHaveText('WB');
  await expect(popup.locator(`button[data-token="${ETH}"] img.logo`)).toHaveAttribute(
    'src',
    /^http:\/\/127\.0\.0\.1/,
  );
  expect(await popup.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await injections(popup)).toEqual([]);
  await popup.getByLabel(/Search to token/i).fill('<img');
  await row.click();
  // The symbol as text, read as the button's name (its logo fallback is decoration, hidden from it).
  await expect(popup.getByTestId('to-picker')).toHaveAccessibleName(`To ${XSS_SYMBOL}`);
  await expect(popup.getByTestId('to-picker')).toContainText(XSS_SYMBOL);

  // Quote card and route diagram.
  await popup.getByLabel('Amount').fill('1');
  await expect(popup.getByTestId('quote-out')).toContainText(XSS_SYMBOL, { timeout: 20_000 });
  await popup.getByTestId('quote-card').getByText('Details', { exact: true }).click(); // the route is in the details
  await expect(popup.getByTestId('route-diagram')).toBeVisible();
  expect(await injections(popup)).toEqual([]);

  // Review, the router consent, the progress and the confirmation.
  await popup.getByRole('button', { name: 'Review swap' }).click();
  await expect(popup.getByTestId('review')).toContainText(XSS_SYMBOL);
  expect(await injections(popup)).toEqual([]);
  await trustRouterInReview(popup);
  await popup.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(popup.getByTestId('swap-confirmed')).toContainText(XSS_SYMBOL, { timeout: 30_000 });
  expect(await injections(popup)).toEqual([]);
  await popup.getByRole('button', { name: 'Done' }).click();

  // Activity.
  await popup.getByRole('button', { name: 'Activity' }).click();
  await expect(popup.getByTestId('activity')).toContainText(`→`);
  await expect(popup.getByTestId('activity')).toContainText(XSS_SYMBOL);
  expect(await injections(popup)).toEqual([]);
  // An injected inline handler would also show up here as a CSP violation (script-src 'self').
  expect(problems).toEqual([]);

  // The explorer card on the USDC token page: the symbol from the same list, as text.
  await serveExplorer(context);
  const tab = await context.newPage();
  await tab.goto(PAGES.token.url);
  await tab.locator(`h1 + ${HOST}`).getByRole('button', { name: 'Swap', exact: true }).click();
  const card = tab.locator(`h1 + ${HOST}`).getByRole('dialog', { name: 'Swaplane quote' });
  await expect(card).toContainText(`≈`, { timeout: 20_000 });
  await expect(card).toContainText(XSS_SYMBOL);
  expect(await injections(tab, true)).toEqual([]);
  expect(await tab.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
});

test('page script cannot press Swaplane: synthetic clicks and keys on the page buttons do nothing', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { page: setup } = await setUpWallet(context, extensionId);
  await serveExplorer(context);
  const tab = await context.newPage();
  await tab.goto(PAGES.token.url);
  const host = tab.locator(`h1 + ${HOST}`);
  await expect(host.getByRole('button', { name: 'Swap', exact: true })).toBeVisible();

  /** The page's own script: every way it can poke an open shadow root's button. */
  const pagePresses = (selector: string) =>
    tab.evaluate((selector) => {
      let pressed = 0;
      for (const element of document.querySelectorAll('swaplane-swap')) {
        const button = element.shadowRoot?.querySelector<HTMLElement>(selector);
        if (!button) continue;
        button.click();
        button.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true }));
        button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true }));
        button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
        button.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true, composed: true }));
        pressed++;
      }
      return pressed;
    }, selector);
  const cards = () =>
    tab.evaluate(
      () =>
        [...document.querySelectorAll('swaplane-swap')].filter((element) =>
          element.shadowRoot?.querySelector('[role="dialog"]'),
        ).length,
    );
  const popupPages = () => context.pages().filter((page) => page.url().includes('/popup.html')).length;
  const popupViews = () =>
    setup.evaluate(
      () =>
        (
          globalThis as unknown as { chrome: { extension: { getViews(f: { type: string }): Window[] } } }
        ).chrome.extension.getViews({ type: 'popup' }).length,
    );

  // Protocol-shaped messages posted by the page reach nothing: the content script has no message listener.
  await tab.evaluate((token) => {
    for (const type of ['openPopupPrefilled', 'oneClickQuote', 'walletReveal', 'startSwap']) {
      window.postMessage({ type, chainId: 1, token, password: 'x', target: 'mnemonic' }, '*');
    }
  }, PAGES.token.expected[0]);
  // Clicks and key presses run their listeners synchronously: a trusted press opens the card within it.
  expect(await pagePresses('.s')).toBeGreaterThan(0);
  expect(await cards()).toBe(0);

  // A person's click does open the card (so the buttons are live and the check above can fail)…
  await host.getByRole('button', { name: 'Swap', exact: true }).click();
  const card = host.getByRole('dialog', { name: 'Swaplane quote' });
  await expect(card.getByRole('button', { name: 'Swap in Swaplane' })).toBeVisible({ timeout: 20_000 });
  expect(await cards()).toBe(1); // only the person's
  // …but the page pressing "Swap in Swaplane" opens nothing and leaves no prefill behind.
  const before = await popupPages();
  expect(await pagePresses('.go')).toBeGreaterThan(0);
  // A press would have sent openPopupPrefilled at once, and the background stores the prefill before
  // it opens anything: its answer to a later message shows no prefill, so nothing was asked.
  await pageSettled(tab);
  expect(await sendFromView(setup, { type: 'takePrefill' })).toEqual({ ok: true, result: null });
  expect(await popupPages()).toBe(before);
  expect(await popupViews()).toBe(0);
  await expect(card).toBeVisible();
});

test('web pages cannot message the extension or frame its pages', async ({ context, extensionId }) => {
  await serveExplorer(context);
  const page = await context.newPage();
  await page.goto('https://evil.example/');
  const reach = await page.evaluate(async (id) => {
    const runtime = (
      globalThis as unknown as {
        chrome?: { runtime?: { sendMessage?: (id: string, message: unknown) => Promise<unknown> } };
      }
    ).chrome?.runtime;
    if (!runtime?.sendMessage) return 'no runtime.sendMessage';
    try {
      return JSON.stringify(await runtime.sendMessage(id, { type: 'walletState' }));
    } catch (error) {
      return `threw: ${(error as Error).message}`;
    }
  }, extensionId);
  expect(reach === 'no runtime.sendMessage' || reach.startsWith('threw')).toBe(true);

  // Clickjacking: no extension page is web-accessible, so a page cannot frame the popup.
  await page.setContent(
    `<iframe id="f" src="chrome-extension://${extensionId}/popup.html" style="opacity:0.01"></iframe>`,
  );
  // setContent resolves on the load event, which waits for the frame's own load (or its refusal).
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
  expect(frame).toBeDefined();
  const framedApp = frame
    ? await frame.evaluate(() => document.querySelector('#app') !== null).catch(() => false)
    : false;
  expect(framedApp).toBe(false);
});
