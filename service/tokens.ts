// Token JSON as the spec shapes it (2.1). The full list is thousands of entries (~430 kB): it is
// serialized, encoded to bytes and gzipped once per chain when the service starts (the list and the
// configured base URL never change while it runs), with an ETag, so /full costs a Map lookup and a
// write of bytes that already exist (a quarter as many when gzipped). Brotli at its best setting is
// a sixth smaller again (92 kB against 112 kB on the devnet's Ethereum list) but takes seconds of
// CPU, so it is made once, off the event loop, when a client first accepts it; gzip until then.
// Nothing in a request (its Host header least of all) decides what is computed or cached.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzipSync } from 'node:zlib';
import type { Token } from '../lib/api/schema';
import type { ChainContext, TokenRecord } from './chains';

/**
 * The address as the entry's `address` spells it (checksummed): brotli then finds the path's 40
 * hex digits as a repeat of the entry's own. Lowercase, they were 20 bytes of new data per token,
 * a fifth of the list's brotli (91,777 bytes for the devnet's 2,010 tokens, 72,956 this way).
 */
export function logoUrl(baseUrl: string, chain: ChainContext, token: TokenRecord): string {
  return `${baseUrl}/logos/${chain.name}/${token.address}.svg`;
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

/** One serialized list: the JSON bytes, their gzip, and a strong ETag of the JSON. */
export interface EncodedList {
  readonly json: Uint8Array<ArrayBuffer>;
  readonly gzip: Uint8Array<ArrayBuffer>;
  readonly etag: string;
}

const brotli = promisify(brotliCompress);

/** Brotli at quality 11 (the list changes only with the configuration, so the best is worth it). */
export async function brotliOf(json: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await brotli(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.byteLength,
    },
  });
  return bytes as Uint8Array<ArrayBuffer>;
}

/** Serializes a chain's list: JSON bytes, their level-9 gzip and a strong ETag of the JSON. */
export function encodeTokenList(baseUrl: string, chain: ChainContext): EncodedList {
  const json = Buffer.from(
    JSON.stringify(chain.tokens.map((token) => tokenJson(baseUrl, chain, token))),
    'utf8',
  );
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  const gzip = gzipSync(json, { level: 9 });
  return { json: json as Uint8Array<ArrayBuffer>, gzip: gzip as Uint8Array<ArrayBuffer>, etag };
}

/** Every chain's encoded list for one configured base URL, prepared once, on first use. */
export class TokenListCache {
  private readonly lists = new Map<string, EncodedList>();
  /** Brotli bytes by chain name once made; a pending or failed compression has no entry. */
  private readonly brotliLists = new Map<string, Uint8Array<ArrayBuffer>>();
  private readonly brotliStarted = new Set<string>();
  /** How many times a list was serialized and gzipped (a test reads it: requests must not add any). */
  encodings = 0;
  /** How many brotli compressions were started (at most one per chain). */
  brotliEncodings = 0;

  constructor(private readonly baseUrl: string) {}

  fullList(chain: ChainContext): EncodedList {
    const hit = this.lists.get(chain.name);
    if (hit !== undefined) return hit;
    const list = encodeTokenList(this.baseUrl, chain);
    this.encodings += 1;
    this.lists.set(chain.name, list);
    return list;
  }

  /**
   * The list's brotli bytes when they are ready; otherwise undefined, and the compression is started
   * (once per chain, in libuv's thread pool, so no request waits on it and the event loop runs on).
   */
  brotliList(chain: ChainContext): Uint8Array<ArrayBuffer> | undefined {
    const ready = this.brotliLists.get(chain.name);
    if (ready !== undefined || this.brotliStarted.has(chain.name)) return ready;
    this.brotliStarted.add(chain.name);
    this.brotliEncodings += 1;
    this.brotliReady = brotliOf(this.fullList(chain).json).then(
      (bytes) => void this.brotliLists.set(chain.name, bytes),
      // Gzip stays served; a later request may try again.
      () => void this.brotliStarted.delete(chain.name),
    );
    return undefined;
  }

  /** Settles when the last brotli compression started has (tests wait on it). */
  brotliReady: Promise<void> = Promise.resolve();
}

/** Whether an Accept-Encoding header accepts a coding, by name or `*` (q=0 refuses it). */
export function acceptsEncoding(header: string | undefined, coding: 'gzip' | 'br'): boolean {
  if (!header) return false;
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    if (name.trim() !== coding && name.trim() !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

/** Whether an If-None-Match header names this ETag (or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
