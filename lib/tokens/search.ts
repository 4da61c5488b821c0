// Token search over a cached list: exact address first, then symbol (exact, then prefix),
// then name (prefix, then word prefix, then substring). Built once per list; a query is a
// single pass over precomputed lowercase arrays, so it stays well under 1 ms at 10,000 tokens.
import type { Token } from '@/lib/api/schema';

export interface TokenSearchIndex {
  readonly size: number;
  /** Indices into the list, best match first; an empty query returns every token in list order. */
  search(query: string, limit?: number): number[];
  /** The token whose address equals `address` (any case), if listed. */
  byAddress(address: string): number | undefined;
}

const FULL_ADDRESS = /^0x[0-9a-f]{40}$/;

export function buildTokenSearchIndex(
  tokens: readonly Pick<Token, 'address' | 'symbol' | 'name'>[],
): TokenSearchIndex {
  const size = tokens.length;
  const symbols = new Array<string>(size);
  const names = new Array<string>(size);
  const addresses = new Array<string>(size);
  const addressToIndex = new Map<string, number>();
  for (let i = 0; i < size; i++) {
    const token = tokens[i] as Pick<Token, 'address' | 'symbol' | 'name'>;
    symbols[i] = token.symbol.toLowerCase();
    names[i] = token.name.toLowerCase();
    const address = token.address.toLowerCase();
    addresses[i] = address;
    if (!addressToIndex.has(address)) addressToIndex.set(address, i);
  }

  function byAddress(address: string): number | undefined {
    return addressToIndex.get(address.trim().toLowerCase());
  }

  function search(rawQuery: string, limit = Number.POSITIVE_INFINITY): number[] {
    const query = rawQuery.trim().toLowerCase();
    if (query === '') {
      const all = new Array<number>(Math.min(size, limit));
      for (let i = 0; i < all.length; i++) all[i] = i;
      return all;
    }
    if (FULL_ADDRESS.test(query)) {
      const hit = addressToIndex.get(query);
      return hit === undefined ? [] : [hit];
    }
    const isHexPrefix = query.startsWith('0x');
    const exactSymbol: number[] = [];
    const symbolPrefix: number[] = [];
    const namePrefix: number[] = [];
    const nameWord: number[] = [];
    const nameSubstring: number[] = [];
    const wordQuery = ` ${query}`;
    for (let i = 0; i < size; i++) {
      const symbol = symbols[i] as string;
      if (symbol === query) exactSymbol.push(i);
      else if (symbol.startsWith(query)) symbolPrefix.push(i);
      else if (isHexPrefix && (addresses[i] as string).startsWith(query)) symbolPrefix.push(i);
      else {
        const name = names[i] as string;
        if (name.startsWith(query)) namePrefix.push(i);
        else if (name.includes(wordQuery)) nameWord.push(i);
        else if (query.length >= 3 && name.includes(query)) nameSubstring.push(i);
      }
    }
    const ranked = exactSymbol.concat(symbolPrefix, namePrefix, nameWord, nameSubstring);
    return ranked.length > limit ? ranked.slice(0, limit) : ranked;
  }

  return { size, search, byAddress };
}
