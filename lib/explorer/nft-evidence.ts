// Page-wide NFT evidence: an address that any link on the page shows as an NFT is an NFT on the whole
// page, so none of its links gets a control. A transaction page of an NFT sale links the collection
// as a plain `/token/<collection>` (shaped like an ERC-20 link) and elsewhere as
// `/token/<collection>?a=<token id>` or `/nft/<collection>/<id>`. Each frame runs its own content
// script, so each frame is judged by what its own document shows.
// Imported by the content script: no zod, no viem.
import type { PageInfo } from './page-info';

/** `/nft/<collection>/<id>` links; the others that may show an NFT are /token/ links (TOKEN_LINKS). */
export const NFT_LINKS = 'a[href*="/nft/"]';
/** What a /token/ href must contain to be worth parsing: a token id query or Blockscout's `/instance/`. */
const MAYBE_NFT = /[?&](?:a|tokenid)=(?!0x)|\/instance\//i;

const HEX = '(0x[0-9a-fA-F]{40})';
const NFT_PATH = new RegExp(`^/(?:nft/${HEX}/[^/]+|token/${HEX}/instance/[^/]+)/?$`);
const TOKEN_PATH = new RegExp(`^/token/${HEX}/?$`);

/** The collection an NFT URL names on the page's host, lowercase, or undefined. */
export function nftAddressOf(href: string | null, page: Pick<PageInfo, 'url' | 'host'>): string | undefined {
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href, page.url);
  } catch {
    return undefined;
  }
  if (url.host !== page.host) return undefined;
  const item = NFT_PATH.exec(url.pathname);
  if (item) return (item[1] ?? item[2])?.toLowerCase();
  const token = TOKEN_PATH.exec(url.pathname)?.[1];
  if (!token) return undefined;
  const id = url.searchParams.get('a');
  const tokenId = url.searchParams.get('tokenid') ?? url.searchParams.get('tokenId');
  return (id !== null && /^\d+$/.test(id)) || tokenId !== null ? token.toLowerCase() : undefined;
}

/**
 * Adds to `into` every collection the page's own URL and these links show as an NFT: `nftLinks`
 * (NFT_LINKS) and `tokenLinks` (TOKEN_LINKS, which the scanner has queried anyway: only hrefs with a
 * token id or `/instance/` are parsed). True when it learned one it did not know.
 */
export function collectNftEvidence(
  page: PageInfo,
  into: Set<string>,
  nftLinks: ArrayLike<Element>,
  tokenLinks: ArrayLike<Element>,
): boolean {
  const before = into.size;
  const learn = (href: string | null) => {
    const address = nftAddressOf(href, page);
    if (address) into.add(address);
  };
  learn(page.url);
  for (let i = 0; i < nftLinks.length; i++) learn(nftLinks[i]?.getAttribute('href') ?? null);
  for (let i = 0; i < tokenLinks.length; i++) {
    const href = tokenLinks[i]?.getAttribute('href');
    if (href && MAYBE_NFT.test(href)) learn(href);
  }
  return into.size > before;
}

/** Links under `root` (and `root` itself) that match `selector`. */
export function linksUnder(root: ParentNode, selector: string): Element[] {
  const own = (root as Node).nodeType === 1 && (root as Element).matches(selector) ? [root as Element] : [];
  return [...own, ...root.querySelectorAll(selector)];
}
