// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { failureText, HOST_TAG, quoteText } from '@/lib/explorer/inject';
import { readSafety, safetyText, withSafetyWords } from '@/lib/explorer/safety-text';
import { type Scanner, startScanner } from '@/lib/explorer/scanner';
import {
  card,
  click,
  fakeMessenger,
  hosts,
  loadPage,
  nextFrame,
  QUOTE,
  settle,
  shadow,
  swapButton,
  tokensOf,
} from '../fixtures/explorer/dom';
import { BSC_USDT, ETH, PAGES, SPAM_TOKEN } from '../fixtures/explorer/pages';

let scanner: Scanner | undefined;
afterEach(() => {
  scanner?.stop();
  scanner = undefined;
});

/** Loads a fixture page and scans it eagerly (happy-dom has no layout, so no IntersectionObserver). */
async function open(page: (typeof PAGES)[keyof typeof PAGES], messenger = fakeMessenger()) {
  loadPage(page.url, page.file);
  scanner = startScanner({ chainId: page.chainId, messenger, lazy: false });
  await nextFrame(); // the address-link sweep
  await settle(); // whitelist answers for /address/ links
  return messenger;
}

describe('injection', () => {
  it('puts one button beside each detected element, with the data hooks', async () => {
    await open(PAGES.token);
    // The "Other explorer" link (bscscan.com) gets a control on BNB Chain's id, for BSC's USDT.
    const others = hosts().filter((host) => host.dataset.swaplaneChain !== '1');
    expect(others.map((host) => [host.dataset.swaplaneChain, host.dataset.swaplaneToken])).toEqual([
      ['56', BSC_USDT],
    ]);
    const list = hosts().filter((host) => host.dataset.swaplaneChain === '1');
    expect(new Set(tokensOf(list))).toEqual(new Set([ETH.usdc]));
    // h1 + contract link + 4 transfer links + 2 holder links; the "Contract" tab is navigation.
    expect(list).toHaveLength(8);
    for (const host of list) {
      expect(host.dataset.swaplaneChain).toBe('1');
      expect(host.dataset.swaplaneToken).toBe(ETH.usdc);
      expect(swapButton(host).textContent).toBe('Swap');
    }
  });

  it('inserts the host after the link, never inside a link', async () => {
    await open(PAGES.address);
    expect(hosts()).toHaveLength(9); // 8 holdings + the USDT contract link
    expect(document.querySelectorAll(`a ${HOST_TAG}`)).toHaveLength(0);
    for (const host of hosts()) {
      const before = host.previousElementSibling;
      expect(before?.tagName).toBe('A');
      expect(before?.nextElementSibling).toBe(host);
    }
  });

  it('goes after the outermost link when links are nested', async () => {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    // The parser never nests links, but scripts can: build it by hand.
    document.body.innerHTML = `<div id="row"><a id="outer" href="/tokens?sort=x"><span></span></a></div>`;
    const inner = document.createElement('a');
    inner.setAttribute('href', `/token/${ETH.dai}`);
    document.querySelector('#outer span')?.append(inner);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    const [host] = hosts();
    expect(host?.parentElement?.id).toBe('row');
    expect(host?.previousElementSibling?.id).toBe('outer');
    expect(host?.closest('a')).toBeNull();
  });

  it('injects once per element, however often the page is scanned', async () => {
    const messenger = await open(PAGES.tx);
    const first = hosts();
    // Re-adding the same content and attribute churn must not duplicate anything.
    const list = document.getElementById('wrapperContent2') as HTMLElement;
    list.append(...list.children);
    for (const link of document.querySelectorAll('a'))
      link.setAttribute('href', link.getAttribute('href') ?? '');
    await nextFrame();
    await settle();
    expect(hosts()).toEqual(first);
    expect(new Set(tokensOf(first))).toEqual(new Set([ETH.usdc, ETH.weth]));
    expect(messenger.whitelistCalls.flat().filter((address) => address === ETH.weth)).toHaveLength(1);
  });

  it('address links get a button only when the background confirms the token', async () => {
    const messenger = await open(PAGES.address);
    const asked = new Set(messenger.whitelistCalls.flat());
    // Every address link, and the token links' tokens (to mark the ones not on the list).
    const expected = [
      ETH.usdt,
      '0xf977814e90da44bfa03b6295a0616a897441acec',
      '0x4675c7e5baafbffbca748158becba61ef3b0a263',
      '0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
      '0x4838b106fce9647bdf1e7877bf73ce8b0bad5f97',
      ...PAGES.address.expected,
    ];
    expect(asked).toEqual(new Set(expected));
    const viaAddress = hosts().filter((host) =>
      host.previousElementSibling?.getAttribute('href')?.startsWith('/address/'),
    );
    expect(tokensOf(viaAddress)).toEqual([ETH.usdt]);
  });

  it('a not-listed ERC-20 keeps its button, marked as not on the service’s list', async () => {
    await open(PAGES.address);
    const spam = hosts().filter((host) => host.dataset.swaplaneToken === SPAM_TOKEN);
    expect(spam.length).toBeGreaterThan(0);
    for (const host of spam) {
      expect(host.dataset.swaplaneListed).toBe('false');
      expect(swapButton(host).title).toContain('Not on the swap service’s list');
    }
    const usdc = hosts().filter((host) => host.dataset.swaplaneToken === ETH.usdc);
    for (const host of usdc) expect(host.dataset.swaplaneListed).toBe('true');
  });

  it('a failed whitelist call leaves address links without buttons', async () => {
    const messenger = fakeMessenger();
    messenger.whitelistedTokens = async () => ({ ok: false, error: { code: 'INTERNAL', message: 'down' } });
    await open(PAGES.tx, messenger);
    const viaAddress = hosts().filter((host) =>
      host.previousElementSibling?.getAttribute('href')?.startsWith('/address/'),
    );
    expect(viaAddress).toHaveLength(0);
    expect(hosts().length).toBeGreaterThan(0); // token links don't depend on it
  });
});

