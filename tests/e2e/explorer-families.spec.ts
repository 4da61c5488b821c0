// The built extension on issue 30's page shapes (SYNTHETIC pages from tests/fixtures/explorer/families.ts,
// and BaseScan's real Multichain Portfolio): NFT evidence known page-wide and per frame, ERC-20
// payments on NFT pages, an explorer of a chain the swap service does not serve, links to other
// explorers quoted on their own chain, and the control's place (tab order, relayout).
import type { Page } from '@playwright/test';
import { AZUKI, FAMILY_PAGES, MOONBEAM } from '../fixtures/explorer/families.ts';
import { ETH, fixtureHtml } from '../fixtures/explorer/pages.ts';
import { REAL_PAGES, realHtml } from '../fixtures/explorer/real/pages.ts';
import { expect, frames, serveExplorerPages, test, watchPageProblems } from './fixtures';

const HOST = 'swaplane-swap';

/** Tokens with a control beside their link, as `<chain>:<token>`, sorted. */
async function controlled(page: Page): Promise<string[]> {
  const hosts = await page.$$eval(HOST, (list) =>
    list.map(
      (host) =>
        `${(host as HTMLElement).dataset.swaplaneChain}:${(host as HTMLElement).dataset.swaplaneToken}`,
    ),
  );
  return [...new Set(hosts)].sort();
}

test('NFT pages: the WETH and USDC payments get controls, the collections none (2022 sale tx, NFT trades)', async ({
  context,
  extensionId,
}) => {
  const { nftSale2022: sale, nftTrades: trades } = FAMILY_PAGES;
  await serveExplorerPages(context, extensionId, {
    [sale.url]: fixtureHtml(sale.file),
    [trades.url]: fixtureHtml(trades.file),
  });
  const tab = await context.newPage();
  const problems = await watchPageProblems(tab);
  for (const page of [sale, trades]) {
    await tab.goto(page.url);
    await expect.poll(() => controlled(tab)).toEqual(page.expected.map((token) => `1:${token}`).sort());
    await frames(tab);
    expect(await tab.locator(HOST).count()).toBe(page.controls);
  }
  expect(problems).toEqual([]);
});

test('each frame is judged by its own document: an NFT in the frame keeps its parent page link', async ({
  context,
  extensionId,
}) => {
  const parent = 'https://etherscan.io/address/0x4675c7e5baafbffbca748158becba61ef3b0a263';
  const frame = 'https://etherscan.io/token/generic-tokentxns2';
  await serveExplorerPages(context, extensionId, {
    [parent]: `<!doctype html><title>Address</title><main><p><a id="top" href="/token/${AZUKI}">Azuki</a></p>
      <iframe src="${frame}?m=normal" width="600" height="200"></iframe></main>`,
    [frame]: `<!doctype html><title>Transfers</title><main><p><a id="plain" href="/token/${AZUKI}">Azuki</a>
      <a href="/nft/${AZUKI}/12">#12</a></p></main>`,
  });
  const tab = await context.newPage();
  await tab.goto(parent);
  await expect(tab.locator(`#top + ${HOST}`)).toHaveCount(1);
  const inner = tab.frameLocator('iframe');
  await expect(inner.locator('#plain')).toBeVisible();
  await frames(tab);
  await tab.waitForTimeout(300); // the frame's scanner had its passes
  expect(await inner.locator(HOST).count()).toBe(0);
});

test('Moonscan (a chain the service does not serve): controls on its ERC-20s, a card that names Moonbeam and says so', async ({
  context,
  extensionId,
}) => {
  const page = FAMILY_PAGES.moonscan;
  await serveExplorerPages(context, extensionId, { [page.url]: fixtureHtml(page.file) });
  const tab = await context.newPage();
  await tab.goto(page.url);
  await tab.locator('#availableBalance').scrollIntoViewIfNeeded();
  await expect.poll(() => controlled(tab)).toEqual(page.expected.map((token) => `1284:${token}`).sort());
  expect(await tab.locator(`a[href*="${MOONBEAM.punks}"] + ${HOST}`).count()).toBe(0);
  await tab.locator(`a[href*="${MOONBEAM.wglmr}"] + ${HOST}`).getByRole('button', { name: 'Swap' }).click();
  await expect(tab.getByRole('dialog', { name: 'Swaplane quote' })).toContainText(
    'The swap service does not serve Moonbeam (chain 1284)',
  );
});

