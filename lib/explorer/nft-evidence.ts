// Page-wide NFT evidence: an address that any link on the page shows as an NFT is an NFT on the whole
// page, so none of its links gets a control. A transaction page of an NFT sale links the collection
// as a plain `/token/<collection>` (shaped like an ERC-20 link) and elsewhere as
// `/token/<collection>?a=<token id>` or `/nft/<collection>/<id>`. Each frame runs its own content
// script, so each frame is judged by what its own document shows.
// Imported by the content script: no zod, no viem.
import type { PageInfo } from './detect';

/**
 * Links that may show an NFT: `/nft/…`, Blockscout's `/instance/…`, a token id in `a` (never `0x…`,
 * which is a holder: `:not()` keeps a 10,000-row holder list out natively), `tokenid`.
 */
export const NFT_EVIDENCE_LINKS = [
  'a[href*="/nft/"]',
  'a[href*="/instance/"]',
  'a[href*="a="]:not([href*="a=0x"]):not([href*="a=0X"])',
  'a[href*="tokenid="]',
  'a[href*="tokenId="]',
].join(',');

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
 * Adds to `into` every collection the links under `root` (and the page's own URL) show as an NFT;
 * true when it learned one it did not know.
 */
export function collectNftEvidence(root: ParentNode, page: PageInfo, into: Set<string>): boolean {
  const before = into.size;
  const own = nftAddressOf(page.url, page);
  if (own) into.add(own);
  if ((root as Node).nodeType === 1 && (root as Element).matches(NFT_EVIDENCE_LINKS)) {
    const address = nftAddressOf((root as Element).getAttribute('href'), page);
    if (address) into.add(address);
  }
  const links = root.querySelectorAll(NFT_EVIDENCE_LINKS);
  for (let i = 0; i < links.length; i++) {
    const address = nftAddressOf(links[i]?.getAttribute('href') ?? null, page);
    if (address) into.add(address);
  }
  return into.size > before;
}
