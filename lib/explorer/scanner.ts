// Keeps a live explorer page's buttons in step with its DOM.
// - Start: one querySelectorAll for token links, nothing parsed yet; the elements are only observed
//   (IntersectionObserver). An href is parsed when its element nears the viewport, so a 10,000-row
//   page costs about one bare querySelectorAll, not 10,000 parses and shadow roots.
// - Address links wait for the background (is it a whitelisted token?) anyway: swept in the next frame.
// - Later: a MutationObserver only collects what was added (no DOM reads in its callback) and one pass
//   per animation frame scans just those subtrees.
// A pass reads (querySelectorAll, getAttribute) and then writes; it never reads layout.
import {
  ADDRESS_LINKS,
  createWhitelist,
  type Detected,
  type PageInfo,
  pageInfo,
  pageTarget,
  readLink,
  scanLinks,
  TOKEN_LINKS,
} from './detect';
import { createInjector, HOST_TAG, type Injector, type Placement } from './inject';
import type { Messenger } from './messenger';
import { collectNftEvidence, linksUnder, NFT_LINKS } from './nft-evidence';

export interface ScannerOptions {
  chainId: number;
  messenger: Messenger;
  doc?: Document;
  /** Buttons only near the viewport; defaults to on where IntersectionObserver exists. */
  lazy?: boolean;
  /** How near the viewport "near" is. */
  rootMargin?: string;
}

export interface Scanner {
  /** Passes run so far: for tests and the benchmark (one pass per frame, whatever was added). */
  readonly stats: { passes: number };
  /** Schedules a pass even if nothing was added (the page's URL changed: SPA navigation). */
  refresh(): void;
  /** Disconnects everything and removes every button (e.g. when the extension is updated). */
  stop(): void;
}

/** Observes elements until they near the viewport, then hands them over (IntersectionObserver). */
interface Watcher {
  watch(elements: Element[], size?: number): void;
  unobserve(element: Element): void;
  /** Stops watching what the page removed (an app re-rendering its tables many times over). */
  sweep(): void;
  disconnect(): void;
}

function createWatcher(
  win: Window & typeof globalThis,
  margin: string,
  near: (elements: Element[]) => void,
): Watcher {
  // Observed element -> the elements it stands for (itself, or a run of neighbours: see watch()).
  const groups = new WeakMap<Element, Element[]>();
  const watched = new Set<Element>();
  const io = new win.IntersectionObserver(
    (entries) => {
      const single: Element[] = [];
      const runs: Element[][] = [];
      for (const { isIntersecting, target } of entries) {
        const group = groups.get(target);
        if (!isIntersecting || !group) continue;
        io.unobserve(target);
        watched.delete(target);
        if (group.length > 1) runs.push(group);
        else single.push(target);
      }
      near(single);
      // A run came near: watch each of its elements on its own (after the loop, so that all the
      // buttons near the viewport go in together, in one insertion, on the next callback).
      for (const run of runs) watch(run, 1);
    },
    // scrollMargin: the same reach inside scrolling containers (dropdown lists, table panes).
    { rootMargin: margin, scrollMargin: margin } as IntersectionObserverInit,
  );

  /**
   * The browser recomputes every observed target on each frame, so a big batch (a 10,000-row list) is
   * watched in runs of 32 neighbours in document order, through the first and last of each run; a run
   * that comes near is then watched element by element. Small batches are watched element by element
   * from the start.
   */
  function watch(elements: Element[], size = elements.length > 512 ? 32 : 1): void {
    for (let i = 0; i < elements.length; i += size) {
      const group = elements.slice(i, i + size);
      for (const sentinel of [group[0] as Element, group[group.length - 1] as Element]) {
        groups.set(sentinel, group);
        watched.add(sentinel);
        io.observe(sentinel);
      }
    }
  }

  function unobserve(element: Element): void {
    io.unobserve(element);
    watched.delete(element);
  }

  /** A removed sentinel is let go; the members of its run still on the page are watched on their own. */
  function sweep(): void {
    for (const element of watched) {
      if (element.isConnected) continue;
      unobserve(element);
      const rest = (groups.get(element) ?? []).filter((member) => member.isConnected && !watched.has(member));
      if (rest.length > 0) watch(rest, 1);
    }
  }

  return { watch, unobserve, sweep, disconnect: () => io.disconnect() };
}

/**
 * Queues what the records added (roots to scan) or re-pointed (changed hrefs, also roots); true when
 * the page removed an element (a button may have lost its link).
 */
function collect(records: MutationRecord[], roots: Node[], changed: Element[]): boolean {
  let removed = false;
  for (const record of records) {
    for (const node of record.removedNodes) {
      if (node.nodeType === 1 && (node as Element).localName !== HOST_TAG) removed = true;
    }
    if (record.type === 'attributes') {
      roots.push(record.target);
      changed.push(record.target as Element);
      continue;
    }
    for (const node of record.addedNodes) {
      // Our own buttons are additions too; they hold nothing to scan.
      if (node.nodeType === 1 && (node as Element).localName !== HOST_TAG) roots.push(node);
    }
  }
  return removed;
}

