// Answers to a repeated quote request within one block. A quote is a pure function of the request,
// the policy and the pools' state at the block it is priced at, so the route search and the
// answer's serialization run once per (request body, block); every answer still gets its own quote
// id and timestamp. Routing once per block for a repeated request is what production aggregators
// do. Entries are keyed by the exact body text (a body seen and answered 200 at this block needs no
// new parse: the same text parses to the same request) and stamped with the block's hash, so a new
// head, a reorg or an anvil_revert is a miss. Only successful answers are kept; errors are
// recomputed. Bounded: bodies over `maxKeyBytes` are never kept, and a full cache starts again.
//
// A doorkeeper admits an answer only when its body is answered a second time: a body asked once
// (a typed amount never asked again, or a client sending a new body on every request) leaves only
// its ~200-byte text in a bounded set, not its ~1-2 kB answer. Keeping every never-repeated answer
// cost the service GC work on each route search (answers outlived the young generation and were
// copied into the old one) and let a flood of new bodies clear everyone's repeated answers every
// `maxEntries` requests; now such a flood only turns over the doorkeeper's set.
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
  /** Bodies answered once remembered before that set starts again (default: `maxEntries`). */
  maxSeenOnce?: number;
}

export class QuoteAnswerCache {
  private readonly entries = new Map<string, CachedQuote>();
  private readonly maxEntries: number;
  private readonly maxKeyBytes: number;
  /** Bodies answered once whose answers were not kept: kept on the next answer to the same body. */
  private readonly seenOnce = new Set<string>();
  private readonly maxSeenOnce: number;
  /** Requests answered from the cache / by a route search (the load bench reports the hit rate). */
  hits = 0;
  misses = 0;

  constructor(options: QuoteCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 4_096;
    this.maxKeyBytes = options.maxKeyBytes ?? 1_024;
    this.maxSeenOnce = options.maxSeenOnce ?? this.maxEntries;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry for this body, whatever its block: the caller checks `blockHash` against the head. */
  lookup(body: string): CachedQuote | undefined {
    return body.length > this.maxKeyBytes ? undefined : this.entries.get(body);
  }

  /** Bodies answered once and waiting for a second answer to be kept. */
  get waiting(): number {
    return this.seenOnce.size;
  }

  /**
   * Offers the answer to this body: kept when the body was answered before (once, or kept at an
   * older block); on a body's first answer only the body is remembered. True when kept.
   */
  store(body: string, entry: CachedQuote): boolean {
    // String length counts UTF-16 units; a key is at most 3x that in UTF-8: close enough for a bound.
    if (body.length > this.maxKeyBytes) return false;
    if (!this.entries.has(body)) {
      if (!this.seenOnce.delete(body)) {
        if (this.seenOnce.size >= this.maxSeenOnce) this.seenOnce.clear();
        this.seenOnce.add(body);
        return false;
      }
      if (this.entries.size >= this.maxEntries) this.entries.clear();
    }
    this.entries.set(body, entry);
    return true;
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
