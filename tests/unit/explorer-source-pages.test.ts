// @vitest-environment happy-dom
// Detection on explorer pages built from the explorers' own source (Blockscout's app and its
// server-rendered UI): every ERC-20 token link gets a control, and no NFT, menu or other link does.
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_LISTED } from '@/lib/explorer/inject';
import { type Scanner, startScanner } from '@/lib/explorer/scanner';
import {
  card,
  click,
  fakeMessenger,
  hosts,
  loadPage,
  nextFrame,
  settle,
  swapButton,
  tokensOf,
} from '../fixtures/explorer/dom';
import { BAYC } from '../fixtures/explorer/families';
import { ETH, SPAM_TOKEN } from '../fixtures/explorer/pages';
import { score } from '../fixtures/explorer/score';
import { SOURCE_PAGES, type SourcePage, sourceHtml } from '../fixtures/explorer/source/pages';

describe('explorer pages built from source', () => {
  it.each(Object.entries(SOURCE_PAGES))(
    '%s: every ERC-20 link, and nothing else',
    async (name, page: SourcePage) => {
      const result = await score(sourceHtml(page.file), page);
      expect(result.erc20).toHaveLength(page.erc20Count);
      expect(result.refused.length).toBeGreaterThanOrEqual(page.refusedCount);
      console.info(
        `${name}: ${result.hit}/${result.erc20.length} ERC-20 links, ` +
          `${result.refusedWithControl} of ${result.refused.length} NFT/menu links, ${result.wrong.length} other token links with a control`,
      );
      expect(result.hit).toBe(result.erc20.length);
      expect(result.refusedWithControl).toBe(0);
      expect(result.wrong.map((record) => record.element.getAttribute('href'))).toEqual([]);
      expect(result.title).toBe(page.titleControl ?? false);
      expect(result.wrongChain.map((record) => record.element.getAttribute('href'))).toEqual([]);
    },
  );
});

// A token that names itself after USDC: what the control says and does comes from the wallet's list
// and the background, never from the page's words.
describe('a scam token labelled "USD Coin" by the page', () => {
  let scanner: Scanner | undefined;
  afterEach(() => {
    scanner?.stop();
    scanner = undefined;
  });

  async function open(page: SourcePage, messenger = fakeMessenger()) {
    loadPage(page.url, `source/${page.file}`);
    scanner = startScanner({ chainId: page.chainId, messenger, lazy: false });
    await nextFrame(); // the address-link sweep
    await settle(); // whitelist answers
    return messenger;
  }

  it('Blockscout: its /token/ link gets a button marked not listed, and its card checks the token', async () => {
    const messenger = await open(SOURCE_PAGES.blockscoutAddress);
    const [scam, ...more] = hosts().filter((host) => host.dataset.swaplaneToken === SPAM_TOKEN);
    if (!scam) throw new Error('no control for the scam token');
    expect(more).toEqual([]);
    expect(scam.dataset.swaplaneListed).toBe('false');
    expect(swapButton(scam).title).toContain(NOT_LISTED);
    // The real USDC, named the same on the page, is the listed one.
    const usdc = hosts().filter((host) => host.dataset.swaplaneToken === ETH.usdc);
    expect(usdc.map((host) => host.dataset.swaplaneListed)).toEqual(['true', 'true']);
    // The NFT groups of the same menu stay bare.
    expect(tokensOf(hosts())).not.toContain(BAYC);
    click(swapButton(scam));
    await settle();
    expect(messenger.quoteCalls).toEqual([]);
    expect(messenger.safetyCalls).toEqual([SPAM_TOKEN]);
    const text = card(scam)?.textContent ?? '';
    expect(text).toContain(NOT_LISTED);
    expect(text).not.toMatch(/USD Coin|USDC/);
  });

  it('Otterscan: its /address/ link, named by the token itself, gets no button at all', async () => {
    const messenger = await open(SOURCE_PAGES.otterscanTx);
    expect(new Set(tokensOf(hosts()))).toEqual(new Set([ETH.usdc, ETH.weth]));
    // Asked about (every /address/ link is), refused by the list.
    expect(messenger.whitelistCalls.flat()).toContain(SPAM_TOKEN);
  });
});

// Blockscout's app renders placeholder rows while its data loads: each link a skeleton
// (`data-loading="true"`, toolkit/chakra/skeleton.tsx) pointing at its stubs' token, "Stub Token
// (goerli)"; the data then re-points the same elements.
describe('Blockscout app: placeholder rows while the data loads', () => {
  const STUB = '0x2b51ae4412f79c3c1cb12aa40ea4eceb4e80511a';
  let scanner: Scanner | undefined;
  afterEach(() => {
    scanner?.stop();
    scanner = undefined;
  });

  it('get no control; the rows the data fills in do', async () => {
    const page = SOURCE_PAGES.blockscoutAddress;
    loadPage(page.url, `source/${page.file}`);
    const links = [...document.querySelectorAll('tbody a[href^="/token/"]')];
    const real = links.map((link) => link.getAttribute('href'));
    for (const link of links) {
      link.setAttribute('data-loading', 'true');
      link.setAttribute('href', `/token/${STUB}`);
    }
    const messenger = fakeMessenger();
    scanner = startScanner({ chainId: page.chainId, messenger, lazy: false });
    await nextFrame();
    await settle();
    expect(tokensOf(hosts())).not.toContain(STUB);
    expect(messenger.whitelistCalls.flat()).not.toContain(STUB);
    // The data arrives: one commit re-points each link and drops its loading mark.
    links.forEach((link, i) => {
      link.removeAttribute('data-loading');
      link.setAttribute('href', real[i] ?? '');
    });
    await nextFrame();
    await settle();
    const table = hosts(document.querySelector('tbody') as Element);
    expect(tokensOf(table)).toEqual([ETH.usdc, ETH.weth]);
  });
});
