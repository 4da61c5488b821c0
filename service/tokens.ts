// Token JSON as the spec shapes it (2.1). The full list is thousands of entries (~430 kB): it is
// serialized, encoded to bytes and gzipped once per chain when the service starts (the list and the
// configured base URL never change while it runs), with an ETag, and each way of answering it
// (identity, gzip, brotli, 304) is a prepared answer (service/prepared-answer.ts): /full costs a Map
// lookup, a remembered Accept-Encoding choice and a write of bytes and headers that already exist.
// Brotli at its best setting is a sixth smaller than gzip (73 kB against 112 kB on the devnet's
// Ethereum list) but takes seconds of CPU, so it is made once, off the event loop, when a client
// first accepts it; gzip until then.
// Nothing in a request (its Host header least of all) decides what is computed or cached.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzipSync } from 'node:zlib';
import type { Token } from '../lib/api/schema';
import type { ChainContext, TokenRecord } from './chains';
import { type PreparedAnswer, prepareAnswer } from './prepared-answer';

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

/** One serialized list: the JSON bytes, their gzip, a strong ETag of the JSON, and its answers. */
export interface EncodedList {
  readonly json: Uint8Array<ArrayBuffer>;
  readonly gzip: Uint8Array<ArrayBuffer>;
  readonly etag: string;
  /** The list's answers, made with it (brotli's when its bytes are ready: TokenListCache). */
  readonly answers: {
    readonly identity: PreparedAnswer;
    readonly gzip: PreparedAnswer;
    readonly notModified: PreparedAnswer;
  };
}

/** How a list answer is encoded on the wire. */
export type ListCoding = 'br' | 'gzip' | 'identity';

/** Headers of every list answer; each varies by Accept-Encoding (and Origin: prepareAnswer). */
function listHeaders(etag: string): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=UTF-8',
    'Cache-Control': 'public, max-age=300',
    ETag: etag,
  };
}

function listAnswer(etag: string, coding: ListCoding, bytes: Uint8Array<ArrayBuffer>): PreparedAnswer {
  const headers = listHeaders(etag);
  if (coding !== 'identity') headers['Content-Encoding'] = coding;
  return prepareAnswer(200, bytes, headers, ['Accept-Encoding']);
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
  const bytes = json as Uint8Array<ArrayBuffer>;
  const gzip = gzipSync(json, { level: 9 }) as Uint8Array<ArrayBuffer>;
  return {
    json: bytes,
    gzip,
    etag,
    answers: {
      identity: listAnswer(etag, 'identity', bytes),
      gzip: listAnswer(etag, 'gzip', gzip),
      notModified: prepareAnswer(304, null, listHeaders(etag), ['Accept-Encoding']),
    },
  };
}

/** Every chain's encoded list for one configured base URL, prepared once, on first use. */
export class TokenListCache {
  private readonly lists = new Map<string, EncodedList>();
  /** Brotli answers by chain name once made; a pending or failed compression has no entry. */
  private readonly brotliAnswers = new Map<string, PreparedAnswer>();
  private readonly brotliStarted = new Set<string>();
  /** Accept-Encoding values already parsed, with the coding each chose. */
  private readonly codings = new CodingChoices();
  /** How many times a list was serialized and gzipped (a test reads it: requests must not add any). */
  encodings = 0;
  /** How many brotli compressions were started (at most one per chain). */
  brotliEncodings = 0;
  /** Settles when the last brotli compression started has (tests wait on it). */
  brotliReady: Promise<void> = Promise.resolve();

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
   * The answer for a request: 304 when `ifNoneMatch` names the list's ETag, else the list in the
   * best coding the client accepts that is ready (brotli's compression is started on its first ask).
   */
  answer(
    chain: ChainContext,
    ifNoneMatch: string | undefined,
    acceptEncoding: string | undefined,
  ): PreparedAnswer {
    const list = this.fullList(chain);
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, list.etag)) return list.answers.notModified;
    const coding = this.codings.choose(acceptEncoding);
    if (coding === 'br') return this.brotliAnswer(chain) ?? list.answers.gzip;
    return coding === 'gzip' ? list.answers.gzip : list.answers.identity;
  }

  /**
   * The list's brotli answer when its bytes are ready; otherwise undefined, and the compression is
   * started (once per chain, in libuv's thread pool, so no request waits on it and the loop runs on).
   */
  brotliAnswer(chain: ChainContext): PreparedAnswer | undefined {
    const ready = this.brotliAnswers.get(chain.name);
    if (ready !== undefined || this.brotliStarted.has(chain.name)) return ready;
    this.brotliStarted.add(chain.name);
    this.brotliEncodings += 1;
    const { etag, json } = this.fullList(chain);
    this.brotliReady = brotliOf(json).then(
      (bytes) => void this.brotliAnswers.set(chain.name, listAnswer(etag, 'br', bytes)),
      // Gzip stays served; a later request may try again.
      () => void this.brotliStarted.delete(chain.name),
    );
    return undefined;
  }
}

/**
 * The coding for an Accept-Encoding header, remembered by its text: browsers send a handful of
 * values, so the header is parsed once, not per request. Bounded (a client could send many).
 */
export class CodingChoices {
  private readonly chosen = new Map<string, ListCoding>();

  constructor(private readonly maxRemembered = 64) {}

  choose(header: string | undefined): ListCoding {
    if (header === undefined) return 'identity';
    const remembered = this.chosen.get(header);
    if (remembered !== undefined) return remembered;
    const coding = acceptsEncoding(header, 'br')
      ? 'br'
      : acceptsEncoding(header, 'gzip')
        ? 'gzip'
        : 'identity';
    if (this.chosen.size >= this.maxRemembered) this.chosen.clear();
    this.chosen.set(header, coding);
    return coding;
  }

  get size(): number {
    return this.chosen.size;
  }
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
