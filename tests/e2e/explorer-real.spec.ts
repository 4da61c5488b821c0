// The built extension on explorer pages from real-world markup and on the devnet's safety-check
// tokens: pages are served at their real URLs through context.route (nothing leaves the machine),
// quotes and simulations come from the embedded devnet + reference service.
import type { BrowserContext } from '@playwright/test';
import { ETH } from '../fixtures/explorer/pages.ts';
import { REAL_PAGES, realHtml } from '../fixtures/explorer/real/pages.ts';
import {
  test as base,
  expect,
  extensionIdOf,
  frames,
  launchWithExtension,
  serveExplorerPages,
  serviceWorkerOf,
  watchPageProblems,
} from './fixtures';

/**
 * One browser for the file's 29 pages (a browser each cost 2-3 s of launch and set-up a page): each
 * test gets it with no routes and no tabs of the test before. What the tests read is each page's own
 * DOM, which a new tab builds afresh.
 */
let shared: { close(): Promise<void>; context: BrowserContext; extensionId: string };
const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  context: async ({}, use) => {
    await use(shared.context);
    await shared.context.unrouteAll({ behavior: 'ignoreErrors' });
    for (const page of shared.context.pages()) await page.close();
  },
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  extensionId: async ({}, use) => {
    await use(shared.extensionId);
  },
});
test.beforeAll(async () => {
  const launched = await launchWithExtension();
  shared = { ...launched, extensionId: extensionIdOf(await serviceWorkerOf(launched.context)) };
});
test.afterAll(async () => {
  await shared?.close();
});

const HOST = 'swaplane-swap';
const HOLDER = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f';

type SafetyTokens = { feeOnTransfer: string; sellBlocked: string; clean: string };

/** A plain explorer page listing tokens, as an address page's token transfers would. */
function safetyPage(tokens: SafetyTokens): string {
  const row = (name: string, address: string) =>
    `<tr><td><a href="/token/${address}?a=${HOLDER}">${name}</a></td></tr>`;
  return `<!doctype html><title>Address ${HOLDER} | Etherscan</title><main><h2>Token transfers</h2><table><tbody>
${row('Taxed Devnet Token (TAX5)', tokens.feeOnTransfer)}
${row('Honeypot Devnet Token (HONEY)', tokens.sellBlocked)}
${row('Plain Devnet Token (PLAIN)', tokens.clean)}
${row('USD Coin (USDC)', ETH.usdc)}
</tbody></table></main>`;
}

