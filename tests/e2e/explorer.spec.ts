// The content script in the built extension, on fixture pages served at the real explorer URLs
// (context.route: nothing leaves the machine), against the devnet + reference service.
import type { BrowserContext, Page, Route } from '@playwright/test';
import { formatAmount } from '../../lib/amounts/index.ts';
import { chainForExplorerHost } from '../../lib/chains/hosts.ts';
import {
  BASE,
  ETH,
  type FixturePage,
  fixtureHtml,
  PAGES,
  SPAM_TOKEN,
  tokenListAddresses,
} from '../fixtures/explorer/pages.ts';
import { expect, pageSettled, quoteEthDirectly, setUpWallet, test, watchPageProblems } from './fixtures';

const HOST = 'swaplane-swap';

/** Look-alike hosts serve exactly what the real one does. */
const LOOK_ALIKES: Record<string, string> = {
  'etherscan.io.evil.com': 'etherscan.io',
  'etherscam.io': 'etherscan.io',
};

/** Which fixture a URL of a routed explorer serves; anything else is a plain landing page. */
function fixtureFor(url: URL): string | undefined {
  const hostname = LOOK_ALIKES[url.hostname] ?? url.hostname;
  for (const page of Object.values(PAGES) as FixturePage[]) {
    const served = new URL(page.url);
    if (hostname === served.hostname && url.pathname.toLowerCase() === served.pathname.toLowerCase()) {
      return page.file;
    }
  }
  return undefined;
}

