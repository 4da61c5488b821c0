// @vitest-environment happy-dom
// Issue 30's page shapes in the scanner: NFT evidence known page-wide (a 2022 NFT sale), ERC-20
// payments on NFT trade pages, explorers of chains outside the swap registry (their cards say the
// service does not serve them), and links to other explorers (BaseScan's Multichain Portfolio, real).
import { afterEach, describe, expect, it } from 'vitest';
import { chainName } from '@/lib/chains';
import type { Outcome } from '@/lib/explorer/messenger';
import { type Scanner, startScanner } from '@/lib/explorer/scanner';
import { explorerChainOf } from '@/lib/explorer/site';
import { card, click, fakeMessenger, hosts, nextFrame, settle, swapButton } from '../fixtures/explorer/dom';
import { AZUKI, FAMILY_PAGES, type FamilyPage } from '../fixtures/explorer/families';
import { ETH, fixtureHtml } from '../fixtures/explorer/pages';
import { REAL_PAGES, realHtml } from '../fixtures/explorer/real/pages';

let scanner: Scanner | undefined;
afterEach(() => {
  scanner?.stop();
  scanner = undefined;
});

function load(url: string, html: string): void {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.head.replaceChildren(
    ...[...parsed.head.childNodes].map((node) => document.importNode(node, true)),
  );
  document.body.replaceChildren(
    ...[...parsed.body.childNodes].map((node) => document.importNode(node, true)),
  );
}

/** A background that serves chain 1 and 8453 only, like the devnet; every quote's chain recorded. */
function messenger() {
  const fake = fakeMessenger();
  const quoted: [number, string][] = [];
  const served = new Set([1, 8453]);
  const notServed = (chainId: number): Outcome<never> => ({
    ok: false,
    error: {
      code: 'CHAIN_NOT_SERVED',
      message: `The swap service does not serve ${chainName(chainId)} (chain ${chainId}): no quote here.`,
    },
  });
  const whitelisted = fake.whitelistedTokens;
  fake.whitelistedTokens = async (chainId, addresses) =>
    served.has(chainId) ? whitelisted(chainId, addresses) : notServed(chainId);
  fake.oneClickQuote = async (chainId, token) => {
    quoted.push([chainId, token]);
    return served.has(chainId) ? fake.quoteAnswer : notServed(chainId);
  };
  return Object.assign(fake, { quoted });
}

async function scan(url: string, html: string, chainId: number, background = messenger()) {
  load(url, html);
  scanner = startScanner({ chainId, messenger: background, lazy: false });
  await nextFrame();
  await settle();
  return background;
}

const tokensOn = (chainId: number) =>
  new Set(
    hosts()
      .filter((host) => host.dataset.swaplaneChain === String(chainId))
      .map((host) => host.dataset.swaplaneToken),
  );

describe('explorer families and NFT evidence (synthetic pages)', () => {
  it.each(Object.entries(FAMILY_PAGES))(
    '%s: the expected tokens, none of the refused',
    async (_, page: FamilyPage) => {
      expect(explorerChainOf(new URL(page.url))).toBe(page.chainId);
      await scan(page.url, fixtureHtml(page.file), page.chainId);
      expect(tokensOn(page.chainId)).toEqual(new Set(page.expected));
      expect(hosts()).toHaveLength(page.controls);
      for (const address of page.refused) expect(tokensOn(page.chainId).has(address)).toBe(false);
    },
  );

  it('a 2022 NFT sale: the collection link that names no token id loses its control to the page-wide evidence', async () => {
    const page = FAMILY_PAGES.nftSale2022;
    await scan(page.url, fixtureHtml(page.file), 1);
    const transfers = [...document.querySelectorAll(`a[href*="${AZUKI}" i]`)];
    // Plain /token/<collection> links (3), token id links (3), /nft/ links (3): none has a control.
    expect(transfers).toHaveLength(9);
    for (const link of transfers) expect(link.nextElementSibling?.localName).not.toBe('swaplane-swap');
  });

  it('NFT evidence that arrives later takes the control off links placed before it', async () => {
    const url = 'https://etherscan.io/address/0x4675c7e5baafbffbca748158becba61ef3b0a263';
    await scan(url, `<main><p><a href="/token/${AZUKI}">Azuki</a></p></main>`, 1);
    expect(hosts()).toHaveLength(1);
    const later = document.createElement('p');
    later.innerHTML = `<a href="/nft/${AZUKI}/7">#7</a>`;
    document.querySelector('main')?.append(later);
    await nextFrame();
    expect(hosts()).toHaveLength(0);
  });

  it('an explorer of a chain the service does not serve: the card names the chain and says so', async () => {
    const page = FAMILY_PAGES.moonscan;
    const background = await scan(page.url, fixtureHtml(page.file), page.chainId);
    const host = hosts()[0] as HTMLElement;
    // Not marked "not listed": the chain's list could not be asked, so the card asks for a quote.
    expect(host.dataset.swaplaneListed).toBeUndefined();
    click(swapButton(host));
    await settle();
    expect(background.quoted).toEqual([[1284, page.expected[0]]]);
    expect(card(host)?.textContent).toContain('The swap service does not serve Moonbeam (chain 1284)');
  });
});

describe("links to other explorers (BaseScan's Multichain Portfolio, real markup)", () => {
  it("each gets a control on its explorer's chain, and its quote is asked on that chain", async () => {
    const page = REAL_PAGES.basescanHoldingsNft;
    const background = await scan(page.url, realHtml(page.file), page.chainId);
    const table = document.querySelector('#js-chain-table') as Element;
    const links = [...table.querySelectorAll('a[href*="/token/0x"]')];
    expect(links).toHaveLength(131);
    for (const link of links) {
      const host = link.nextElementSibling as HTMLElement;
      expect(host.localName).toBe('swaplane-swap');
      const expected = explorerChainOf(new URL(link.getAttribute('href') as string));
      expect(host.dataset.swaplaneChain).toBe(String(expected));
    }
    // USDC on Ethereum: on the service's list there (a token not listed gets the safety check instead).
    const onEthereum = links.find((link) =>
      link.getAttribute('href')?.startsWith(`https://etherscan.io/token/${ETH.usdc}`),
    );
    click(swapButton(onEthereum?.nextElementSibling as Element));
    await settle();
    expect(background.quoted[0]).toEqual([1, ETH.usdc]);
    const onSonic = links.find((link) => link.getAttribute('href')?.startsWith('https://sonicscan.org/'));
    click(swapButton(onSonic?.nextElementSibling as Element));
    await settle();
    expect(card(onSonic?.nextElementSibling as Element)?.textContent).toContain('does not serve Sonic');
  }, 30_000);
});