test('real Etherscan holdings: a control on every ERC-20 of the dropdown, none on its NFT section or menus', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const page = REAL_PAGES.etherscanHoldings;
  await serveExplorerPages(context, extensionId, { [page.url]: realHtml(page.file) });
  const tab = await context.newPage();
  const problems = await watchPageProblems(tab);
  await tab.goto(page.url);
  // The dropdown is closed markup here (no page script): show it, then walk its list to the end.
  await tab.locator('#availableBalance').evaluate((menu) => {
    (menu as HTMLElement).style.display = 'block';
  });
  const list = tab.locator('#availableBalance ul.list');
  const height = await list.evaluate((element) => element.scrollHeight);
  for (let y = 0; y <= height + 800; y += 400) {
    await tab
      .locator('#availableBalance li')
      .nth(0)
      .evaluate((_, top) => window.scrollTo(0, top), 0);
    await list.evaluate((element, top) => {
      (element.closest('.overflow-auto, .scrollbar-custom') ?? element).scrollTop = top;
      element
        .querySelectorAll('li')
        [Math.min(Math.floor(top / 40), element.children.length - 1)]?.scrollIntoView();
    }, y);
    await frames(tab);
  }
  const erc20 = tab.locator('#availableBalance li.list-custom-ERC20 > a');
  await expect
    .poll(() => tab.locator(`#availableBalance li.list-custom-ERC20 > a + ${HOST}`).count(), {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(Math.ceil((await erc20.count()) * 0.98));
  // Zero controls on NFT items, menus and the footer; every control sits beside an ERC-20 link.
  expect(await tab.locator(`#availableBalance li.nav-item:not(.list-custom-ERC20) ${HOST}`).count()).toBe(0);
  expect(await tab.locator(`#masterHeader ${HOST}, footer ${HOST}`).count()).toBe(0);
  const beside = await tab.$$eval(HOST, (hosts) =>
    hosts.map(
      (host) => host.previousElementSibling?.closest('li.list-custom-ERC20, #js-chain-table') !== null,
    ),
  );
  expect(beside.every(Boolean)).toBe(true);
  expect(problems).toEqual([]);
});

/** The other real pages, each served at its own URL. */
const MORE_REAL_PAGES = [
  'etherscanNftInventory',
  'etherscanTokenSale',
  'etherscanExploiter',
  'etherscanTransfersFrame',
  'bscscanPhishing',
  'polygonscanPhishing',
  'arbiscanTokenTracker',
  'optimismDeposits',
  'ftmscanCurvePool',
  'snowtraceExploiter',
  'basescanTxTransfers',
  'basescanTxEth',
  'basescanTokenUsdc',
  'basescanNotAToken',
  'basescanHoldersFrame',
  'basescanTokenTransfers',
  'basescanHoldingsNft',
  'basescanDonateHoldings',
  'basescanContractHoldings',
  'basescanTokensLabel',
  'etherscanTokensLabel',
  'etherscanTx2021',
  'etherscanToken2019',
  'etherscanAddress2019',
  'etherscanAddress2023',
  'etherscanTokenHoldings',
] as const satisfies readonly (keyof typeof REAL_PAGES)[];

for (const name of MORE_REAL_PAGES) {
  test(`real ${name}: a control beside every ERC-20 link, none beside its menus or NFT links`, async ({
    context,
    extensionId,
  }) => {
    test.setTimeout(60_000);
    const page = REAL_PAGES[name];
    const url = new URL(page.url);
    await serveExplorerPages(context, extensionId, { [url.origin + url.pathname]: realHtml(page.file) });
    const tab = await context.newPage();
    const problems = await watchPageProblems(tab);
    await tab.goto(page.url);
    // Dropdowns the page's scripts would open are closed markup here: show them, then bring each
    // ERC-20 link into view (controls are placed as links come near the viewport).
    const erc20 = tab.locator(page.erc20);
    await erc20.evaluateAll((links) => {
      for (const link of links) {
        const menu = link.closest<HTMLElement>('.dropdown-menu, [id^="availableBalance"]');
        if (menu) menu.style.display = 'block';
      }
    });
    const count = await erc20.count();
    // Every 8th link and the last: a centred link brings its neighbours within the scanner's reach too.
    const stops = new Set([...Array.from({ length: Math.ceil(count / 8) }, (_, k) => k * 8), count - 1]);
    for (const i of stops) {
      if (i < 0) continue;
      await erc20.nth(i).evaluate((link) => link.scrollIntoView({ block: 'center' }));
      await frames(tab);
    }
    const beside = (selector: string) =>
      tab
        .locator(selector)
        .evaluateAll(
          (links, host) => links.filter((link) => link.nextElementSibling?.localName === host).length,
          HOST,
        );
    await expect
      .poll(() => beside(page.erc20), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(Math.ceil(count * 0.98));
    expect(await beside(page.refused)).toBe(0);
    // No control beside any other /token/ link.
    const strays = await tab.$$eval(
      HOST,
      (hosts, erc20Selector) =>
        hosts.filter((host) => {
          const link = host.previousElementSibling;
          return link?.matches('a[href*="/token/"], a[href^="0x"]') && !link.matches(erc20Selector);
        }).length,
      page.erc20,
    );
    expect(strays).toBe(0);
    // A token page's title carries its own control; no other page's does.
    // (Saved without their styles, some pages put the title below a long menu: bring it into view.)
    const title = 'titleControl' in page && page.titleControl;
    if ((await tab.locator('h1').count()) > 0) await tab.locator('h1').first().scrollIntoViewIfNeeded();
    await frames(tab);
    await expect(tab.locator(`h1 + ${HOST}`)).toHaveCount(title ? 1 : 0);
    expect(problems).toEqual([]);
  });
}

test("a token page's transfers frame: the saved 2017 frame inside a token page gets its controls", async ({
  context,
  extensionId,
}) => {
  const saved = REAL_PAGES.etherscanTransfersFrame;
  const frameUrl = new URL(saved.url);
  const token = frameUrl.searchParams.get('contractAddress') as string;
  // The token page as Etherscan builds it: its Transfers tab is a same-origin frame.
  const tokenPage = `<!doctype html><title>Kyber Network (KNC) | ERC-20 | Etherscan</title><main><h1>Token Kyber Network</h1>
<iframe id="tokentxnsiframe" src="${frameUrl.pathname}${frameUrl.search}" style="width:100%;height:600px"></iframe></main>`;
  await serveExplorerPages(context, extensionId, {
    [`https://etherscan.io/token/${token}`]: tokenPage,
    [frameUrl.origin + frameUrl.pathname]: realHtml(saved.file),
  });
  const tab = await context.newPage();
  const problems = await watchPageProblems(tab);
  await tab.goto(`https://etherscan.io/token/${token}`);
  await expect(tab.locator(`h1 + ${HOST}`)).toHaveAttribute('data-swaplane-token', token);
  const frame = tab.frameLocator('#tokentxnsiframe');
  await expect(frame.locator(`${HOST}[data-swaplane-token="${token}"]`).first()).toBeAttached();
  // Walk the frame's table: every ERC-20 link of it gets its control; its pagination none.
  const erc20 = frame.locator(saved.erc20);
  for (let i = 0; i < (await erc20.count()); i += 10) {
    await erc20.nth(i).evaluate((link) => link.scrollIntoView({ block: 'center' }));
  }
  await erc20.last().evaluate((link) => link.scrollIntoView({ block: 'center' }));
  await expect
    .poll(() =>
      erc20.evaluateAll(
        (links, host) => links.filter((link) => link.nextElementSibling?.localName === host).length,
        HOST,
      ),
    )
    .toBe(saved.erc20Count);
  await expect(frame.locator(`#PagingPanel ${HOST}`)).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('token safety on the card: fee-on-transfer, sell-blocking and clean tokens, simulated on the devnet', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(60_000);
  const tokens = JSON.parse(process.env.SWAPLANE_E2E_SAFETY_TOKENS ?? 'null') as SafetyTokens | null;
  if (!tokens) throw new Error('global-setup.ts did not record the safety tokens');
  const url = `https://etherscan.io/address/${HOLDER}`;
  await serveExplorerPages(context, extensionId, { [url]: safetyPage(tokens) });
  const tab = await context.newPage();
  const problems = await watchPageProblems(tab);
  await tab.goto(url);
  const card = async (address: string) => {
    // The card open before sits over the next rows (top layer): Escape closes it, as a person would.
    await tab.keyboard.press('Escape');
    const host = tab.locator(`${HOST}[data-swaplane-token="${address.toLowerCase()}"]`);
    await expect(host).toHaveAttribute('data-swaplane-listed', 'false');
    await host.getByRole('button', { name: 'Swap', exact: true }).click();
    const dialog = host.getByRole('dialog', { name: 'Swaplane quote' });
    await expect(dialog).toContainText('Not on the swap service’s list');
    return dialog;
  };
  await expect(await card(tokens.feeOnTransfer)).toContainText('Transfer tax: 5% on buying, 5% on selling', {
    timeout: 20_000,
  });
  await expect(await card(tokens.sellBlocked)).toContainText(
    'Sell blocked (honeypot): you could buy it but not sell it',
    { timeout: 20_000 },
  );
  const clean = await card(tokens.clean);
  await expect(clean).toContainText('Safety check: clean', { timeout: 20_000 });
  await expect(clean).toContainText('simulated on your Ethereum RPC (nothing was sent)');
  // The listed token gets its quote, naming the network, slippage and service.
  const usdc = tab.locator(`${HOST}[data-swaplane-token="${ETH.usdc}"]`);
  await expect(usdc).toHaveAttribute('data-swaplane-listed', 'true');
  await tab.keyboard.press('Escape');
  await usdc.getByRole('button', { name: 'Swap', exact: true }).click();
  const quote = usdc.getByRole('dialog', { name: 'Swaplane quote' });
  await expect(quote).toContainText('On Ethereum, slippage 0.5%', { timeout: 20_000 });
  await expect(quote).toContainText(
    `Quote from ${new URL(process.env.SWAPLANE_E2E_SERVICE_URL as string).origin}`,
  );
  expect(problems).toEqual([]);
});