async function serve(route: Route): Promise<void> {
  const url = new URL(route.request().url());
  if (/\.(png|svg|jpe?g|gif|ico)$/i.test(url.pathname)) {
    return route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
  }
  if (route.request().resourceType() !== 'document') return route.fulfill({ status: 204, body: '' });
  const file = fixtureFor(url);
  if (file) return route.fulfill({ contentType: 'text/html; charset=utf-8', body: fixtureHtml(file) });
  // Where a clicked link lands: a minimal page that says where it is.
  return route.fulfill({
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><title>landed</title><h1 id="landed">${url.pathname}</h1>`,
  });
}

/**
 * Points the extension at the embedded default, gives it a wallet (the popup's swap screen needs one)
 * and serves every https request from fixtures.
 */
/** setUp(), then a new tab on `url`. */
async function setUpAndOpen(context: BrowserContext, extensionId: string, url: string): Promise<Page> {
  await setUp(context, extensionId);
  const tab = await context.newPage();
  await tab.goto(url);
  return tab;
}

async function setUp(context: BrowserContext, extensionId: string): Promise<void> {
  await (await setUpWallet(context, extensionId, 'popup.html')).page.close();
  // Catch-all first (routes added later win): no request may reach the internet.
  await context.route(/^https:\/\//, serve);
  for (const host of ['etherscan.io', 'basescan.org', 'base.blockscout.com', ...Object.keys(LOOK_ALIKES)]) {
    await context.route(`https://${host}/**`, serve);
  }
}

/** Distinct tokens of the buttons on the page, sorted. */
async function buttonTokens(page: Page): Promise<string[]> {
  return page.$$eval(HOST, (hosts) =>
    [...new Set(hosts.map((host) => (host as HTMLElement).dataset.swaplaneToken ?? ''))].sort(),
  );
}

/** Scrolls through the whole page so every element has been near the viewport once. */
async function scrollThrough(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 500) {
    // The next frame: the intersection observer has seen this position.
    await page.evaluate(
      (top) =>
        new Promise<void>((resolve) => {
          window.scrollTo(0, top);
          requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
        }),
      y,
    );
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Every button sits right after a link (or the token page's title) naming its token. */
async function expectButtonsBesideTheirElements(page: Page, chainId: number): Promise<void> {
  const placements = await page.$$eval(HOST, (hosts) =>
    hosts.map((host) => {
      const before = host.previousElementSibling;
      return {
        token: (host as HTMLElement).dataset.swaplaneToken ?? '',
        chain: (host as HTMLElement).dataset.swaplaneChain ?? '',
        tag: before?.tagName ?? '',
        href: before?.getAttribute('href')?.toLowerCase() ?? '',
        insideLink: host.closest('a') !== null,
      };
    }),
  );
  expect(placements.length).toBeGreaterThan(0);
  for (const placement of placements) {
    // A link to another explorer Swaplane knows carries that explorer's chain.
    const other = /^(?:https?:)?\/\/([^/?#]+)/.exec(placement.href)?.[1];
    expect(placement.chain).toBe(String((other && chainForExplorerHost(other)) || chainId));
    expect(placement.insideLink).toBe(false);
    if (placement.tag === 'H1') continue;
    expect(placement.tag).toBe('A');
    expect(placement.href).toContain(placement.token);
  }
}

test('buttons appear on the expected addresses, and nowhere else', async ({ context, extensionId }) => {
  test.setTimeout(120_000);
  await setUp(context, extensionId);
  const tab = await context.newPage();
  const problems = await watchPageProblems(tab);
  for (const fixture of Object.values(PAGES) as FixturePage[]) {
    await tab.goto(fixture.url);
    await expect(tab.locator(HOST).first()).toBeAttached();
    if (fixture === PAGES.address) {
      // The holdings list is a closed dropdown: its items get buttons once it is opened.
      expect(await buttonTokens(tab)).toEqual([ETH.usdt]);
      await tab.locator('#dropdownMenuBalance').click();
      await tab.locator('#availableBalance').evaluate((menu) => menu.scrollTo(0, menu.scrollHeight));
    }
    await scrollThrough(tab);
    await expect
      .poll(() => buttonTokens(tab), { message: fixture.file })
      .toEqual([...fixture.expected].sort());
    // The whitelist answers may still be on their way: once the page is idle again and has painted,
    // they have had their chance to (wrongly) add more.
    await pageSettled(tab);
    expect(await buttonTokens(tab)).toEqual([...fixture.expected].sort());
    await expectButtonsBesideTheirElements(tab, fixture.chainId);
    const addressHosts = await tab.$$eval(HOST, (hosts) =>
      hosts
        .filter((host) => host.previousElementSibling?.getAttribute('href')?.includes('/address/'))
        .map((host) => (host as HTMLElement).dataset.swaplaneToken),
    );
    for (const address of fixture.notTokens) expect(addressHosts).not.toContain(address);
  }
  expect(problems).toEqual([]);
});

test('a click shows the quote from the reference service; "Swap in Swaplane" opens the popup prefilled', async ({
  context,
  extensionId,
}) => {
  const tab = await setUpAndOpen(context, extensionId, PAGES.token.url);
  const serviceUrl = process.env.SWAPLANE_E2E_SERVICE_URL as string;
  const titleButton = tab.locator(`h1 + ${HOST}`).getByRole('button', { name: 'Swap', exact: true });
  await titleButton.click();

  // What the reference service quotes for 0.1 ETH (the default one-click amount) -> USDC, asked directly.
  const data = await quoteEthDirectly(serviceUrl, ETH.usdc, 10n ** 17n);
  const expected = `0.1 ETH ≈ ${formatAmount(BigInt(data.outAmount), data.outDecimals)} USDC`;
  const quoteCard = tab.locator(`h1 + ${HOST}`).getByRole('dialog', { name: 'Swaplane quote' });
  await expect(quoteCard).toContainText(expected, { timeout: 20_000 });
  await expect(quoteCard).toContainText(/Minimum received: [\d,.]+ USDC/);
  // The card is in the top layer, over the page, beside its button.
  const [buttonBox, cardBox] = await Promise.all([titleButton.boundingBox(), quoteCard.boundingBox()]);
  expect(cardBox && buttonBox && cardBox.y >= buttonBox.y + buttonBox.height - 1).toBe(true);

  // Headless Chromium may open the real popup (action.openPopup), which Playwright doesn't list as a
  // page, or the background's fallback tab at popup.html: read the pickers from whichever opened.
  const watcher = await context.newPage();
  await watcher.goto(`chrome-extension://${extensionId}/options.html`);
  await quoteCard.getByRole('button', { name: 'Swap in Swaplane' }).click();
  const picked = async () => {
    const tab = context.pages().find((page) => page.url().includes('/popup.html'));
    if (tab) {
      return {
        from: await tab.getByTestId('from-picker').textContent(),
        to: await tab.getByTestId('to-picker').textContent(),
        amount: await tab.getByLabel('Amount').inputValue(),
        out: await tab
          .locator('[data-testid="quote-out"]')
          .textContent({ timeout: 1_000 })
          .catch(() => null),
      };
    }
    return watcher.evaluate(() => {
      type Extension = { getViews(filter: { type: string }): Window[] };
      const [popup] = (
        globalThis as unknown as { chrome: { extension: Extension } }
      ).chrome.extension.getViews({
        type: 'popup',
      });
      const text = (id: string) =>
        popup?.document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
      const amount = popup?.document.querySelector<HTMLInputElement>('#amount')?.value ?? null;
      return { from: text('from-picker'), to: text('to-picker'), amount, out: text('quote-out') };
    });
  };
  await expect.poll(async () => (await picked()).to, { timeout: 15_000 }).toContain('USDC');
  expect((await picked()).from).toContain('ETH');
  // The card's amount travels with the prefill, and the popup quotes it live.
  await expect.poll(async () => (await picked()).amount, { timeout: 15_000 }).toBe('0.1');
  await expect.poll(async () => (await picked()).out, { timeout: 20_000 }).toContain('USDC');
  await expect(quoteCard).toHaveCount(0);
});

test('Base: a Blockscout page quotes on chain 8453; a token off the list says so', async ({
  context,
  extensionId,
}) => {
  const tab = await setUpAndOpen(context, extensionId, PAGES.blockscout.url);
  const title = tab.locator(`h1 + ${HOST}`);
  await expect(title).toHaveAttribute('data-swaplane-chain', '8453');
  await expect(title).toHaveAttribute('data-swaplane-token', BASE.usdc);
  await title.getByRole('button', { name: 'Swap', exact: true }).click();
  await expect(title.getByRole('dialog')).toContainText(/^0\.1 ETH ≈ [\d,.]+ USDC/, { timeout: 20_000 });

  // The address page's scam token is a /token/ link (so it has a button) but not whitelisted.
  await tab.goto(PAGES.address.url);
  await tab.locator('#dropdownMenuBalance').click();
  await tab.locator('#availableBalance').evaluate((menu) => menu.scrollTo(0, menu.scrollHeight));
  const spam = tab.locator(`#availableBalance ${HOST}[data-swaplane-token="${SPAM_TOKEN}"]`);
  await spam.getByRole('button', { name: 'Swap', exact: true }).click();
  // No quote for it: the card checks it instead (no pool to simulate with on the devnet).
  await expect(spam.getByRole('dialog')).toContainText('Not on the swap service’s list');
  await expect(spam.getByRole('dialog')).toContainText(
    'Not checked: no pool against the wrapped coin to test with',
    {
      timeout: 20_000,
    },
  );
  await expect(spam.getByRole('button', { name: 'Swap in Swaplane' })).toHaveCount(0);
});

test('off-screen rows get buttons when scrolled near; rows added after load get them too', async ({
  context,
  extensionId,
}) => {
  const tab = await setUpAndOpen(context, extensionId, PAGES.tokens.url);
  const { initial, more } = tokenListAddresses();
  const rowButton = (address: string) => tab.locator(`${HOST}[data-swaplane-token="${address}"]`);
  await expect(rowButton(initial[0] as string)).toBeAttached();
  // Far below the fold: nothing yet.
  await expect(rowButton(initial[49] as string)).toHaveCount(0);
  await tab.locator('#loadMore').scrollIntoViewIfNeeded();
  await expect(rowButton(initial[49] as string)).toBeAttached();

  await tab.locator('#loadMore').click();
  await tab.locator('#loadMore').scrollIntoViewIfNeeded();
  for (const address of more) await expect(rowButton(address)).toHaveCount(1);
  expect(more).toContain(ETH.aave);
  await rowButton(ETH.aave).getByRole('button', { name: 'Swap', exact: true }).click();
  await expect(rowButton(ETH.aave).getByRole('dialog')).toContainText(/^0\.1 ETH ≈ [\d,.]+ AAVE/, {
    timeout: 20_000,
  });
});

test("the page's own links and styles keep working", async ({ context, extensionId }) => {
  const tab = await setUpAndOpen(context, extensionId, PAGES.tokens.url);
  const usdtButton = tab.locator(`${HOST}[data-swaplane-token="${ETH.usdt}"]`);
  await expect(usdtButton).toBeAttached();

  // Hostile page CSS can't restyle the button; the button's CSS can't restyle the page.
  await tab.addStyleTag({
    content: `button, span, [role='button'], * { background: rgb(255, 0, 0) !important; font-size: 40px !important; }
      ${HOST} { display: none !important; }`,
  });
  const swap = usdtButton.getByRole('button', { name: 'Swap', exact: true });
  await expect(swap).toBeVisible();
  const style = await swap.evaluate((button) => {
    const computed = getComputedStyle(button);
    return { background: computed.backgroundColor, fontSize: computed.fontSize };
  });
  expect(style.background).not.toBe('rgb(255, 0, 0)');
  expect(style.fontSize).toBe('11px');
  expect(await tab.locator('#loadMore').evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(
    'rgb(255, 0, 0)',
  );

  // Our button doesn't navigate; its card closes on a second press, a press elsewhere, or Escape.
  const dialog = usdtButton.getByRole('dialog');
  await swap.click();
  await expect(dialog).toBeVisible();
  expect(tab.url()).toBe(PAGES.tokens.url);
  await swap.click();
  await expect(dialog).toHaveCount(0);
  await swap.click();
  await expect(dialog).toBeVisible();
  await tab.locator('h1').click();
  await expect(dialog).toHaveCount(0);
  await swap.click();
  await expect(dialog).toBeVisible();
  await tab.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // A page script can't press it.
  // Its click runs synchronously; a trusted one opens the card in that same call.
  await swap.evaluate((button) => (button as HTMLButtonElement).click());
  await expect(dialog).toHaveCount(0);

  // The link itself still navigates.
  await tab.locator(`a[href="/token/${ETH.usdt}"]`).click();
  await expect(tab).toHaveURL(`https://etherscan.io/token/${ETH.usdt}`);
  await expect(tab.locator('#landed')).toHaveText(`/token/${ETH.usdt}`);
});

test('look-alike hosts get no buttons', async ({ context, extensionId }) => {
  await setUp(context, extensionId);
  const tab = await context.newPage();
  // Control: the real host gets its buttons, once settled.
  await tab.goto(PAGES.token.url);
  await pageSettled(tab);
  await expect(tab.locator(HOST).first()).toBeAttached();
  for (const url of [
    'https://etherscan.io.evil.com/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'https://etherscam.io/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  ]) {
    await tab.goto(url);
    await expect(tab.locator('h1')).toContainText('USDC'); // the same fixture was served
    await pageSettled(tab);
    expect(await tab.locator(HOST).count()).toBe(0);
  }
});
