// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Scanner, startScanner } from '@/lib/explorer/scanner';
import {
  countLayoutReads,
  fakeMessenger,
  hosts,
  loadPage,
  nextFrame,
  settle,
  tokensOf,
} from '../fixtures/explorer/dom';
import { ETH, PAGES, tokenListAddresses } from '../fixtures/explorer/pages';

let scanner: Scanner | undefined;
afterEach(() => {
  scanner?.stop();
  scanner = undefined;
  vi.unstubAllGlobals();
});

function rows(addresses: readonly string[]): HTMLTableRowElement[] {
  return addresses.map((address, i) => {
    const row = document.createElement('tr');
    row.innerHTML = `<td>${i}</td><td><a href="/token/${address}"><div>Token</div><span>(TKN)</span></a></td><td><a href="/address/${address}">contract</a></td>`;
    return row;
  });
}

const hex = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}`;

describe('content that appears later', () => {
  it('100 rows added in one task -> one pass, 100 buttons', async () => {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    expect(scanner.stats.passes).toBe(1);
    expect(hosts()).toHaveLength(50);
    const body = document.querySelector('#tblResult tbody') as HTMLElement;
    const added = Array.from({ length: 100 }, (_, i) => hex(i));
    for (const row of rows(added)) body.append(row); // 100 separate mutations
    expect(scanner.stats.passes).toBe(1); // nothing synchronous: the observer only collects
    await nextFrame();
    await settle();
    expect(scanner.stats.passes).toBe(2); // the address sweep and the 100 rows, in one frame
    expect(hosts()).toHaveLength(150);
    expect(tokensOf(hosts()).slice(50)).toEqual(added);
  });

  it('the fixture\'s "Load more" rows get buttons', async () => {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    const { more } = tokenListAddresses();
    const body = document.querySelector('#tblResult tbody') as HTMLElement;
    const added = rows(more);
    for (const row of added) row.lastElementChild?.remove(); // token links only, like the fixture's script
    body.append(...added);
    await nextFrame();
    expect(tokensOf(hosts()).slice(50)).toEqual(more);
  });

  it('our own buttons never trigger a pass', async () => {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    // The first pass sweeps token links; the next frame sweeps address links; then nothing.
    expect(scanner.stats.passes).toBe(1);
    await nextFrame();
    expect(scanner.stats.passes).toBe(2);
    await nextFrame();
    await nextFrame();
    expect(scanner.stats.passes).toBe(2);
    expect(hosts()).toHaveLength(50);
  });

  it('a pass reads before it writes and never reads layout', async () => {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    const body = document.querySelector('#tblResult tbody') as HTMLElement;
    const reads = await countLayoutReads(async () => {
      scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
      for (const row of rows(Array.from({ length: 200 }, (_, i) => hex(i)))) body.append(row);
      await nextFrame();
      await settle();
    });
    expect(hosts()).toHaveLength(250);
    expect(reads).toBe(0);
  });

  it('address links added later are asked about in one batch per pass, and cached', async () => {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    const messenger = fakeMessenger();
    scanner = startScanner({ chainId: 1, messenger, lazy: false });
    const body = document.querySelector('#tblResult tbody') as HTMLElement;
    const added = [ETH.aave, ETH.mkr, ...Array.from({ length: 700 }, (_, i) => hex(i))];
    for (const row of rows(added)) body.append(row);
    await nextFrame();
    await settle();
    // The 50 token links of the list (asked once, to mark the unlisted), then the address links.
    expect(messenger.whitelistCalls.map((batch) => batch.length)).toEqual([50, 500, 202]);
    const viaAddress = hosts().filter((host) =>
      host.previousElementSibling?.getAttribute('href')?.startsWith('/address/'),
    );
    expect(tokensOf(viaAddress)).toEqual([ETH.aave, ETH.mkr]);
    // The same addresses again (a re-rendered list): answered from the cache.
    for (const row of rows(added.slice(0, 10))) body.append(row);
    await nextFrame();
    await settle();
    expect(messenger.whitelistCalls).toHaveLength(3);
    expect(hosts().filter((host) => host.dataset.swaplaneToken === ETH.aave)).toHaveLength(4);
  });

  it('an href that changes re-points the button; one that stops naming a token removes it', async () => {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    const link = document.querySelector('#tblResult tbody a') as HTMLAnchorElement;
    const host = link.nextElementSibling as HTMLElement;
    expect(host.dataset.swaplaneToken).toBe(ETH.usdt);
    link.setAttribute('href', `/token/${ETH.dai}?a=0x1`);
    await nextFrame();
    expect(link.nextElementSibling).toBe(host);
    expect(host.dataset.swaplaneToken).toBe(ETH.dai);
    link.setAttribute('href', '/tokens?p=2');
    await nextFrame();
    expect(host.isConnected).toBe(false);
    expect(hosts()).toHaveLength(49);
  });

  it('SPA navigation: a new token page moves the title button to the new token', async () => {
    loadPage(PAGES.token.url, PAGES.token.file);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    const title = document.querySelector('h1') as HTMLElement;
    expect((title.nextElementSibling as HTMLElement).dataset.swaplaneToken).toBe(ETH.usdc);
    // pushState from the page, then the framework re-renders the content (same <h1> element).
    history.pushState({}, '', `/token/${ETH.dai}`);
    title.querySelector('span')?.replaceChildren('DAI');
    await nextFrame();
    expect((title.nextElementSibling as HTMLElement).dataset.swaplaneToken).toBe(ETH.dai);
    // To a page that isn't a token page: the title's button goes.
    history.pushState({}, '', '/tokens');
    title.replaceChildren('Token Tracker (ERC-20)');
    await nextFrame();
    expect(title.nextElementSibling?.localName).not.toBe('swaplane-swap');
    // Back to a token page with a freshly rendered title.
    history.pushState({}, '', `/token/${ETH.link}`);
    const fresh = document.createElement('h1');
    fresh.textContent = 'Token LINK';
    title.replaceWith(fresh);
    await nextFrame();
    expect((fresh.nextElementSibling as HTMLElement).dataset.swaplaneToken).toBe(ETH.link);
    expect(hosts().filter((host) => host.dataset.swaplaneToken === ETH.link)).toHaveLength(1);
  });

  it('stops observing after stop()', async () => {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger(), lazy: false });
    scanner.stop();
    document.querySelector('#tblResult tbody')?.append(...rows([ETH.dai]));
    await nextFrame();
    expect(hosts()).toEqual([]);
    expect(scanner.stats.passes).toBe(1);
  });
});

describe('off-screen elements (IntersectionObserver)', () => {
  /** A stand-in observer: the test says which targets are near the viewport. */
  function fakeIntersectionObserver() {
    const instances: {
      callback: IntersectionObserverCallback;
      targets: Set<Element>;
      options?: IntersectionObserverInit;
    }[] = [];
    class FakeObserver {
      private readonly state: (typeof instances)[number];
      constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        this.state = { callback, targets: new Set(), options };
        instances.push(this.state);
      }
      observe(target: Element) {
        this.state.targets.add(target);
      }
      unobserve(target: Element) {
        this.state.targets.delete(target);
      }
      disconnect() {
        this.state.targets.clear();
      }
      takeRecords() {
        return [];
      }
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const reveal = (near: (target: Element) => boolean) => {
      for (const { callback, targets } of instances) {
        const entries = [...targets].map(
          (target) => ({ target, isIntersecting: near(target) }) as IntersectionObserverEntry,
        );
        callback(entries, {} as IntersectionObserver);
      }
    };
    return { instances, reveal };
  }

  /** The token list page grown to `size` rows (one token link each). */
  function loadTokenList(size: number): void {
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    const body = document.querySelector('#tblResult tbody') as HTMLElement;
    for (const row of rows(Array.from({ length: size - 50 }, (_, i) => hex(i)))) {
      row.lastElementChild?.remove();
      body.append(row);
    }
  }

  it('buttons appear when their element nears the viewport, each once', async () => {
    const observer = fakeIntersectionObserver();
    loadPage(PAGES.tokens.url, PAGES.tokens.file);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger() });
    expect(observer.instances[0]?.options?.rootMargin).toMatch(/px/);
    expect(observer.instances[0]?.targets.size).toBe(50);
    expect(hosts()).toEqual([]); // nothing injected before it is seen
    const links = [...document.querySelectorAll('#tblResult tbody a')];
    const firstTen = new Set(links.slice(0, 10));
    observer.reveal((target) => firstTen.has(target));
    expect(hosts()).toHaveLength(10);
    expect(observer.instances[0]?.targets.size).toBe(40); // seen ones are unobserved
    observer.reveal(() => true); // scrolled to the end
    expect(hosts()).toHaveLength(50);
    expect(tokensOf(hosts())).toEqual(PAGES.tokens.expected);
    observer.reveal(() => true);
    expect(hosts()).toHaveLength(50);
  });

  it('a big list is watched in runs of 32 through their first and last elements', async () => {
    const observer = fakeIntersectionObserver();
    loadTokenList(1000);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger() });
    const links = [...document.querySelectorAll('#tblResult tbody a')];
    expect(links).toHaveLength(1000);
    const watched = observer.instances[0]?.targets;
    expect(watched?.size).toBe(2 * Math.ceil(1000 / 32)); // not 1000 targets for the browser to track
    expect(watched?.has(links[0] as Element)).toBe(true);
    expect(watched?.has(links[31] as Element)).toBe(true);
    expect(watched?.has(links[1] as Element)).toBe(false);
    // The first run comes near: its 32 links are watched one by one, then get their buttons.
    const firstRun = new Set(links.slice(0, 32));
    observer.reveal((target) => target === links[0]);
    expect(hosts()).toHaveLength(0);
    for (const link of firstRun) expect(watched?.has(link)).toBe(true);
    observer.reveal((target) => firstRun.has(target));
    expect(tokensOf(hosts())).toEqual(PAGES.tokens.expected.slice(0, 32));
  });

  it("stops watching what the page removed; a removed run's remaining links are watched on their own", async () => {
    const observer = fakeIntersectionObserver();
    loadTokenList(1000);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger() });
    const watched = observer.instances[0]?.targets as Set<Element>;
    const links = [...document.querySelectorAll('#tblResult tbody a')];
    expect(watched.size).toBe(2 * Math.ceil(1000 / 32));
    // The app drops its last 500 rows, and the first row of the first run.
    for (const link of links.slice(500)) link.closest('tr')?.remove();
    links[0]?.closest('tr')?.remove();
    await nextFrame();
    expect([...watched].every((element) => element.isConnected)).toBe(true);
    expect(watched.has(links[1] as Element)).toBe(true); // the first run's members, each on its own
    observer.reveal((target) => target === links[5]);
    expect(tokensOf(hosts())).toEqual([PAGES.tokens.expected[5]]);
  });

  it('hidden dropdown items wait until the dropdown opens', async () => {
    const observer = fakeIntersectionObserver();
    loadPage(PAGES.address.url, PAGES.address.file);
    scanner = startScanner({ chainId: 1, messenger: fakeMessenger() });
    await nextFrame(); // the address-link sweep
    await settle(); // the whitelist answer
    const menu = document.getElementById('availableBalance') as HTMLElement;
    // Closed menu: its items don't intersect; the table's USDT link does.
    observer.reveal((target) => !menu.contains(target));
    expect(tokensOf(hosts())).toEqual([ETH.usdt]);
    menu.classList.add('show');
    observer.reveal(() => true);
    expect(hosts()).toHaveLength(9);
  });
});

describe('privacy', () => {
  it('asks the background nothing for a page until it has a candidate token link', async () => {
    loadPage('https://etherscan.io/blocks', PAGES.tokens.file);
    for (const link of document.querySelectorAll('a[href*="/token/"], a[href*="/address/"]')) link.remove();
    const messenger = fakeMessenger();
    scanner = startScanner({ chainId: 1, messenger, lazy: false });
    await nextFrame();
    await nextFrame();
    await settle();
    // Menus and NFT links are not candidates either.
    document.body.insertAdjacentHTML(
      'beforeend',
      `<nav><a href="/token/${ETH.dai}">DAI</a></nav><a href="/token/${ETH.link}?a=7">NFT #7</a>`,
    );
    await nextFrame();
    await settle();
    expect(messenger.whitelistCalls).toEqual([]);
    expect(messenger.quoteCalls).toEqual([]);
    expect(messenger.safetyCalls).toEqual([]);
    // The first real candidate: one question, about it alone.
    document.body.insertAdjacentHTML(
      'beforeend',
      `<table><tr><td><a href="/token/${ETH.uni}">UNI</a></td></tr></table>`,
    );
    await nextFrame();
    await settle();
    expect(messenger.whitelistCalls).toEqual([[ETH.uni]]);
  });
});
