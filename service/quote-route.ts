// POST /v1/quote over HTTP: the body checked at the trust boundary, the answer served from the
// per-block answer cache (service/quote-cache.ts) when the same body was answered at the current
// head, else priced by quote() and kept for the rest of the block.
import type { Context, Handler } from 'hono';
import { ERROR_CODES, type QuoteRequest, QuoteRequestSchema } from '../lib/api/schema';
import type { ChainReader } from './chain-reader';
import type { ChainContext, ChainRegistry } from './chains';
import { ApiError } from './errors';
import type { ServicePolicy } from './policy';
import { awaitStateAtHead, quote } from './quote';
import { dataHeadOf, newQuoteId, type QuoteAnswerCache, quoteResponseText } from './quote-cache';
import { onlyAbout, parseJsonText, readBodyText, summarise } from './request-body';
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
    const cached = cache.lookup(text);
    const cachedChain = cached && registry.byId(cached.chainId);
    if (cached && cachedChain) {
      const reader = readerFor(cachedChain);
      // The head without a promise when the reader knows it fresh; else awaited (and maybe failed).
      const block = reader.currentNow?.()?.block ?? (await awaitStateAtHead(reader)).block;
      if (block.hash === cached.blockHash) {
        cache.hits += 1;
        return answer(c, cached.dataHead);
      }
    }
    cache.misses += 1;
    const request = parseQuoteRequest(parseJsonText(text));
    const chain = requireChainById(registry, request.chainId);
    const priced = await quote(chain, readerFor(chain), policy, request);
    const dataHead = dataHeadOf(priced.data);
    cache.store(text, { chainId: chain.chainId, blockHash: priced.block.hash, dataHead });
    return answer(c, dataHead);
  };
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
