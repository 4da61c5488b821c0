// Finds token addresses on explorer pages. DOM-light and pure: reads attributes only (no layout, no
// writes), so it runs in happy-dom; the scanner decides when to parse (see scanner.ts).
// Imported by the content script: no zod, no viem, nothing heavy.
import { chainForExplorerHost } from '@/lib/chains/hosts';
import {
  nftCollectionTitle,
  nftItem,
  nftPage,
  refusedByStructure,
  refusedUrl,
  sectionAbove,
  TOKEN_LINKS,
} from './classify';
import { collectNftEvidence, linksUnder, NFT_LINKS } from './nft-evidence';
import type { PageInfo } from './page-info';

export type DetectedKind = 'token' | 'address' | 'page';

/** One element and the token it names; `address` is lowercase 0x + 40 hex. */
export interface Detected {
  element: Element;
  address: string;
  kind: DetectedKind;
  /** Set when the link goes to another chain's explorer (the token is on that chain). */
  chainId?: number;
}

/** What a link names: a token or address, on the page's chain unless `chainId` says another. */
export interface LinkTarget {
  address: string;
  kind: 'token' | 'address';
  chainId?: number;
}

/** What a pass needs to know about the page: where links resolve and the token it shows, if any. */
export type { PageInfo } from './page-info';

// Cheap pre-filters, the same shape as a bare `a[href*="/token/0x"]`; parseHref does the real check.
export { TOKEN_LINKS };
export const ADDRESS_LINKS = 'a[href*="/address/"]';
export const LINK_SELECTOR = `${TOKEN_LINKS},${ADDRESS_LINKS}`;
/** Where a token page's own button goes: its title. */
export const PAGE_TITLE_SELECTOR = 'h1';

// `/token/<address>` or `/address/<address>`, then the end of the path: a further segment is another
// page (Blockscout's NFT `/instance/<id>`), not the token.
const PATH_RE = /^\/(token|address)\/(0x[0-9a-fA-F]{40})\/?$/;

/** `url` must be absolute (a page's location). */
export function pageInfo(url: string, chainId?: number): PageInfo {
  const parsed = new URL(url);
  const hit = matchPath(parsed.pathname);
  const info: PageInfo = { url: parsed.href, host: parsed.host };
  if (hit?.kind === 'token') info.token = hit.address;
  if (chainId !== undefined) info.chainId = chainId;
  if (nftPage(parsed)) info.nft = true;
  return info;
}

/**
 * The token (or address) an href names, when it is a link on the page's own host, or a `/token/` link
 * to another explorer Swaplane knows (https, its host exactly as the host table has it: look-alikes
 * fail), which names a token on that explorer's chain. Otherwise undefined.
 * Resolved by URL exactly as the browser would follow it: relative forms, protocol-relative, backslash,
 * userinfo and whitespace tricks all end up on their real host, which is the one checked.
 */
export function parseHref(href: string | null, page: PageInfo): LinkTarget | undefined {
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href, page.url);
  } catch {
    return undefined;
  }
  let chainId = page.chainId;
  if (url.host !== page.host) {
    chainId = url.protocol === 'https:' ? chainForExplorerHost(url.host) : undefined;
    if (chainId === undefined) return undefined;
  } else if (!/^https?:$/.test(url.protocol)) return undefined;
  const hit = matchPath(url.pathname);
  if (!hit || refusedUrl(url, page.token, hit.address, chainId)) return undefined;
  if (url.host === page.host || chainId === page.chainId) return hit;
  // Another chain's address links would need that chain's token list first: token links only.
  return hit.kind === 'token' ? { ...hit, chainId } : undefined;
}

/**
 * What a link on the page names, when it is a token the user could swap (or an address to ask about).
 * `nfts`: the addresses the page shows as NFTs anywhere (collectNftEvidence): none of their links
 * counts; a link refused as an NFT item or section member adds its address.
 */
export function readLink(element: Element, page: PageInfo, nfts?: Set<string>): LinkTarget | undefined {
  const hit = parseHref(element.getAttribute('href'), page);
  if (!hit || nfts?.has(hit.address) || refusedByStructure(element)) return undefined;
  // NFT sections and items hold /token/ links; an /address/ link only counts once the background
  // confirms an ERC-20 of its list, so it skips these walks.
  const section = hit.kind === 'token' ? sectionAbove(element) : undefined;
  // A page of NFTs (an NFT tab, an inventory) names a token only in a list's ERC-20 section:
  // Blockscout's holdings menu, opened beside its NFT tab.
  if (page.nft && section !== 'erc20') return undefined;
  if (section === 'nft' || (hit.kind === 'token' && nftItem(element, hit.address))) {
    // What the item or section says holds for the whole page: its other links go too.
    nfts?.add(hit.address);
    return undefined;
  }
  // On an NFT collection's page, links to the collection itself (its transfers' and holders'
  // `/token/<collection>?a=<holder>`) name the NFT, like its title.
  return hit.address === page.token && nftCollection(element.ownerDocument) ? undefined : hit;
}

