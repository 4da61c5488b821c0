// Answers to a repeated quote request within one block. A quote is a pure function of the request,
// the policy and the pools' state at the block it is priced at, so the route search and the
// answer's serialization run once per (request body, block); every answer still gets its own quote
// id and timestamp. Routing once per block for a repeated request is what production aggregators
// do. Entries are keyed by the exact body text (a body seen and answered 200 at this block needs no
// new parse: the same text parses to the same request) and stamped with the block's hash, so a new
// head, a reorg or an anvil_revert is a miss. Only successful answers are kept; errors are
// recomputed. Bounded: bodies over `maxKeyBytes` are never kept, and a full cache starts again.
import { randomUUID } from 'node:crypto';

export interface CachedQuote {
  readonly chainId: number;
  /** The block the answer was priced at: it is served only while the chain's head is this block. */
  readonly blockHash: string;
  /** The answer's `data` serialized without its closing brace, so the quote id can follow. */
  readonly dataHead: string;
}

export interface QuoteCacheOptions {
  /** Entries kept before the cache starts again (default 4,096). */
  maxEntries?: number;
  /** Longer request bodies are answered but never kept (default 1,024 bytes; a request is ~200). */
  maxKeyBytes?: number;
}

export class QuoteAnswerCache {
  private readonly entries = new Map<string, CachedQuote>();
  private readonly maxEntries: number;
  private readonly maxKeyBytes: number;
  /** Requests answered from the cache / by a route search (the load bench reports the hit rate). */
  hits = 0;
  misses = 0;

  constructor(options: QuoteCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 4_096;
    this.maxKeyBytes = options.maxKeyBytes ?? 1_024;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry for this body, whatever its block: the caller checks `blockHash` against the head. */
  lookup(body: string): CachedQuote | undefined {
    return body.length > this.maxKeyBytes ? undefined : this.entries.get(body);
  }

  store(body: string, entry: CachedQuote): void {
    // String length counts UTF-16 units; a key is at most 3x that in UTF-8: close enough for a bound.
    if (body.length > this.maxKeyBytes) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(body)) this.entries.clear();
    this.entries.set(body, entry);
  }
}

/** `data` as the cache keeps it: the serialized object without its closing brace. */
export function dataHeadOf(data: object): string {
  return JSON.stringify(data).slice(0, -1);
}

/** A fresh, unguessable id for one answer (cached or not, no two answers share one). */
export function newQuoteId(): string {
  return randomUUID();
}

/** The quote response envelope around a cached or fresh `data`, with this answer's id and time. */
export function quoteResponseText(dataHead: string, quoteId: string, timestamp: string): string {
  return `{"success":true,"data":${dataHead},"quoteId":"${quoteId}"},"timestamp":"${timestamp}"}`;
}