/**
 * A pass's reads: the first pass takes every token link unparsed, the next every address link; later
 * ones take the token links of what was added, unparsed too (each is read when it nears the
 * viewport), and parse only its address links (they wait for the background anyway).
 */
function read(
  doc: Document,
  page: PageInfo,
  sweep: Sweep,
  roots: Node[],
  nfts: Set<string>,
  firstTokens: readonly Element[],
) {
  const tokens: Element[] = sweep === 'tokens' ? [...doc.querySelectorAll(TOKEN_LINKS)] : [];
  // NFT evidence, before any link is read: the whole page in the second frame's sweep (the first
  // pass stays one bare query), then what each pass adds.
  let learned =
    sweep === 'addresses' && collectNftEvidence(page, nfts, doc.querySelectorAll(NFT_LINKS), firstTokens);
  const found = sweep === 'addresses' ? scanLinks(doc, page, [], ADDRESS_LINKS, nfts) : [];
  for (const root of roots) {
    if (!root.isConnected || root.nodeType !== 1) continue;
    const added = linksUnder(root as Element, TOKEN_LINKS);
    learned = collectNftEvidence(page, nfts, linksUnder(root as Element, NFT_LINKS), added) || learned;
    tokens.push(...added);
    scanLinks(root as ParentNode, page, found, ADDRESS_LINKS, nfts);
  }
  return { tokens, found, learned };
}

type Sweep = 'tokens' | 'addresses' | undefined;

/**
 * The token an element stands for: `confirmed` (a title, a listed address link) or what its /token/
 * href names (and its chain when another), read now; none for an address the page shows as an NFT.
 */
function linkedToken(
  element: Element,
  page: PageInfo,
  nfts: Set<string>,
  confirmed: string | undefined,
): Placement | undefined {
  if (confirmed !== undefined) return nfts.has(confirmed) ? undefined : { element, address: confirmed };
  const link = readLink(element, page, nfts);
  return link?.kind === 'token' ? { element, address: link.address, chainId: link.chainId } : undefined;
}

/**
 * Places (or re-points) the buttons. Not-listed ERC-20s keep theirs, marked so: one batched, cached
 * question per new token.
 */
function placeAndMark(
  injector: Injector,
  whitelists: (chainId: number | undefined) => Whitelist,
  items: Placement[],
  live: () => boolean,
): void {
  injector.place(items);
  const byChain = new Map<number | undefined, string[]>();
  for (const { address, chainId } of items) byChain.set(chainId, [...(byChain.get(chainId) ?? []), address]);
  for (const [chainId, asked] of byChain) {
    const whitelist = whitelists(chainId);
    // A failed answer (a chain the service does not serve) marks nothing: the card then asks for a
    // quote and says why there is none.
    whitelist
      .ask(asked)
      .then((listed) => live() && !whitelist.failed && injector.mark(asked, listed, chainId));
  }
}

interface Whitelist {
  ask: ReturnType<typeof createWhitelist>;
  failed: boolean;
}

/** The background's whitelist of one chain, asked in batches and cached (createWhitelist). */
function askWhitelist(chainId: number, messenger: Messenger): Whitelist {
  const whitelist: Whitelist = {
    failed: false,
    ask: createWhitelist(async (addresses) => {
      const answer = await messenger.whitelistedTokens(chainId, addresses);
      if (!answer.ok) whitelist.failed = true;
      return answer.ok ? answer.result : [];
    }),
  };
  return whitelist;
}

/** Of these address links, the ones the background confirms as whitelisted tokens, still in the page. */
function whitelisted(whitelist: Whitelist, candidates: Detected[]): Promise<Detected[]> {
  return whitelist
    .ask(candidates.map((record) => record.address))
    .then((ok) => candidates.filter(({ element, address }) => ok.has(address) && element.isConnected));
}

/**
 * What these elements stand for, read now. Reading links may learn an NFT (an item or section said
 * so): the buttons of that address placed earlier go, and none is placed for it.
 */
function readTokens(
  elements: Element[],
  tokenOf: (element: Element) => Placement | undefined,
  nfts: ReadonlySet<string>,
  injector: Injector,
): Placement[] {
  const items: Placement[] = [];
  const known = nfts.size;
  for (const element of elements) {
    const item = tokenOf(element);
    if (item) items.push(item);
  }
  if (nfts.size === known) return items;
  injector.drop(nfts);
  return items.filter((item) => !nfts.has(item.address));
}