/** The page's title says (or its Inventory tab does) that the page's token is an NFT collection. */
function nftCollection(doc: Document): boolean {
  const title = doc.querySelector(PAGE_TITLE_SELECTOR);
  return title !== null && nftCollectionTitle(title, doc);
}

function matchPath(path: string): { address: string; kind: 'token' | 'address' } | undefined {
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path);
    } catch {
      return undefined;
    }
  }
  const match = PATH_RE.exec(path);
  if (!match) return undefined;
  return { kind: match[1] as 'token' | 'address', address: (match[2] as string).toLowerCase() };
}

/**
 * Links under `root` (and `root` itself) that name a token or an address on the page's host, in
 * document order. `/address/` records are only candidates: the background says which are tokens.
 */
export function scanLinks(
  root: ParentNode,
  page: PageInfo,
  out: Detected[] = [],
  selector = LINK_SELECTOR,
  nfts?: Set<string>,
): Detected[] {
  const push = (element: Element) => {
    const hit = readLink(element, page, nfts);
    if (hit) out.push({ element, ...hit });
  };
  if ((root as Node).nodeType === 1 && (root as Element).matches(selector)) push(root as Element);
  const links = root.querySelectorAll(selector);
  for (let i = 0; i < links.length; i++) push(links[i] as Element);
  return out;
}

/** The token page's own record: its title, carrying the token from the URL. */
export function pageTarget(root: ParentNode, page: PageInfo): Detected | undefined {
  if (!page.token || page.nft) return undefined;
  const title = root.querySelector(PAGE_TITLE_SELECTOR);
  if (!title || nftCollectionTitle(title, root)) return undefined;
  return { element: title, address: page.token, kind: 'page' };
}

/** Which of these addresses are whitelisted tokens (the background answers; at most 500 a call). */
export type WhitelistLookup = (addresses: string[]) => Promise<ReadonlySet<string>>;

/** Batches of <= 500 distinct addresses, each address asked once per page (answers are cached). */
export function createWhitelist(ask: (addresses: string[]) => Promise<string[]>): WhitelistLookup {
  const known = new Map<string, Promise<boolean>>();
  return async (addresses) => {
    const fresh = [...new Set(addresses.filter((address) => !known.has(address)))];
    for (let i = 0; i < fresh.length; i += 500) {
      const batch = fresh.slice(i, i + 500);
      // A failed call counts as "not whitelisted" for this page: no buttons rather than retries.
      const answer = ask(batch).then(
        (result) => new Set(result.map((address) => address.toLowerCase())),
        () => new Set<string>(),
      );
      for (const address of batch)
        known.set(
          address,
          answer.then((set) => set.has(address)),
        );
    }
    const confirmed = await Promise.all(addresses.map((address) => known.get(address)));
    return new Set(addresses.filter((_, i) => confirmed[i]));
  };
}

/**
 * Every record of the page under `root` on chain `chainId`: token links, the token page's title, and
 * the address links `whitelisted` (the background, batched) confirms as tokens. One record per element.
 */
export async function detect(
  root: ParentNode,
  pageUrl: string,
  chainId: number,
  whitelisted: (chainId: number, addresses: string[]) => Promise<string[]>,
): Promise<Detected[]> {
  const page = pageInfo(pageUrl, chainId);
  const nfts = new Set<string>();
  collectNftEvidence(page, nfts, linksUnder(root, NFT_LINKS), linksUnder(root, TOKEN_LINKS));
  // Links first learn what NFT items and sections say; then every record of an NFT goes.
  const links = scanLinks(root, page, [], LINK_SELECTOR, nfts).filter((record) => !nfts.has(record.address));
  const found = links.filter((record) => record.kind === 'token');
  const candidates = links.filter((record) => record.kind === 'address');
  const title = pageTarget(root, page);
  if (title && !nfts.has(title.address)) found.push(title);
  const lookup = createWhitelist((addresses) => whitelisted(chainId, addresses));
  const confirmed = await lookup(candidates.map((record) => record.address));
  for (const record of candidates) if (confirmed.has(record.address)) found.push(record);
  return found;
}
