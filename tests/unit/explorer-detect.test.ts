// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { chainForExplorerHost } from '@/lib/chains/hosts';
import {
  createWhitelist,
  type Detected,
  detect,
  pageInfo,
  pageTarget,
  parseHref,
  scanLinks,
} from '@/lib/explorer/detect';
import { explorerChainOf, explorerMatches } from '@/lib/explorer/site';
import { ETH, type FixturePage, fixtureHtml, PAGES, SPAM_TOKEN, WHITELIST } from '../fixtures/explorer/pages';

function parse(page: FixturePage): Document {
  return new DOMParser().parseFromString(fixtureHtml(page.file), 'text/html');
}

/** The background's answer, from the devnet lists; records every call. */
function fakeWhitelist() {
  const calls: string[][] = [];
  const whitelisted = async (chainId: number, addresses: string[]) => {
    calls.push(addresses);
    return addresses.filter((address) => WHITELIST[chainId]?.includes(address));
  };
  return { calls, whitelisted };
}

const addresses = (records: Detected[]) => new Set(records.map((record) => record.address));

describe('detection on fixture pages', () => {
  it.each(Object.entries(PAGES))('%s page: exactly the expected tokens', async (_, page) => {
    const doc = parse(page);
    const { whitelisted } = fakeWhitelist();
    const records = await detect(doc, page.url, page.chainId, whitelisted);
    expect(addresses(records)).toEqual(new Set(page.expected));
    for (const address of page.notTokens) expect(addresses(records).has(address)).toBe(false);
    // One record per element, every address normalised.
    expect(new Set(records.map((record) => record.element)).size).toBe(records.length);
    for (const record of records) expect(record.address).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it('Etherscan token page: the title carries the token from the URL, links their own', async () => {
    const page = PAGES.token;
    const doc = parse(page);
    const records = await detect(doc, page.url, 1, fakeWhitelist().whitelisted);
    const title = records.filter((record) => record.kind === 'page');
    expect(title).toHaveLength(1);
    expect(title[0]?.element.tagName).toBe('H1');
    expect(title[0]?.address).toBe(ETH.usdc);
    // The contract row's /address/ link is USDC itself: confirmed by the whitelist.
    const contract = records.find((record) => record.kind === 'address');
    expect(contract?.element.getAttribute('href')).toBe(`/address/${ETH.usdc}`);
    // Holder links (/token/<token>?a=<holder>) name the token, never the holder.
    const holders = records.filter((record) => record.element.getAttribute('href')?.includes('?a='));
    expect(holders.length).toBeGreaterThanOrEqual(4);
    for (const record of holders) expect(record.address).toBe(ETH.usdc);
  });

  it('an NFT collection page (ERC-721 badge beside the title, or an Inventory tab): no control on its title', async () => {
    const page = PAGES.token;
    const erc721 = parse(page);
    const badge = [...erc721.querySelectorAll('span.badge')].find((span) => span.textContent === 'ERC-20');
    expect(badge).toBeDefined();
    if (badge) badge.textContent = 'ERC-721';
    expect(
      (await detect(erc721, page.url, 1, fakeWhitelist().whitelisted)).filter((r) => r.kind === 'page'),
    ).toEqual([]);
    // Nor on its holders' and transfers' links to the collection (/token/<collection>?a=<holder>),
    // which the ERC-20 page has too, with controls.
    const own = (record: Detected) => record.address === ETH.usdc;
    expect((await detect(erc721, page.url, 1, fakeWhitelist().whitelisted)).filter(own)).toEqual([]);
    expect(
      (await detect(parse(page), page.url, 1, fakeWhitelist().whitelisted)).filter(own).length,
    ).toBeGreaterThan(3);

    const inventory = parse(page);
    const tab = inventory.createElement('a');
    tab.setAttribute('href', '#inventory');
    tab.textContent = 'Inventory';
    inventory.querySelector('main')?.append(tab);
    expect(pageTarget(inventory, pageInfo(page.url, 1))).toBeUndefined();
    // The ERC-20 page itself keeps its title control, though the site menu says "NFTs".
    const erc20 = parse(page);
    erc20.querySelector('header')?.insertAdjacentHTML('beforeend', '<a href="/nft-top-mints">Top NFTs</a>');
    expect(pageTarget(erc20, pageInfo(page.url, 1))?.element.tagName).toBe('H1');
  });

  it("a token page's standard in its document title; the template's empty Inventory pane and a hidden tab", () => {
    const page = PAGES.token;
    const doc = parse(page);
    // Every Etherscan-family token page carries the pane; only an NFT collection's shows its tab.
    doc
      .querySelector('main')
      ?.insertAdjacentHTML(
        'beforeend',
        '<div class="tab-pane fade" id="inventory" aria-labelledby="tabInventory"></div><ul><li style="display: none"><a href="#inventory">Inventory</a></li></ul>',
      );
    expect(pageTarget(doc, pageInfo(page.url, 1))?.element.tagName).toBe('H1');
    doc.title = 'NFT | ERC-1155 | Address: 0x71c7656e...5f6d8976f | Etherscan';
    expect(pageTarget(doc, pageInfo(page.url, 1))).toBeUndefined();
    doc.title = 'USDC (USDC) | ERC-20 | Address: 0xa0b86991...e3606eb48 | Etherscan';
    doc.querySelector('li[style]')?.removeAttribute('style');
    expect(pageTarget(doc, pageInfo(page.url, 1))?.element.tagName).toBe('H1');
  });

  it('reads the href, never the truncated visible text', async () => {
    const page = PAGES.token;
    const doc = parse(page);
    const records = await detect(doc, page.url, 1, fakeWhitelist().whitelisted);
    const truncated = [...doc.querySelectorAll('a')].find((a) => a.textContent === '0xA0b8...eB48');
    expect(truncated).toBeDefined();
    expect(records.some((record) => record.element === truncated)).toBe(false);
    // A link whose text is a shortened address still yields the full address from its href.
    const shortText = [...doc.querySelectorAll('a')].find((a) => a.textContent === '0x4675C7e5...1ef3b0a263');
    expect(records.find((record) => record.element === shortText)?.address).toBe(ETH.usdc);
  });

  it('address page: holdings dropdown links and the USDT contract link, not the wallets or the router', async () => {
    const page = PAGES.address;
    const doc = parse(page);
    const records = await detect(doc, page.url, 1, fakeWhitelist().whitelisted);
    const dropdown = doc.getElementById('availableBalance');
    const inDropdown = records.filter((record) => dropdown?.contains(record.element));
    expect(inDropdown.map((record) => record.address)).toEqual([
      ETH.usdt,
      ETH.usdc,
      ETH.weth,
      ETH.wbtc,
      ETH.dai,
      ETH.link,
      ETH.uni,
      SPAM_TOKEN,
    ]);
    const viaAddress = records.filter((record) => record.kind === 'address');
    expect(viaAddress.map((record) => record.address)).toEqual([ETH.usdt]);
    // Not a token page: the "Address" title gets nothing.
    expect(records.some((record) => record.kind === 'page')).toBe(false);
  });

  it('transaction page: the transfers list and the action, plus the WETH address link', async () => {
    const page = PAGES.tx;
    const doc = parse(page);
    const records = await detect(doc, page.url, 1, fakeWhitelist().whitelisted);
    const transfers = doc.getElementById('wrapperContent2');
    expect(
      records.filter((record) => transfers?.contains(record.element)).map((record) => record.address),
    ).toEqual([ETH.weth, ETH.usdc]);
    const weth = records.find((record) => record.kind === 'address');
    expect(weth?.address).toBe(ETH.weth);
    expect(weth?.element.textContent).toBe('0xC02aaA39...9083C756Cc2');
  });

  it("transaction page: the NFT sections' collection links get nothing, whatever the item's markup", async () => {
    const page = PAGES.tx;
    const doc = parse(page);
    const records = await detect(doc, page.url, 1, fakeWhitelist().whitelisted);
    const collections = [
      '0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d',
      '0x495f947276749ce646f68ac8c248420045cb7b5e',
    ];
    // The links are there (BAYC: two collection links and a `?a=<id>` item link), and none is a record.
    expect(doc.querySelectorAll('a[href*="/token/0xbc4ca0"],a[href*="/token/0xBC4CA0"]').length).toBe(3);
    for (const address of collections) expect(addresses(records).has(address)).toBe(false);
  });

  it('an item naming one ERC-20 several times, or a list of ERC-20 items, is not an NFT item', () => {
    const page = pageInfo('https://etherscan.io/tx/0x01');
    const doc = new DOMParser().parseFromString(
      `<div>ERC-20 Tokens Transferred:<ul>
        <li>For 1 <a href="/token/${ETH.usdt}">Tether USD</a> (<a href="/token/${ETH.usdt}?a=0x${'1'.repeat(40)}">holder</a>)</li>
        <li>For 2 <a href="/token/${ETH.dai}">Dai</a></li></ul></div>
      <div class="row"><span>Token standard: ERC-20</span> <a href="/token/${ETH.link}">ChainLink Token</a></div>
      <table><tr><td>Mint</td><td><a href="/token/${ETH.uni}">Uniswap</a></td></tr></table>`,
      'text/html',
    );
    expect([...addresses(scanLinks(doc, page))]).toEqual([ETH.usdt, ETH.dai, ETH.link, ETH.uni]);
    // The same shapes naming a token id or an NFT standard are NFT items.
    const nft = new DOMParser().parseFromString(
      `<ul><li>ERC-1155 <a href="/token/${ETH.mkr}">Items</a></li></ul>
       <table><tr><td>Token ID 7</td><td><a href="/token/${ETH.aave}">Collection</a></td></tr></table>
       <div><div><span>ERC-721 Token ID [<a href="/nft/${ETH.wbtc}/1">1</a>]</span></div><div><a href="/token/${ETH.wbtc}">Kitties</a></div></div>`,
      'text/html',
    );
    expect(scanLinks(nft, page)).toEqual([]);
  });

  it('token list page: one record per row, in order', async () => {
    const page = PAGES.tokens;
    const doc = parse(page);
    const records = await detect(doc, page.url, 1, fakeWhitelist().whitelisted);
    expect(records.map((record) => record.address)).toEqual(page.expected);
    expect(records).toHaveLength(50);
  });

  it("Blockscout token page: checksummed hrefs, the title, and a link to another explorer on that explorer's chain", async () => {
    const page = PAGES.blockscout;
    const doc = parse(page);
    const records = await detect(doc, page.url, 8453, fakeWhitelist().whitelisted);
    expect(records.find((record) => record.kind === 'page')?.element.textContent).toBe('USD Coin (USDC)');
    const bridged = [...doc.querySelectorAll('a')].find((a) => a.textContent === 'Ethereum USDC');
    expect(records.filter((record) => record.element === bridged)).toEqual([
      { element: bridged, address: ETH.usdc, kind: 'token', chainId: 1 },
    ]);
    for (const record of records) if (record.element !== bridged) expect(record.chainId).toBeUndefined();
  });

  it('asks the background only about /address/ links, in batches of at most 500, each address once', async () => {
    const doc = document.implementation.createHTMLDocument('many');
    const hex = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
    doc.body.innerHTML = Array.from({ length: 1200 }, (_, i) => `<a href="/address/${hex(i + 1)}">a</a>`)
      .concat(Array.from({ length: 30 }, (_, i) => `<a href="/address/${hex(i + 1)}">again</a>`))
      .concat([`<a href="/address/${ETH.usdc}">USDC</a>`, `<a href="/token/${ETH.dai}">DAI</a>`])
      .join('');
    const { calls, whitelisted } = fakeWhitelist();
    const records = await detect(doc, 'https://etherscan.io/address/0x1', 1, whitelisted);
    expect(calls.map((batch) => batch.length)).toEqual([500, 500, 201]);
    expect(new Set(calls.flat()).size).toBe(1201);
    expect(calls.flat()).not.toContain(ETH.dai);
    expect(records.map((record) => `${record.kind}:${record.address}`)).toEqual([
      `token:${ETH.dai}`,
      `address:${ETH.usdc}`,
    ]);
  });

  it('caches whitelist answers per page and treats a failed call as "not whitelisted"', async () => {
    const ask = vi.fn(async (batch: string[]) => batch.filter((address) => address === ETH.usdc));
    const lookup = createWhitelist(ask);
    expect(await lookup([ETH.usdc, ETH.dai])).toEqual(new Set([ETH.usdc]));
    expect(await lookup([ETH.dai, ETH.usdc, ETH.usdc])).toEqual(new Set([ETH.usdc]));
    expect(ask).toHaveBeenCalledTimes(1);
    // In flight: two lookups at once share one call.
    const both = await Promise.all([lookup([ETH.link]), lookup([ETH.link])]);
    expect(both).toEqual([new Set(), new Set()]);
    expect(ask).toHaveBeenCalledTimes(2);
    const failing = createWhitelist(async () => {
      throw new Error('service down');
    });
    expect(await failing([ETH.usdc])).toEqual(new Set());
  });
});

describe('parseHref', () => {
  const page = pageInfo('https://etherscan.io/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 1);
  const usdc = { kind: 'token', address: ETH.usdc };

  it.each([
    ['/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', usdc],
    ['/token/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', usdc],
    ['/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48?a=0x28c6c06298d514db089934071355e5743bf21d60', usdc],
    ['/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48/', usdc],
    ['  /token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48  ', usdc],
    ['https://etherscan.io/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', usdc],
    ['HTTPS://ETHERSCAN.IO/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', usdc],
    [
      '//etherscan.io/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48?a=0x28c6c06298d514db089934071355e5743bf21d60',
      usdc,
    ],
    ['/token/0xdac17f958d2ee523a2206206994597c13d831ec7#balances', { kind: 'token', address: ETH.usdt }],
    ['token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', undefined], // resolves to /token/token/0x…
    ['../token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', usdc],
    ['/token/%30xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', usdc],
    ['/address/0xdAC17F958D2ee523a2206206994597C13D831ec7', { kind: 'address', address: ETH.usdt }],
    // Another explorer Swaplane knows: a token on that explorer's chain (the same chain: no chainId).
    ['https://www.etherscan.io/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', usdc],
    ['https://eth.blockscout.com/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', usdc],
    [
      '//bscscan.com/token/0x55d398326f99059ff775485246999027b3197955?a=0x1111111111111111111111111111111111111111',
      { kind: 'token', address: '0x55d398326f99059ff775485246999027b3197955', chainId: 56 },
    ],
    [
      'https://moonscan.io/token/0xacc15dc74880c9944775448304b263d191c6077f',
      { kind: 'token', address: '0xacc15dc74880c9944775448304b263d191c6077f', chainId: 1284 },
    ],
  ])('%s', (href, expected) => {
    expect(parseHref(href, page)).toEqual(expected);
  });

  it.each([
    null,
    '',
    'javascript:void(0)',
    "javascript:alert('/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')",
    'mailto:x@etherscan.io',
    '/token/0xA0b8...eB48',
    '/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb4', // 39 hex digits
    '/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb481', // 41
    '/token/0xzzb86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '/token/0x%ZZ',
    '/token/%E0%A4%A',
    '/Token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '/tokens/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '/nft/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48/1',
    // An NFT item: a token id in `a`, or Blockscout's instance path.
    '//etherscan.io/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48?a=1',
    '/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48/instance/7',
    // The page's own token with a fragment: a tab of this page, not a mention.
    '/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48#balances',
    '#transfers',
    '/token/a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '/en/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    // Another host, however it is spelled.
    'https://etherscan.io.evil.com/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'https://etherscan.io@evil.com/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'https://evil.com/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'https://etherscan.io:8443/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    // Other explorers: look-alikes, plain http, an NFT item there, an address link there (it would
    // need that chain's token list first), a host the table does not have.
    'https://bscscan.com.evil.com/token/0x55d398326f99059ff775485246999027b3197955',
    'https://bscscam.com/token/0x55d398326f99059ff775485246999027b3197955',
    'https://xn--bscscn-9ua.com/token/0x55d398326f99059ff775485246999027b3197955',
    'https://sepolia.etherscan.io/token/0x55d398326f99059ff775485246999027b3197955',
    'http://bscscan.com/token/0x55d398326f99059ff775485246999027b3197955',
    'https://bscscan.com/token/0x55d398326f99059ff775485246999027b3197955?a=42',
    'https://bscscan.com/address/0x55d398326f99059ff775485246999027b3197955',
    'https://explorer.zora.energy/token/0x55d398326f99059ff775485246999027b3197955',
    '/\\evil.com/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '\\\\evil.com/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '/\t/evil.com/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'ftp://etherscan.io/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'http://[::1/token/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  ])('ignores %s', (href) => {
    expect(parseHref(href, page)).toBeUndefined();
  });

  it('absolute links to the bare host from a www. page, and to the same chain on another explorer, keep the page chain', () => {
    // Arbiscan's transfer lists link each token absolutely (`https://arbiscan.io/token/0x…`).
    const www = pageInfo('https://www.arbiscan.io/tokentxns', 42161);
    const gmx = '0xfc5a1a6eb076a2c7ad06ed22c90d7e710e35ad0a';
    expect(parseHref(`https://arbiscan.io/token/${gmx}`, www)).toEqual({ kind: 'token', address: gmx });
    expect(parseHref(`https://arbitrum.blockscout.com/token/${gmx}`, www)).toEqual({
      kind: 'token',
      address: gmx,
    });
    // PolygonScan's bridge deposits name the Ethereum token: a control on chain 1.
    const bridge = pageInfo('https://polygonscan.com/bridge-deposits', 137);
    const matic = '0x7d1afa7b718fb893db30a3abc0cfc608aacfebb0';
    expect(parseHref(`https://etherscan.io/token/${matic}`, bridge)).toEqual({
      kind: 'token',
      address: matic,
      chainId: 1,
    });
  });

  it('never throws, whatever the href', () => {
    const hrefs = ['%', '%%', '/token/%', 'http://', 'https://\u0000', '\uD800', '/token/\uD800', ':::'];
    for (const href of hrefs) expect(() => parseHref(href, page)).not.toThrow();
  });
});

describe('pageInfo and the token page', () => {
  it('takes the token from a /token/ URL, lowercase, ignoring query and fragment', () => {
    expect(
      pageInfo('https://etherscan.io/token/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48?a=0x1#b').token,
    ).toBe(ETH.usdc);
    expect(
      pageInfo('https://base.blockscout.com/token/0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913').token,
    ).toBe('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
    expect(pageInfo(`https://etherscan.io/address/${ETH.usdc}`).token).toBeUndefined();
    expect(pageInfo('https://etherscan.io/tokens').token).toBeUndefined();
    expect(pageInfo('https://etherscan.io/token/0xA0b8...eB48').token).toBeUndefined();
  });

  it("marks NFT-only pages: Etherscan's NFT collection lists and its inventory frame, not a token page", () => {
    const inventory =
      'https://etherscan.io/token/generic-tokenholder-inventory?contractAddress=0x765df6da33c1ec1f83be42db171d7ee334a46df5&a=0xa6db31d1aee06a3ad7e4e56de3775e80d2f5ea84&m=normal&p=1';
    expect(pageInfo(inventory).nft).toBe(true);
    // NFT transfer and trade lists are not: their payment columns name ERC-20s (nft-evidence.ts).
    expect(pageInfo('https://etherscan.io/tokentxns-nft').nft).toBeUndefined();
    expect(pageInfo('https://etherscan.io/nft-trades').nft).toBeUndefined();
    // The NFT collection lists ("ERC-721 Top Tokens", "ERC-1155 Top Tokens"), unlike /tokens.
    expect(pageInfo('https://etherscan.io/tokens-nft').nft).toBe(true);
    expect(pageInfo('https://etherscan.io/tokens-nft1155?p=2').nft).toBe(true);
    expect(pageInfo('https://etherscan.io/tokens').nft).toBeUndefined();
    expect(pageInfo(`https://etherscan.io/token/${ETH.usdc}?a=0x1`).nft).toBeUndefined();
    expect(pageInfo(`https://etherscan.io/address/${ETH.usdc}#tokentxns`).nft).toBeUndefined();
    // An Owner link of the inventory has an ERC-20 holding link's shape; the page says it is an NFT.
    const doc = document.implementation.createHTMLDocument('t');
    doc.body.innerHTML = `<div class="nft-block-wrapper">Owner: <a href="/token/${ETH.usdc}?a=0xa6db31d1aee06a3ad7e4e56de3775e80d2f5ea84">0xa6db</a></div>`;
    expect(scanLinks(doc, pageInfo(inventory))).toEqual([]);
  });

  it("reads links relative to a /token/ page (Etherscan's transfer frames: 0x<token>?a=<holder>)", () => {
    const doc = document.implementation.createHTMLDocument('t');
    doc.body.innerHTML = `<a href="${ETH.usdc}?a=0xd6cd31f283d24cfb442cba1bcf42290c07c15792">0xd6cd</a><a href="0x12">x</a>`;
    const frame = pageInfo(`https://etherscan.io/token/generic-tokentxns2?contractAddress=${ETH.usdc}&p=5`);
    expect(scanLinks(doc, frame).map((record) => [record.address, record.kind])).toEqual([
      [ETH.usdc, 'token'],
    ]);
    // The same href on an address page resolves to /address/: a candidate the background is asked about.
    expect(scanLinks(doc, pageInfo(`https://etherscan.io/address/${ETH.dai}`)).map((r) => r.kind)).toEqual([
      'address',
    ]);
  });

  it('puts the page record on the title, and nowhere when there is none', () => {
    const doc = document.implementation.createHTMLDocument('t');
    const page = pageInfo(`https://etherscan.io/token/${ETH.dai}`);
    expect(pageTarget(doc, page)).toBeUndefined();
    doc.body.innerHTML = '<h1>Token <span>DAI</span></h1><h1>Other</h1>';
    expect(pageTarget(doc, page)).toEqual({
      element: doc.querySelector('h1'),
      address: ETH.dai,
      kind: 'page',
    });
  });

  it('scanLinks includes the root itself when it is a link', () => {
    const doc = document.implementation.createHTMLDocument('t');
    doc.body.innerHTML = `<a href="/token/${ETH.dai}"><span>DAI</span></a>`;
    const link = doc.querySelector('a') as Element;
    const page = pageInfo('https://etherscan.io/tokens');
    expect(scanLinks(link, page)).toEqual([{ element: link, address: ETH.dai, kind: 'token' }]);
    expect(scanLinks(link.firstElementChild as Element, page)).toEqual([]);
  });
});

describe('hosts: where the content script runs', () => {
  it.each([
    ['https://etherscan.io/token/0x1', 1],
    ['https://www.etherscan.io/', 1],
    ['https://optimistic.etherscan.io/', 10],
    ['https://bscscan.com/', 56],
    ['https://polygonscan.com/', 137],
    ['https://arbiscan.io/', 42161],
    ['https://basescan.org/', 8453],
    ['https://snowscan.xyz/', 43114],
    ['https://eth.blockscout.com/', 1],
    ['https://base.blockscout.com/', 8453],
    ['https://optimism.blockscout.com/', 10],
  ])('%s is chain %i', (url, chainId) => {
    expect(explorerChainOf(new URL(url))).toBe(chainId);
  });

  it.each([
    'https://etherscan.io.evil.com/',
    'https://evil-etherscan.io/',
    'https://etherscam.io/',
    'https://xn--etherscn-4cb.io/',
    'https://sepolia.etherscan.io/',
    'https://blockscout.com/',
    'https://evil.blockscout.com/',
    'https://basescan.org.attacker.net/',
    'http://etherscan.io/',
    'https://etherscan.io:8443/',
    'file:///etherscan.io/',
  ])('%s is not an explorer', (url) => {
    expect(explorerChainOf(new URL(url))).toBeUndefined();
  });

  it('the manifest matches exactly the hosts the runtime check accepts', () => {
    const matches = explorerMatches();
    expect(matches).toContain('https://etherscan.io/*');
    expect(matches).toContain('https://www.etherscan.io/*');
    expect(matches).toContain('https://eth.blockscout.com/*');
    expect(matches).toContain('https://base.blockscout.com/*');
    expect(matches).toContain('https://optimism.blockscout.com/*');
    expect(matches).toContain('https://snowtrace.io/*');
    for (const pattern of matches.filter((entry) => !entry.includes('routescan.io'))) {
      expect(pattern).toMatch(/^https:\/\/[a-z0-9.-]+\/\*$/);
      const host = pattern.slice('https://'.length, -'/*'.length);
      expect(chainForExplorerHost(host)).toBeDefined();
    }
    // The one wildcard: routescan.io's chain subdomains, each checked at run time (chainForRoutescan).
    // *.blockscout.com would include instances of chains Swaplane doesn't know.
    expect(matches.filter((pattern) => pattern.includes('*.'))).toEqual(['https://*.routescan.io/*']);
  });
});

describe('the content script stays tiny', () => {
  it('lib/explorer and the entrypoint import nothing heavy', () => {
    const files = [
      'entrypoints/explorer.content/index.ts',
      'lib/explorer/detect.ts',
      'lib/explorer/format.ts',
      'lib/explorer/inject.ts',
      'lib/explorer/messenger.ts',
      'lib/explorer/scanner.ts',
      'lib/explorer/site.ts',
    ];
    const allowed = new Set(['wxt/browser', '@/lib/chains/hosts']);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const [, specifier] of source.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)) {
        const ok =
          specifier?.startsWith('./') ||
          specifier?.startsWith('@/lib/explorer/') ||
          allowed.has(specifier ?? '');
        expect(ok, `${file} imports ${specifier}`).toBe(true);
      }
    }
  });
});
