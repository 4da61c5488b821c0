// Is a token link one the user could swap? The explorers' own structure says what is not: NFT links
// (a token id in `?a=`, a Blockscout `/instance/` path), NFT sections of holdings lists ("NFT Tokens",
// "ERC-721", "ERC-1155" dividers and badges), NFT tabs, and navigation (menus, tabs, a token page's
// links to itself). Pure and DOM-light: attribute reads, closest(), and the text of a list's dividers,
// computed once per list. Imported by the content script: no zod, no viem.

/**
 * Containers whose links are never token mentions: navigation, and an app's placeholders while its data
 * loads (Blockscout's skeletons, `data-loading="true"`, render stub rows linking a stub token).
 */
const NOT_MENTIONS =
  'nav,footer,[role=navigation],[role=menu],[role=menubar],[role=tablist],[role=tab],.navbar,.breadcrumb,[data-loading=true]';
/**
 * Blockscout's server-rendered holdings dropdown: a group per standard (`[data-token-type]`, headed
 * "ERC-721 (2)", a divider like any other), its items Bootstrap menu entries (`.dropdown-item`), which
 * anywhere else are menus.
 */
const TYPED_TOKEN_GROUP = '[data-token-type]';
/** Containers of NFT content: tab panes and lists named so (Etherscan `#nfttransfers`, Blockscout `nft` ids). */
// (Case variants spelled out: the `i` flag is not supported everywhere these selectors run.)
const NFT_CONTAINER = ['nft', 'NFT', 'Nft', 'erc721', 'ERC721', 'erc1155', 'ERC1155']
  .map((word) => `[id*="${word}"]`)
  .join(',');
/** Words that mark an NFT in a list item or its divider. */
const NFT_WORDS = /\b(?:NFTs?|ERC-?721|ERC-?1155|ERC-?404)\b/i;
const ERC20_WORDS = /\bERC-?20\b/i;

/** Query values that name a token id (an NFT), as opposed to a holder address. */
const TOKEN_ID = /^\d+$/;

/**
 * Page URLs whose whole content is NFTs: Etherscan's NFT collection lists (`/tokens-nft`,
 * `/tokens-nft1155`) and its inventory frame (`/token/generic-tokenholder-inventory?…`, whose "Owner"
 * links are `/token/<collection>?a=<holder>`), Blockscout's NFT tabs. Only NFT collections have an
 * inventory. NFT transfer lists, trades and item pages are not: their payment columns name ERC-20s
 * (WETH, USDC), and their collections show as NFTs by their own links (nft-evidence.ts). On such a
 * page a token link counts only in a list's ERC-20 section (Blockscout's holdings menu beside its NFT tab).
 */
export function nftPage(url: URL): boolean {
  if (/^\/tokens-nft|inventory/i.test(url.pathname)) return true;
  const tab = url.searchParams.get('tab') ?? '';
  return /nft|721|1155|404|inventory/i.test(tab);
}

/**
 * URL-level refusals of a link that names `/token/<address>`: a token id in `a` (Etherscan's NFT
 * item links), a further path (Blockscout's `/token/<address>/instance/<id>`), another chain's
 * `chainid` (Routescan's multichain pages), or a fragment on the page's own token (a tab).
 */
export function refusedUrl(
  url: URL,
  ownToken: string | undefined,
  address: string,
  chainId?: number,
): boolean {
  const id = url.searchParams.get('a');
  if (id !== null && TOKEN_ID.test(id)) return true;
  if (url.searchParams.has('tokenid') || url.searchParams.has('tokenId')) return true;
  // Routescan tags token links with their standard (`?type=erc20`, `erc721`, `erc1155`).
  if (/nft|721|1155|404/i.test(url.searchParams.get('type') ?? '')) return true;
  const chain = url.searchParams.get('chainid') ?? url.searchParams.get('chainId');
  if (chain !== null && chainId !== undefined && chain !== String(chainId)) return true;
  return ownToken === address && url.hash.length > 1;
}

// Per list: each item's section as its dividers name it ('nft', 'erc20' or undefined).
const sections = new WeakMap<Element, WeakMap<Element, 'nft' | 'erc20' | undefined>>();

function sectionOf(item: Element): 'nft' | 'erc20' | undefined {
  const list = item.parentElement;
  if (!list) return undefined;
  let known = sections.get(list);
  if (!known) {
    known = new WeakMap();
    let current: 'nft' | 'erc20' | undefined;
    for (const child of list.children) {
      // A divider: an item with no link, its text naming a section (Etherscan's holdings dropdown).
      if (!child.matches('a[href]') && !child.querySelector('a[href]')) {
        const text = child.textContent ?? '';
        if (NFT_WORDS.test(text)) current = 'nft';
        else if (ERC20_WORDS.test(text)) current = 'erc20';
      }
      known.set(child, current);
    }
    sections.set(list, known);
  }
  return known.get(item);
}

/**
 * The section the nearest divider above the link or one of its blocks names, up to its list item:
 * Etherscan's holdings `<li>` dividers, Blockscout's token menu ("ERC-721 tokens (3)" heading a group
 * of `<a>` items). The nearest decides: Blockscout's search suggestions head each category ("Tokens
 * (ERC-20)") under a strip of tabs naming every category, NFTs included.
 */
