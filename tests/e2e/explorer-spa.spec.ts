// The built extension on SYNTHETIC single-page explorers (tests/fixtures/explorer/synthetic-spa.ts: no
// saved Blockscout or Routescan page exists to use): the page's own script replaces its body, renders
// rows later, changes the route with pushState and opens a token menu; Routescan's pages on snowtrace.io
// and routescan.io. Also Blockscout's server-rendered UI as its templates render it (source/), its token
// dropdown put in by script. Lazy placement (IntersectionObserver) and WXT's location watch run for real.
import type { Page } from '@playwright/test';
import { sourceHtml } from '../fixtures/explorer/source/pages.ts';
import {
  blockscoutChrome,
  blockscoutErc20Row,
  blockscoutNftCard,
  blockscoutTokenMenu,
  erc20At,
  HOLDER,
  nftAt,
  routescanAddressPage,
} from '../fixtures/explorer/synthetic-spa.ts';
import { expect, frames, serveExplorerPages, test, watchPageProblems } from './fixtures';

const HOST = 'swaplane-swap';
const APP = 'https://eth.blockscout.com';

/** What the app serves before its data arrives: its chrome and an empty main. */
const shell = `<!doctype html><title>Blockscout</title><body><div id="__next">${blockscoutChrome()}<main></main></div></body>`;

/** Links under `selector` with a control right after them, and without. */
async function controls(page: Page, selector: string): Promise<{ with: number; without: number }> {
  return page.locator(selector).evaluateAll((links, host) => {
    const beside = links.filter((link) => link.nextElementSibling?.localName === host).length;
    return { with: beside, without: links.length - beside };
  }, HOST);
}

test('a Blockscout-like app: ERC-20 rows rendered late and routed to get controls; its NFT tab and menu groups none', async ({
  context,
  extensionId,
}) => {
  await serveExplorerPages(context, extensionId, { [`${APP}/`]: shell });
  const tab = await context.newPage();
  const problems = await watchPageProblems(tab);
  await tab.goto(`${APP}/`);
  await frames(tab);

  // The app routes to the address's ERC-20 tab (no reload) and renders its rows over two frames.
  await tab.evaluate(
    ({ holder, rows }) => {
      history.pushState({}, '', `/address/${holder}?tab=tokens_erc20`);
      const main = document.querySelector('main') as HTMLElement;
      main.innerHTML = `<h1>Address ${holder}</h1><table><tbody>${rows[0]}</tbody></table>`;
      requestAnimationFrame(() =>
        main.querySelector('tbody')?.insertAdjacentHTML('beforeend', rows[1] ?? ''),
      );
    },
    { holder: HOLDER, rows: [blockscoutErc20Row(0) + blockscoutErc20Row(1), blockscoutErc20Row(2)] },
  );
  const erc20Links = 'main a[href^="/token/"]';
  await expect.poll(() => controls(tab, erc20Links)).toEqual({ with: 3, without: 0 });
  await expect(tab.locator(`${HOST}[data-swaplane-token="${erc20At(2)}"]`)).toHaveAttribute(
    'data-swaplane-chain',
    '1',
  );
  // The site's menu (a featured token) stays bare.
  expect(await controls(tab, 'nav a[href^="/token/"]')).toEqual({ with: 0, without: 1 });

  // To the NFT tab: the app swaps the table for NFT cards; their instance and collection links get
  // nothing, and the rows' controls leave with their rows.
  await tab.evaluate(
    ({ holder, cards }) => {
      history.pushState({}, '', `/address/${holder}?tab=tokens_nfts`);
      (document.querySelector('main') as HTMLElement).innerHTML = `<h1>Address ${holder}</h1>${cards}`;
    },
    { holder: HOLDER, cards: [0, 1, 2].map(blockscoutNftCard).join('') },
  );
  await frames(tab);
  await frames(tab);
  expect(await controls(tab, 'main a[href^="/token/"]')).toEqual({ with: 0, without: 6 });
  await expect(tab.locator(`main ${HOST}`)).toHaveCount(0);

  // Back to the holdings route, and the address's token menu opened: only its ERC-20 group gets controls.
  await tab.evaluate(
    ({ holder, menu }) => {
      history.pushState({}, '', `/address/${holder}`);
      (document.querySelector('main') as HTMLElement).innerHTML = `<h1>Address ${holder}</h1>${menu}`;
    },
    { holder: HOLDER, menu: blockscoutTokenMenu() },
  );
  const erc20Group = `main a[href="/token/${erc20At(10)}"], main a[href="/token/${erc20At(11)}"]`;
  await expect.poll(() => controls(tab, erc20Group)).toEqual({ with: 2, without: 0 });
  const nftGroups = [10, 11, 12].map((i) => `main a[href="/token/${nftAt(i)}"]`).join(', ');
  await frames(tab);
  expect(await controls(tab, nftGroups)).toEqual({ with: 0, without: 3 });
  expect(problems).toEqual([]);
});

