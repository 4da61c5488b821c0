// Token search over a cached list: exact address first, then symbol (exact, then prefix),
// then name (first word, then any word), then name substring. Built once per list: symbols and
// name words are sorted so a keystroke costs two binary searches plus the matches, not a scan
// of 10,000 names. Within a rank, list order wins (the service lists its main tokens first).
import type { Token } from '@/lib/api/schema';

export interface TokenSearchIndex {
  readonly size: number;
  /** Indices into the list, best match first; an empty query returns every token in list order. */
  search(query: string, limit?: number): number[];
  /** The token whose address equals `address` (any case), if listed. */
  byAddress(address: string): number | undefined;
}

const FULL_ADDRESS = /^0x[0-9a-f]{40}$/;
const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

type Entry = { key: string; index: number; first: boolean };

/** First position whose key is >= prefix. */
function lowerBound(entries: readonly Entry[], prefix: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((entries[mid] as Entry).key < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Last position whose offset is <= position: which token a haystack position belongs to. */
function ownerOf(offsets: Uint32Array, position: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((offsets[mid] as number) <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * All of a list's strings joined by newlines, so a substring search is one native indexOf
 * sweep over a single string instead of 10,000 calls.
 */
function haystackOf(values: readonly string[]): { text: string; offsets: Uint32Array } {
  const offsets = new Uint32Array(values.length);
  let text = '';
  for (let i = 0; i < values.length; i++) {
    offsets[i] = text.length;
    text += `\n${values[i]}`;
  }
  return { text, offsets };
}

const BUCKETS = 7; // exact symbol, symbol prefix, address prefix, name start, name word, phrase, substring

export function buildTokenSearchIndex(
  tokens: readonly Pick<Token, 'address' | 'symbol' | 'name'>[],
): TokenSearchIndex {
  const size = tokens.length;
  const names = new Array<string>(size);
  const addressToIndex = new Map<string, number>();
  const symbolEntries: Entry[] = [];
  const addressEntries: Entry[] = [];
  const wordEntries: Entry[] = [];
  for (let i = 0; i < size; i++) {
    const token = tokens[i] as Pick<Token, 'address' | 'symbol' | 'name'>;
    const name = token.name.toLowerCase().replace(/\s+/g, ' ');
    names[i] = name;
    const address = token.address.toLowerCase();
    if (!addressToIndex.has(address)) addressToIndex.set(address, i);
    addressEntries.push({ key: address, index: i, first: true });
    symbolEntries.push({ key: token.symbol.toLowerCase(), index: i, first: true });
    let first = true;
    for (const word of name.split(WORD_SPLIT)) {
      if (!word) continue;
      wordEntries.push({ key: word, index: i, first });
      first = false;
    }
  }
  const byKey = (a: Entry, b: Entry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index);
  symbolEntries.sort(byKey);
  wordEntries.sort(byKey);
  addressEntries.sort(byKey);
  const nameHaystack = haystackOf(names);
  // Per search: which tokens matched (stamp) and in which bucket; a new stamp avoids clearing.
  const seen = new Uint32Array(size);
  const bucketOf = new Uint8Array(size);
  let stamp = 0;

  function byAddress(address: string): number | undefined {
    return addressToIndex.get(address.trim().toLowerCase());
  }

  function search(rawQuery: string, limit = Number.POSITIVE_INFINITY): number[] {
    const query = rawQuery.trim().toLowerCase().replace(/\s+/g, ' ');
    if (query === '') {
      const all = new Array<number>(Math.min(size, limit));
      for (let i = 0; i < all.length; i++) all[i] = i;
      return all;
    }
    if (FULL_ADDRESS.test(query)) {
      const hit = addressToIndex.get(query);
      return hit === undefined ? [] : [hit];
    }
    stamp++;
    if (stamp === 0xffffffff) {
      seen.fill(0);
      stamp = 1;
    }
    const counts = new Array<number>(BUCKETS).fill(0);
    let matched = 0;
    const mark = (index: number, bucket: number) => {
      if (seen[index] === stamp) return;
      seen[index] = stamp;
      bucketOf[index] = bucket;
      counts[bucket] = (counts[bucket] ?? 0) + 1;
      matched++;
    };
    const markPrefixes = (entries: readonly Entry[], bucket: number, accept: (entry: Entry) => boolean) => {
      for (let at = lowerBound(entries, query); at < entries.length; at++) {
        const entry = entries[at] as Entry;
        if (!entry.key.startsWith(query)) break;
        if (accept(entry)) mark(entry.index, bucket);
      }
    };
    const markSubstrings = (
      haystack: { text: string; offsets: Uint32Array },
      needle: string,
      bucket: number,
    ) => {
      let position = haystack.text.indexOf(needle);
      while (position >= 0) {
        const owner = ownerOf(haystack.offsets, position);
        mark(owner, bucket);
        const next = haystack.offsets[owner + 1];
        if (next === undefined) break;
        position = haystack.text.indexOf(needle, next);
      }
    };

    markPrefixes(symbolEntries, 0, (entry) => entry.key === query);
    markPrefixes(symbolEntries, 1, () => true);
    if (query.startsWith('0x')) markPrefixes(addressEntries, 2, () => true);
    if (matched < limit) {
      if (WORD_SPLIT.test(query)) {
        markSubstrings(nameHaystack, `\n${query}`, 3); // several words: the name starts with them
        markSubstrings(nameHaystack, ` ${query}`, 4); // or a later part of it does
      } else {
        markPrefixes(wordEntries, 3, (entry) => entry.first);
        markPrefixes(wordEntries, 4, () => true);
      }
    }
    // Substrings are the weakest match: only when still short of results.
    if (matched < limit && query.length >= 3) markSubstrings(nameHaystack, query, 6);

    // Emit bucket by bucket, in list order within a bucket, until the limit.
    const ranked: number[] = [];
    for (let bucket = 0; bucket < BUCKETS && ranked.length < limit; bucket++) {
      if (counts[bucket] === 0) continue;
      for (let i = 0; i < size && ranked.length < limit; i++) {
        if (seen[i] === stamp && bucketOf[i] === bucket) ranked.push(i);
      }
    }
    return ranked;
  }

  return { size, search, byAddress };
}
