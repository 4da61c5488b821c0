// Token JSON as the spec shapes it (2.1). The full list is thousands of entries: it is serialized
// once per (chain, base URL) and the string is reused, so /full costs a Map lookup.
import type { Token } from '../lib/api/schema';
import type { ChainContext, TokenRecord } from './chains';

const MAX_CACHED_LISTS = 8;

export function logoUrl(baseUrl: string, chain: ChainContext, token: TokenRecord): string {
  return `${baseUrl}/logos/${chain.name}/${token.address.toLowerCase()}.svg`;
}

export function tokenJson(baseUrl: string, chain: ChainContext, token: TokenRecord): Token {
  return {
    chainId: chain.chainId,
    address: token.address,
    name: token.name,
    symbol: token.symbol,
    decimals: token.decimals,
    logoURI: logoUrl(baseUrl, chain, token),
  };
}

export function searchResultJson(baseUrl: string, chain: ChainContext, token: TokenRecord): Token[] {
  return [
    {
      ...tokenJson(baseUrl, chain, token),
      extensions: { opListId: `swaplane-devnet-${chain.name}`, opTokenId: token.address.toLowerCase() },
    },
  ];
}

export class TokenListCache {
  private readonly lists = new Map<string, string>();

  fullListJson(baseUrl: string, chain: ChainContext): string {
    const key = `${chain.name} ${baseUrl}`;
    const hit = this.lists.get(key);
    if (hit !== undefined) return hit;
    const json = JSON.stringify(chain.tokens.map((token) => tokenJson(baseUrl, chain, token)));
    // Base URLs come from Host headers: bound the cache so odd hosts cannot grow it.
    if (this.lists.size >= MAX_CACHED_LISTS) this.lists.clear();
    this.lists.set(key, json);
    return json;
  }
}