test('Blockscout server-rendered UI: the token dropdown its script loads, hidden until opened: its ERC-20s get controls, its NFT groups and the navbar menu none', async ({
  context,
  extensionId,
}) => {
  // Built from blockscout/blockscout's templates (tests/fixtures/explorer/README.md): served with the
  // spinner only, as the server sends it; the dropdown comes in later, as token_balance_dropdown.js
  // puts it in, inside a Bootstrap menu that shows once opened.
  const [head, rest] = sourceHtml('blockscout-legacy-address.html').split('<!-- loaded -->');
  const [loaded, tail] = (rest ?? '').split('<!-- /loaded -->');
  const url = 'https://gnosis.blockscout.com/address/0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
  await serveExplorerPages(context, extensionId, {
    [url]: `${head}<span data-loading>Fetching tokens...</span>${tail}`,
  });
  const tab = await context.newPage();
  const problems = await watchPageProblems(tab);
  await tab.goto(url);
  await frames(tab);
  await tab.evaluate((html) => {
    (document.querySelector('[data-token-balance-dropdown]') as HTMLElement).innerHTML = html;
  }, loaded ?? '');
  await frames(tab);
  // The user opens the dropdown, and the navbar's Tokens menu.
  await tab.evaluate(() => {
    for (const menu of document.querySelectorAll('.dropdown-menu')) menu.classList.add('show');
  });
  await expect.poll(() => controls(tab, '[data-token-type="ERC-20"] a')).toEqual({ with: 3, without: 0 });
  await frames(tab);
  const bare = '[data-token-type="ERC-721"] a, [data-token-type="ERC-1155"] a, nav a[href^="/token/"]';
  expect(await controls(tab, bare)).toEqual({ with: 0, without: 4 });
  await expect(tab.locator(HOST).first()).toHaveAttribute('data-swaplane-chain', '100');
  expect(problems).toEqual([]);
});

for (const url of [
  `https://snowtrace.io/address/${HOLDER}`,
  `https://routescan.io/address/${HOLDER}?chainid=43114`,
]) {
  test(`Routescan-built ${new URL(url).host}: ERC-20 links get controls on Avalanche; NFTs, other chains and menus none`, async ({
    context,
    extensionId,
  }) => {
    const parsed = new URL(url);
    await serveExplorerPages(context, extensionId, {
      [parsed.origin + parsed.pathname]: routescanAddressPage(),
    });
    const tab = await context.newPage();
    const problems = await watchPageProblems(tab);
    await tab.goto(url);
    await expect.poll(() => controls(tab, '[data-kind="erc20"]')).toEqual({ with: 12, without: 0 });
    await expect(tab.locator(HOST).first()).toHaveAttribute('data-swaplane-chain', '43114');
    await tab.locator('footer').scrollIntoViewIfNeeded();
    await frames(tab);
    expect(await controls(tab, '[data-kind="nft"], [data-kind="menu"], [data-kind="other-chain"]')).toEqual({
      with: 0,
      without: 16,
    });
    expect(problems).toEqual([]);
  });
}
