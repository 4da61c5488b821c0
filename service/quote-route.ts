// POST /v1/quote over HTTP: the body checked at the trust boundary, the answer served from the
// per-block answer cache (service/quote-cache.ts) when the same body was answered at the current
// head, else priced and kept for the rest of the block. A miss runs whole in a search turn
// (service/search-turns.ts): the body's parse and checks, the route search and the answer's
// serialization of the misses read together run back to back, warm in the CPU's caches, not
// each between other requests' HTTP work.
import type { Context, Handler } from 'hono';
import { ERROR_CODES, type QuoteRequest, QuoteRequestSchema } from '../lib/api/schema';
import type { ChainReader } from './chain-reader';
import type { ChainContext, ChainRegistry } from './chains';
import { ApiError } from './errors';
import type { ServicePolicy } from './policy';
import { awaitStateAtHead, type CheckedQuote, checkQuote, type PricedQuote, priceAt } from './quote';
import { dataHeadOf, newQuoteId, type QuoteAnswerCache, quoteResponseText } from './quote-cache';
import { cachedAnswerFor } from './quote-hits';
import { onlyAbout, parseJsonText, readBodyText, summarise } from './request-body';
import { routeSearchTurns } from './search-turns';
import { requireChainById } from './validate';

export interface QuoteRouteDeps {
  registry: ChainRegistry;
  readerFor(chain: ChainContext): ChainReader;
  policy: ServicePolicy;
  now(): string;
  cache: QuoteAnswerCache;
}

/** One header object for every quote answer (Hono passes a single plain header through as is). */
const JSON_CONTENT = { 'Content-Type': 'application/json' } as const;

export function quoteHandler({ registry, readerFor, policy, now, cache }: QuoteRouteDeps): Handler {
  const answer = (c: Context, dataHead: string) =>
    c.body(quoteResponseText(dataHead, newQuoteId(), now()), 200, JSON_CONTENT);

  return async (c) => {
    const text = await readBodyText(c);
    const hit = cachedAnswerFor(cache, registry, readerFor, text);
    if (hit) {
      // The head without a promise when the reader knows it fresh; else awaited (and maybe failed).
      const headHash = hit.headHash ?? (await awaitStateAtHead(hit.reader)).block.hash;
      if (headHash === hit.cached.blockHash) {
        cache.hits += 1;
        return answer(c, hit.cached.dataHead);
      }
    }
    cache.misses += 1;
    const kept = (chain: ChainContext, priced: PricedQuote) => {
      const dataHead = dataHeadOf(priced.data);
      cache.store(text, { chainId: chain.chainId, blockHash: priced.block.hash, dataHead });
      return dataHead;
    };
    const miss = await routeSearchTurns.run((): string | Unpriced => {
      const request = parseQuoteRequest(parseJsonText(text));
      const chain = requireChainById(registry, request.chainId);
      const checked = checkQuote(chain, policy, request);
      const reader = readerFor(chain);
      const state = reader.currentNow?.();
      return state ? kept(chain, priceAt(chain, policy, checked, state)) : { chain, checked, reader };
    });
    if (typeof miss === 'string') return answer(c, miss);
    // The head is not known without asking the node (currentNow was asked): ask, then price in a later turn.
    const state = await awaitStateAtHead(miss.reader);
    const dataHead = await routeSearchTurns.run(() =>
      kept(miss.chain, priceAt(miss.chain, policy, miss.checked, state)),
    );
    return answer(c, dataHead);
  };
}

/** A checked miss whose chain head must be asked for before it can be priced. */
interface Unpriced {
  readonly chain: ChainContext;
  readonly checked: CheckedQuote;
  readonly reader: ChainReader;
}

function parseQuoteRequest(body: unknown): QuoteRequest {
  const parsed = QuoteRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  // A negative slippage fails the schema, but it is a slippage error (406), not a malformed body.
  if (onlyAbout(parsed.error, 'slippage') && typeof (body as { slippage?: unknown }).slippage === 'number') {
    throw new ApiError(406, ERROR_CODES.slippageOutOfRange, summarise(parsed.error));
  }
  throw new ApiError(400, ERROR_CODES.badRequest, summarise(parsed.error));
}