describe('shadow root isolation', () => {
  it("page CSS doesn't reach the button, and the button's CSS doesn't reach the page", async () => {
    await open(PAGES.token);
    const hostile = document.createElement('style');
    hostile.textContent = `button { color: rgb(255, 0, 0) !important; font-size: 40px !important; }
      swaplane-swap { display: none !important; } p, div { color: rgb(0, 128, 0); }`;
    document.head.append(hostile);
    const pageButton = document.createElement('button');
    const pageParagraph = document.createElement('p');
    document.body.append(pageButton, pageParagraph);

    const [host] = hosts();
    if (!host) throw new Error('no host');
    const button = swapButton(host);
    expect(getComputedStyle(button).color).not.toBe('rgb(255, 0, 0)');
    expect(getComputedStyle(button).fontSize).not.toBe('40px');
    expect(getComputedStyle(host).display).toBe('inline-block');
    // Our rules (button, div, p, .b, .go) stay inside the shadow root.
    expect(getComputedStyle(pageButton).color).toBe('rgb(255, 0, 0)');
    expect(getComputedStyle(pageParagraph).color).toBe('rgb(0, 128, 0)');
    expect(getComputedStyle(pageParagraph).fontWeight).not.toBe('600');
    expect(document.querySelectorAll('style').length).toBe(
      [...document.head.querySelectorAll('style')].length, // no style element leaked into the page
    );
    expect(shadow(host).querySelector('style')).not.toBeNull();
  });
});

