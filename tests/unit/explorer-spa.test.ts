// @vitest-environment happy-dom
// Single-page apps on SYNTHETIC markup (tests/fixtures/explorer/synthetic-spa.ts; no saved Blockscout or
// Routescan page was found): the app replaces the body, changes the route with pushState, renders
// table rows over several frames and removes links it re-renders; Routescan's NFT and other-chain links.
import { afterEach, describe, expect, it } from 'vitest';
import { detect } from '@/lib/explorer/detect';
import { type Scanner, startScanner } from '@/lib/explorer/scanner';
import { fakeMessenger, hosts, nextFrame, settle, tokensOf } from '../fixtures/explorer/dom';
import {
  blockscoutChrome,
  blockscoutErc20Row,
  blockscoutNftCard,
  blockscoutTokenMenu,
  blockscoutTransferSnippets,
  erc20At,
  HOLDER,
  nftAt,
  routescanAddressPage,
} from '../fixtures/explorer/synthetic-spa';

let scanner: Scanner | undefined;
afterEach(() => {
  scanner?.stop();
  scanner = undefined;
});

function setUrl(url: string): void {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
}

/** The app's first paint: its chrome and a skeleton, no data yet. */
function appShell(): void {
  setUrl('https://eth.blockscout.com/');
  document.body.innerHTML = `<div id="__next">${blockscoutChrome()}<main><div class="chakra-skeleton"></div></main></div>`;
}

/** What the app does on a route change: a new body, the tab's table still empty. */
function renderAddressRoute(tab: string): HTMLElement {
  history.pushState({}, '', `/address/${HOLDER}?tab=${tab}`);
  const body = document.createElement('body');
  body.innerHTML = `<div id="__next">${blockscoutChrome()}<main><h1>Address ${HOLDER}</h1><table><tbody></tbody></table><div class="css-grid"></div></main></div>`;
  document.documentElement.replaceChild(body, document.body);
  return body;
}

const erc20Controls = () => hosts().filter((host) => host.previousElementSibling?.closest('main'));

/** The app on its ERC-20 holdings route with two rows rendered, each with its control. */
async function twoErc20Rows(): Promise<HTMLElement> {
  appShell();
  scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
  const body = renderAddressRoute('tokens_erc20');
  (body.querySelector('tbody') as HTMLElement).innerHTML = blockscoutErc20Row(0) + blockscoutErc20Row(1);
  await nextFrame();
  expect(erc20Controls()).toHaveLength(2);
  return body;
}