export function sectionAbove(link: Element): 'nft' | 'erc20' | undefined {
  let block: Element | null = link;
  // Not past a table's row: rows are not read as dividers (no explorer heads a section with a row, and
  // a 10,000-row body would be walked whole).
  for (let level = 0; level < 4 && block && !block.matches('main,section,article,body,tr'); level++) {
    const section = sectionOf(block);
    if (section || block.localName === 'li') return section;
    block = block.parentElement;
  }
  return undefined;
}

/** A link's badge text in a holdings list: the small labels next to the name, not the name itself. */
function badgeSaysNft(link: Element): boolean {
  const badges = link.querySelectorAll('[class*=badge],[class*=chip]');
  for (let i = 0; i < badges.length; i++) if (NFT_WORDS.test(badges[i]?.textContent ?? '')) return true;
  // Etherscan's unnamed NFT entries read "ERC-721 TOKEN*" / "ERC-1155 TOKEN*".
  return /ERC-?(?:721|1155) TOKEN/i.test(link.textContent ?? '');
}

/** True when the page's structure says the link is navigation or an NFT, not a swappable token. */
export function refusedByStructure(link: Element): boolean {
  if (link.closest(NOT_MENTIONS) || link.closest(NFT_CONTAINER)) return true;
  if (link.closest('.dropdown-item') && !link.closest(TYPED_TOKEN_GROUP)) return true;
  // The site's own header (menus, search), not a header inside the content.
  const header = link.closest('header');
  if (header && !header.closest('main,article,section')) return true;
  const item = link.closest('li,tr');
  return (
    (item !== null || link.closest('.dropdown-menu,[role=listbox]') !== null) && badgeSaysNft(item ?? link)
  );
}

/**
 * An NFT transfer item's own words: "ERC-721 Token ID [8817]", "3 of Token ID [42]". No word
 * boundaries: apps render adjacent elements with no space between them ("3token ID7").
 */
const NFT_ITEM_WORDS = /token ?id(?![a-z])|ERC-?(?:721|1155|404)(?!\d)/i;
/**
 * Links that may name a token (detect.ts parses them): `0x…` alone is a link relative to a /token/
 * page (Etherscan's transfer frames: `0x<token>?a=<holder>`).
 */
export const TOKEN_LINKS = 'a[href*="/token/"],a[href^="0x"]';
/** Token links and NFT item links: what an NFT transfer item may hold besides its collection link. */
const TOKEN_HREFS = `${TOKEN_LINKS},a[href*="/nft/"]`;

/**
 * A collection link inside an NFT transfer item (a transaction page's "ERC-721 Tokens Transferred"):
 * the item, i.e. the link's block up to its list item or row (at most four levels, while short and
 * naming no other token), reads "Token ID" or an NFT standard. An ERC-20 item's block never does,
 * and a block naming two tokens is a list, not an item.
 */
export function nftItem(link: Element, address: string): boolean {
  let block = link.parentElement;
  for (let level = 0; level < 4 && block; level++) {
    const text = block.textContent ?? '';
    if (text.length > 400 || block.matches('main,section,article,body,table,tbody,ul,ol')) return false;
    const links = block.querySelectorAll(TOKEN_HREFS);
    for (let i = 0; i < links.length; i++)
      if (!links[i]?.getAttribute('href')?.toLowerCase().includes(address)) return false;
    if (NFT_ITEM_WORDS.test(text)) return true;
    if (block.matches('li,tr')) return false;
    block = block.parentElement;
  }
  return false;
}

/**
 * Tabs that only an NFT collection's token page shows (Etherscan's and Blockscout's "Inventory"): the
 * tab itself, not its pane. The Etherscan family's template keeps an empty `#inventory` pane on every
 * token page, ERC-20s included, and leaves out (or hides) the tab that opens it.
 */
const INVENTORY_TAB = [
  'a[href*="#inventory"]',
  'a[href*="tab=inventory"]',
  '[data-bs-target*="inventory"]',
  '[aria-controls*="inventory"]',
  '[id="tab-inventory"]',
].join(',');
/** "| ERC-20 |" in a document title: the page's own standard, between the site's separators. */
const STANDARD_IN_TITLE = /\|\s*ERC-?(20|721|1155|404)\s*\|/i;
const HIDDEN = '[hidden],[style*="display:none"],[style*="display: none"]';

function shownInventoryTab(root: ParentNode): boolean {
  const tabs = root.querySelectorAll(INVENTORY_TAB);
  for (let i = 0; i < tabs.length; i++) if (!tabs[i]?.closest(HIDDEN)) return true;
  return false;
}

/**
 * Whether a token page's title belongs to an NFT collection (ERC-721/1155): the badge beside the
 * title names the standard, or the page has an Inventory tab. The title's own block is read up to
 * three levels and only while it stays short, so a site-wide menu naming "NFTs" never counts.
 */
export function nftCollectionTitle(title: Element, root: ParentNode): boolean {
  // The Etherscan family names a token page's standard in the document title ("USDC (USDC) | ERC-20 |
  // …", "NFT | ERC-1155 | …"), even for an address that is no token at all.
  const named = STANDARD_IN_TITLE.exec(title.ownerDocument?.title ?? '')?.[1];
  if (named) return named !== '20';
  if (shownInventoryTab(root)) return true;
  let block: Element | null = title;
  for (let level = 0; level < 3 && block; level++) {
    const text = block.textContent ?? '';
    if (text.length > 600 || block.matches('main,section,article,body')) break;
    if (NFT_WORDS.test(text)) return true;
    block = block.parentElement;
  }
  return false;
}