/** Each chain's whitelist, made when first asked (`undefined`: the page's chain). */
function whitelistsOf(pageChain: number, messenger: Messenger) {
  const byChain = new Map<number, Whitelist>();
  return (chainId = pageChain): Whitelist => {
    const known = byChain.get(chainId);
    if (known) return known;
    const whitelist = askWhitelist(chainId, messenger);
    byChain.set(chainId, whitelist);
    return whitelist;
  };
}

export function startScanner(options: ScannerOptions): Scanner {
  const { chainId, messenger, doc = document } = options;
  const win = doc.defaultView as Window & typeof globalThis;
  const injector = createInjector(chainId, messenger, doc);
  const whitelists = whitelistsOf(chainId, messenger);
  // Addresses this document shows as NFTs (nft-evidence.ts): none of their links gets a button.
  const nfts = new Set<string>();
  let firstTokens: readonly Element[] = [];
  // Tokens not read from a /token/ href: the page's title, and address links the background confirmed.
  const confirmed = new WeakMap<Element, string>();
  const stats = { passes: 0 };
  let page = pageInfo(win.location.href, chainId);
  let title: Element | undefined;
  let roots: Node[] = [];
  let changed: Element[] = [];
  // Whole-document sweeps: token links in the first pass, address links in the next frame's.
  let sweep: Sweep = 'tokens';
  let scheduled = false;
  let stopped = false;
  let pruning = false;

  const tokenOf = (element: Element) => linkedToken(element, page, nfts, confirmed.get(element));

  /** Reads every token first, then places (or re-points) the buttons. */
  function place(elements: Element[]): void {
    placeAndMark(injector, whitelists, readTokens(elements, tokenOf, nfts, injector), () => !stopped);
  }

  const lazy = options.lazy ?? typeof win.IntersectionObserver === 'function';
  const io = lazy ? createWatcher(win, options.rootMargin ?? '600px 0px', place) : undefined;

  /** Elements that should carry a button: new ones wait to be seen, existing buttons are re-pointed. */
  function want(elements: Element[]): void {
    const fresh = elements.filter((element) => !injector.has(element));
    place(elements.filter((element) => !io || injector.has(element)));
    io?.watch(fresh);
  }

  function forget(element: Element): void {
    confirmed.delete(element);
    io?.unobserve(element);
    injector.remove(element);
  }

  /** Address links get a button once the background says they are whitelisted tokens. */
  function confirm(candidates: Detected[]): void {
    if (candidates.length === 0) return;
    whitelisted(whitelists(), candidates).then((tokens) => {
      if (stopped) return;
      for (const { element, address } of tokens) confirmed.set(element, address);
      want(tokens.map((record) => record.element));
    });
  }

  function pass(): void {
    scheduled = false;
    if (stopped) return;
    stats.passes++;
    // SPA navigation (pushState, popstate) changes the URL without a load, and always the DOM too, so
    // each pass looks at the URL: the page's own token may have changed.
    // The NFT evidence is kept across SPA routes: what the app showed as an NFT stays one.
    if (win.location.href !== page.url) page = pageInfo(win.location.href, chainId);
    const pendingChanged = changed;
    const { tokens, found, learned } = read(doc, page, sweep, roots, nfts, firstTokens);
    // The first pass's token links, for the next frame's NFT evidence (no second whole-page query).
    firstTokens = sweep === 'tokens' ? tokens : [];
    sweep = sweep === 'tokens' ? 'addresses' : undefined;
    roots = [];
    changed = [];
    // A re-pointed address link is asked about again; until then (or if not a token) it has no button.
    for (const element of pendingChanged) confirmed.delete(element);
    const gone = pendingChanged.filter((element) => !tokenOf(element));
    const shown = pageTarget(doc, page);
    const target = shown && !nfts.has(shown.address) ? shown : undefined;

    // Writes.
    if (learned) injector.drop(nfts);
    if (pruning) {
      injector.prune();
      io?.sweep();
    }
    pruning = false;
    for (const element of gone) forget(element);
    if (title && title !== target?.element) forget(title);
    title = target?.element;
    if (target) {
      confirmed.set(target.element, target.address);
      tokens.push(target.element);
    }
    for (const record of found) if (record.kind === 'token') tokens.push(record.element);
    want(tokens);
    confirm(found.filter((record) => record.kind === 'address'));
    if (sweep) schedule();
  }

  function schedule(): void {
    if (scheduled || stopped) return;
    scheduled = true;
    win.requestAnimationFrame(pass);
  }

  // A changed URL with no element added (a framework only swapping text) still needs its pass.
  const mutations = new win.MutationObserver((records) => {
    if (collect(records, roots, changed)) pruning = true;
    if (pruning || roots.length > 0 || win.location.href !== page.url) schedule();
  });
  mutations.observe(doc, { childList: true, subtree: true, attributes: true, attributeFilter: ['href'] });
  pass();

  return {
    stats,
    refresh: schedule,
    stop() {
      stopped = true;
      mutations.disconnect();
      io?.disconnect();
      injector.clear();
    },
  };
}