describe('Blockscout-like single-page app (synthetic markup)', () => {
  it('a body replaced by the app and rows rendered over several frames: one control per ERC-20 link', async () => {
    appShell();
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    await nextFrame();
    expect(hosts()).toHaveLength(0); // the menu's token link is navigation
    const body = renderAddressRoute('tokens_erc20');
    await nextFrame();
    const tbody = body.querySelector('tbody') as HTMLElement;
    // Lazily rendered: 3 batches of 20 rows, one per frame, as a virtualised/paged table appends them.
    for (let batch = 0; batch < 3; batch++) {
      tbody.insertAdjacentHTML(
        'beforeend',
        Array.from({ length: 20 }, (_, i) => blockscoutErc20Row(batch * 20 + i)).join(''),
      );
      await nextFrame();
    }
    await settle();
    const links = [...tbody.querySelectorAll('a[href^="/token/"]')];
    expect(links).toHaveLength(60);
    for (const link of links) {
      expect(link.nextElementSibling?.localName, link.getAttribute('href') ?? '').toBe('swaplane-swap');
      expect(link.parentElement?.querySelectorAll('swaplane-swap')).toHaveLength(1);
    }
    expect(new Set(tokensOf(erc20Controls()))).toEqual(new Set(links.map((_, i) => erc20At(i))));
    expect(body.querySelectorAll('nav swaplane-swap, header swaplane-swap')).toHaveLength(0);
  });

  it('a route to the NFT tab: instance and collection links get none, and the old rows’ controls go with them', async () => {
    await twoErc20Rows();
    const next = renderAddressRoute('tokens_nfts');
    await nextFrame();
    (next.querySelector('.css-grid') as HTMLElement).innerHTML = Array.from({ length: 8 }, (_, i) =>
      blockscoutNftCard(i),
    ).join('');
    await nextFrame();
    await settle();
    expect(hosts()).toHaveLength(0);
  });

  it('NFT instance links get none on an ERC-20 route either', async () => {
    appShell();
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    const body = renderAddressRoute('tokens_erc20');
    await nextFrame();
    (body.querySelector('.css-grid') as HTMLElement).innerHTML = blockscoutNftCard(3);
    (body.querySelector('tbody') as HTMLElement).innerHTML = blockscoutErc20Row(0);
    await nextFrame();
    await settle();
    expect(body.querySelector('a[href*="/instance/"] + swaplane-swap')).toBeNull();
    expect(tokensOf(erc20Controls())).toContain(erc20At(0));
  });

  it('a link the app removes takes its control with it, even when the app keeps the cell', async () => {
    const body = await twoErc20Rows();
    // A re-render that swaps the link element inside the same container (React keeps the <div>).
    const link = body.querySelector(`a[href="/token/${erc20At(0)}"]`) as HTMLElement;
    const fresh = link.cloneNode(true) as HTMLElement;
    link.remove();
    (body.querySelector('.css-entity') as HTMLElement).prepend(fresh);
    await nextFrame();
    await settle();
    expect(tokensOf(erc20Controls()).sort()).toEqual([erc20At(0), erc20At(1)].sort());
    expect(fresh.nextElementSibling?.localName).toBe('swaplane-swap');
    expect(body.querySelectorAll('.css-entity')[0]?.querySelectorAll('swaplane-swap')).toHaveLength(1);
  });
});

describe('Blockscout-like token menu and transfer snippets (synthetic markup)', () => {
  it("the address page's token menu: its ERC-20 group's links only, whatever a token is called", async () => {
    const doc = new DOMParser().parseFromString(blockscoutTokenMenu(), 'text/html');
    const records = await detect(doc, `https://eth.blockscout.com/address/${HOLDER}`, 1, async () => []);
    expect(records.map((record) => record.address)).toEqual([erc20At(10), erc20At(11)]);
  });

  it("a transaction's NFT transfers name their collection with no control; the ERC-20 one gets its own", async () => {
    const doc = new DOMParser().parseFromString(blockscoutTransferSnippets(), 'text/html');
    const records = await detect(doc, 'https://eth.blockscout.com/tx/0x01', 1, async () => []);
    expect(records.map((record) => record.address)).toEqual([erc20At(20)]);
    expect(doc.querySelectorAll(`a[href="/token/${nftAt(20)}"],a[href="/token/${nftAt(21)}"]`)).toHaveLength(
      2,
    );
  });
});

describe('Routescan-like address page (synthetic markup)', () => {
  it('ERC-20 links get a control; /nft/ items, ?type=erc721, other chains and menus none', async () => {
    const doc = new DOMParser().parseFromString(routescanAddressPage(), 'text/html');
    const records = await detect(doc, `https://snowtrace.io/address/${HOLDER}`, 43114, async () => []);
    const controlled = new Set(records.map((record) => record.element));
    const erc20 = [...doc.querySelectorAll('[data-kind="erc20"]')];
    expect(erc20).toHaveLength(12);
    expect(erc20.filter((link) => controlled.has(link))).toHaveLength(12);
    const refused = [
      ...doc.querySelectorAll('[data-kind="nft"],[data-kind="menu"],[data-kind="other-chain"]'),
    ];
    expect(refused).toHaveLength(16);
    expect(refused.filter((link) => controlled.has(link)).map((link) => link.getAttribute('href'))).toEqual(
      [],
    );
  });
});
