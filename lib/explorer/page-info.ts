// What the content script knows of the page it runs in; shared by link detection and NFT evidence.
export interface PageInfo {
  url: string;
  /** `host` of the page URL (hostname and port, lowercase). */
  host: string;
  /** The token of a `/token/0x…` page, lowercase. */
  token?: string;
  /** The page's chain, when known: links naming another chain (`?chainid=`) are refused. */
  chainId?: number;
  /** The page lists NFTs (an NFT list or tab): a token link counts only in a list's ERC-20 section. */
  nft?: boolean;
}