describe('the quote card', () => {
  it('a click shows the one-click quote; "Swap in Swaplane" opens the popup prefilled', async () => {
    const messenger = await open(PAGES.token);
    const [host] = hosts();
    if (!host) throw new Error('no host');
    click(swapButton(host));
    expect(card(host)?.textContent).toBe('Getting a quote…');
    expect(swapButton(host).getAttribute('aria-expanded')).toBe('true');
    await settle();
    expect(messenger.quoteCalls).toEqual([ETH.usdc]);
    const lines = [...(card(host)?.querySelectorAll('p') ?? [])].map((line) => line.textContent);
    expect(lines).toEqual([
      '1 ETH ≈ 2,950.12 USDC',
      'Minimum received: 2,935.37 USDC',
      'On Ethereum, slippage 0.5%',
      'Quote from http://127.0.0.1:8787',
    ]);
    const go = card(host)?.querySelector('button.go') as HTMLButtonElement;
    expect(go.textContent).toBe('Swap in Swaplane');
    click(go);
    await settle();
    // The card's chain, token and amount (the quote's native-coin input) go to the popup.
    expect(messenger.openCalls).toEqual([[1, ETH.usdc, 10n ** 18n]]);
    expect(card(host)).toBeNull();
    expect(swapButton(host).getAttribute('aria-expanded')).toBe('false');
  });

  it('page script clicks (isTrusted false) do nothing', async () => {
    const messenger = await open(PAGES.token);
    const [host] = hosts();
    if (!host) throw new Error('no host');
    click(swapButton(host), false);
    swapButton(host).click();
    await settle();
    expect(card(host)).toBeNull();
    expect(messenger.quoteCalls).toEqual([]);
    click(swapButton(host));
    await settle();
    const go = card(host)?.querySelector('button.go') as HTMLButtonElement;
    click(go, false);
    go.click();
    await settle();
    expect(messenger.openCalls).toEqual([]);
  });

  it("the button's click doesn't reach the page's own handlers", async () => {
    await open(PAGES.tokens);
    let pageClicks = 0;
    document.body.addEventListener('click', () => pageClicks++);
    const [host] = hosts();
    if (!host) throw new Error('no host');
    click(swapButton(host));
    expect(pageClicks).toBe(0);
  });

  it('closes on a second click; one card at a time', async () => {
    // Escape and a press elsewhere are the browser's (an auto popover): tested end to end.
    await open(PAGES.address);
    const [first, second] = hosts();
    if (!first || !second) throw new Error('no hosts');
    click(swapButton(first));
    expect(card(first)).not.toBeNull();
    click(swapButton(first));
    expect(card(first)).toBeNull();
    click(swapButton(first));
    click(swapButton(second));
    expect(card(first)).toBeNull();
    expect(card(second)).not.toBeNull();
  });

  it.each([
    [
      {
        code: 'QUOTE_REJECTED',
        message: 'The swap service’s quote has the wrong decimals for these tokens.',
      },
      ['The swap service’s quote has the wrong decimals for these tokens.'],
    ],
    [
      {
        code: 'SERVICE-UNAVAILABLE',
        message: 'Cannot reach the swap service',
        user: {
          title: 'Cannot reach the swap service',
          detail: 'The connection to the service failed.',
          action: 'Check your internet connection and the service URL in Settings, then try again.',
        },
      },
      [
        'Cannot reach the swap service',
        'Check your internet connection and the service URL in Settings, then try again.',
      ],
    ],
    [
      {
        code: 'UNSUPPORTED-TOKEN',
        message: 'No route for this pair',
        user: {
          title: 'No route for this pair',
          detail: '…',
          action: 'Try another token pair or a smaller amount.',
        },
      },
      ['No route for this pair', 'Try another token pair or a smaller amount.'],
    ],
    [
      { code: 'UNREACHABLE', message: 'Swaplane is not responding. Reload the page.' },
      ['Swaplane is not responding. Reload the page.'],
    ],
  ])('shows %j as specific text', async (error, expected) => {
    const messenger = fakeMessenger();
    messenger.quoteAnswer = { ok: false, error };
    await open(PAGES.token, messenger);
    const [host] = hosts();
    if (!host) throw new Error('no host');
    click(swapButton(host));
    await settle();
    expect([...(card(host)?.querySelectorAll('p') ?? [])].map((line) => line.textContent)).toEqual(expected);
    expect(card(host)?.querySelector('button')).toBeNull();
    expect(failureText(error)).toEqual(expected);
  });

  it('a failed "open" keeps the card with the reason', async () => {
    const messenger = fakeMessenger();
    messenger.openAnswer = { ok: false, error: { code: 'INTERNAL', message: 'Could not open the popup.' } };
    await open(PAGES.token, messenger);
    const [host] = hosts();
    if (!host) throw new Error('no host');
    click(swapButton(host));
    await settle();
    click(card(host)?.querySelector('button.go') as HTMLButtonElement);
    await settle();
    expect(card(host)?.textContent).toBe('1 ETH ≈ 2,950.12 USDC' + 'Could not open the popup.');
  });

  it('writes service and page strings as text, never as HTML', async () => {
    const messenger = fakeMessenger();
    const evil = '<img src=x onerror="window.__pwned=1">';
    messenger.quoteAnswer = { ok: true, result: { ...QUOTE, outSymbol: evil, inSymbol: '<b>ETH</b>' } };
    await open(PAGES.token, messenger);
    const [host] = hosts();
    if (!host) throw new Error('no host');
    click(swapButton(host));
    await settle();
    expect(card(host)?.textContent).toContain(`1 <b>ETH</b> ≈ 2,950.12 ${evil}`);
    expect(shadow(host).querySelector('img, b')).toBeNull();
    messenger.quoteAnswer = { ok: false, error: { code: 'X', message: evil, user: undefined } };
    click(swapButton(host));
    click(swapButton(host));
    await settle();
    expect(card(host)?.textContent).toBe(evil);
    expect(shadow(host).querySelector('img')).toBeNull();
  });

  it('formats the quote by hand: amounts, decimals, symbols', () => {
    expect(quoteText(QUOTE).slice(0, 2)).toEqual([
      '1 ETH ≈ 2,950.12 USDC',
      'Minimum received: 2,935.37 USDC',
    ]);
    expect(
      quoteText({
        ...QUOTE,
        outAmount: 33_333_333_333_333n,
        minReceived: 33_000_000_000_000n,
        outDecimals: 18,
        outSymbol: 'WETH',
      }),
    ).toEqual([
      '1 ETH ≈ 0.0000333333 WETH',
      'Minimum received: 0.000033 WETH',
      'On Ethereum, slippage 0.5%',
      'Quote from http://127.0.0.1:8787',
    ]);
  });

  it('stop() removes every button', async () => {
    await open(PAGES.tokens);
    expect(hosts().length).toBe(50);
    scanner?.stop();
    expect(hosts()).toEqual([]);
  });
});