test("BaseScan's Multichain Portfolio (real): other explorers' tokens quoted on their own chain", async ({
  context,
  extensionId,
}) => {
  test.setTimeout(60_000);
  const page = REAL_PAGES.basescanHoldingsNft;
  await serveExplorerPages(context, extensionId, { [page.url]: realHtml(page.file) });
  const tab = await context.newPage();
  const problems = await watchPageProblems(tab);
  await tab.goto(page.url);
  const usdc = tab.locator(`#js-chain-table a[href^="https://etherscan.io/token/${ETH.usdc}"]`);
  await usdc.scrollIntoViewIfNeeded();
  const host = tab.locator(`#js-chain-table a[href^="https://etherscan.io/token/${ETH.usdc}"] + ${HOST}`);
  await expect(host).toHaveAttribute('data-swaplane-chain', '1');
  await host.getByRole('button', { name: 'Swap' }).click();
  // The devnet's Ethereum replica answers: the card names the chain the quote is on.
  await expect(tab.getByRole('dialog', { name: 'Swaplane quote' })).toContainText('On Ethereum');
  await tab.keyboard.press('Escape');
  // Controls are placed as links near the viewport: bring the Sonic row in first.
  await tab.locator('#js-chain-table a[href^="https://sonicscan.org/token/"]').scrollIntoViewIfNeeded();
  const sonic = tab.locator(`#js-chain-table a[href^="https://sonicscan.org/token/"] + ${HOST}`);
  await expect(sonic).toHaveAttribute('data-swaplane-chain', '146');
  await sonic.getByRole('button', { name: 'Swap' }).click();
  await expect(tab.getByRole('dialog', { name: 'Swaplane quote' })).toContainText(
    'does not serve Sonic (chain 146)',
  );
  expect(problems).toEqual([]);
});

test('the control: right after its link in the tab order, no wider than nothing in the flow, and moving with its link', async ({
  context,
  extensionId,
}) => {
  const url = 'https://etherscan.io/address/0x4675c7e5baafbffbca748158becba61ef3b0a263';
  await serveExplorerPages(context, extensionId, {
    [url]: `<!doctype html><title>Address</title><main><table><tbody><tr>
      <td id="cell"><a id="usdc" href="/token/${ETH.usdc}">USD Coin (USDC)</a></td><td><a id="next" href="/tx/0x1">0x1</a></td>
      </tr></tbody></table></main>`,
  });
  const tab = await context.newPage();
  await tab.goto(url);
  const host = tab.locator(`#usdc + ${HOST}`);
  await expect(host).toHaveCount(1);
  // The host takes no room in the flow: the cell is as wide as its link.
  const widths = await tab.evaluate(() => {
    const cell = document.getElementById('cell') as HTMLElement;
    const link = document.getElementById('usdc') as HTMLElement;
    const host = link.nextElementSibling as HTMLElement;
    return { cell: cell.clientWidth, link: link.offsetWidth, host: host.getBoundingClientRect().width };
  });
  expect(widths.host).toBe(0);
  expect(widths.cell).toBeLessThanOrEqual(widths.link + 4);
  // Tab order: the link, then its control, then the next link.
  await tab.locator('#usdc').focus();
  await tab.keyboard.press('Tab');
  await expect(host.getByRole('button', { name: 'Swap' })).toBeFocused();
  await tab.keyboard.press('Tab');
  await expect(tab.locator('#next')).toBeFocused();
  // A relayout (the page inserts a banner above): the button moves with its link.
  const gap = async () =>
    tab.evaluate(() => {
      const link = (document.getElementById('usdc') as HTMLElement).getBoundingClientRect();
      const host = (document.getElementById('usdc') as HTMLElement).nextElementSibling as HTMLElement;
      const button = host.shadowRoot?.querySelector('[role=button]')?.getBoundingClientRect() as DOMRect;
      return {
        dx: Math.round(button.left - link.right),
        dy: Math.round(button.top - link.top),
        top: link.top,
      };
    });
  const before = await gap();
  await tab.evaluate(() => {
    const banner = document.createElement('div');
    banner.style.height = '120px';
    document.querySelector('main')?.prepend(banner);
  });
  const after = await gap();
  expect(after.top).toBeGreaterThan(before.top + 100);
  expect({ dx: after.dx, dy: after.dy }).toEqual({ dx: before.dx, dy: before.dy });
});