describe('the safety check on the card', () => {
  it('a token not on the list: no quote asked, the simulated buy and sell-back reported', async () => {
    const messenger = await open(PAGES.address);
    const host = hosts().find((entry) => entry.dataset.swaplaneToken === SPAM_TOKEN);
    if (!host) throw new Error('no host for the unlisted token');
    click(swapButton(host));
    await settle();
    expect(messenger.quoteCalls).toEqual([]);
    expect(messenger.safetyCalls).toEqual([SPAM_TOKEN]);
    const lines = [...(card(host)?.querySelectorAll('p') ?? [])].map((line) => line.textContent);
    expect(lines[0]).toBe('Not on the swap service’s list');
    expect(lines[1]).toBe('Transfer tax: 5% on buying, 5% on selling');
    expect(card(host)?.querySelector('button.go')).toBeNull();
  });

  it('a quote refused as not listed (the list changed) falls back to the safety check', async () => {
    const messenger = fakeMessenger();
    messenger.quoteAnswer = {
      ok: false,
      error: { code: 'NOT_WHITELISTED', message: 'This token is not on the swap service’s list.' },
    };
    messenger.safetyAnswer = {
      ok: true,
      result: { verdict: 'sell-blocked', buyTaxBps: 0, network: 'Ethereum' },
    };
    await open(PAGES.token, messenger);
    const [host] = hosts();
    if (!host) throw new Error('no host');
    click(swapButton(host));
    await settle();
    expect(messenger.safetyCalls).toEqual([ETH.usdc]);
    expect(card(host)?.querySelector('[role=status]')?.textContent).toBe(
      'Sell blocked (honeypot): you could buy it but not sell it',
    );
  });

  it.each([
    [{ verdict: 'clean', buyTaxBps: 0, sellTaxBps: 0 }, 'Safety check: clean'],
    [{ verdict: 'sell-blocked', buyTaxBps: 0 }, 'Sell blocked (honeypot): you could buy it but not sell it'],
    [{ verdict: 'unsupported' }, 'Not checked: this RPC cannot simulate'],
    [{ verdict: 'no-pool' }, 'Not checked: no pool against the wrapped coin to test with'],
  ] as const)('%j reads "%s"', (report, headline) => {
    expect(safetyText({ ...report, network: 'Ethereum' })[0]).toBe(headline);
  });

  it('reads the words the background sends, and refuses an answer of the wrong shape', () => {
    const worded = withSafetyWords({ verdict: 'clean' as const, network: 'Ethereum' });
    expect(readSafety(worded)).toEqual({
      headline: 'Safety check: clean',
      detail: 'A buy and sell-back simulated on your Ethereum RPC (nothing was sent) lost no transfer tax.',
    });
    for (const bad of [
      { verdict: 'clean', network: 'Ethereum' },
      { headline: 'Safety check: clean' },
      { headline: 1, detail: 'x' },
      null,
    ]) {
      expect(readSafety(bad)).toBeUndefined();
    }
  });
});
