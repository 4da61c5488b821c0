// Quote requests answered from the per-block answer cache by the server itself, before the app: a
// POST of exactly `/v1/quote` whose body text was answered at the chain's current head
// (service/quote-cache.ts) gets that answer with its own quote id and timestamp, and no Hono
// context, router pass, middleware, Request or Response made for it. Four in five of the load
// bench's quotes are such repeats, and the app stack was most of what each cost (what that saves:
// docs/PERFORMANCE.md, "Quote cache hits before the app").
//
// What the app applies to a quote is applied here the same way: the body bound, the body's text
// decoded as the app decodes it, the client's `quote` rate limit and the CORS grant by Origin. The
// body is read only when its length is declared and within the bound; then a miss, a head not
// known without asking the node, or a refused client goes on to the app with the body already
// read (@hono/node-server takes a node request's `rawBody`), where it is checked, priced or refused
// as before. A request is taken from its client's bucket once: here only when it is answered here,
// else by the app. Anything else (a chunked body, an oversize one, a query string, another method)
// is the app's untouched.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChainReader } from './chain-reader';
import type { ChainContext, ChainRegistry } from './chains';
import type { Cors } from './cors';
import { type CachedQuote, newQuoteId, type QuoteAnswerCache, quoteResponseText } from './quote-cache';
import { type ClientLimiter, nodeHeader } from './request-bounds';

export interface QuoteHitDeps {
  cache: QuoteAnswerCache;
  registry: ChainRegistry;
  readerFor(chain: ChainContext): ChainReader;
  now(): string;
  cors: Cors;
  limiter: ClientLimiter | null;
  /** The service's body bound: a longer declared body is the app's to refuse (413). */
  maxBodyBytes: number;
}

/** How the server hands a request to the app. */
export type ToApp = (request: IncomingMessage, response: ServerResponse) => unknown;

export interface QuoteHits {
  /**
   * Takes the request when it may be a repeated quote: it is then answered here or handed to
   * `toApp` once its body is read. False: not taken, the caller hands it to the app as it is.
   */
  serve(request: IncomingMessage, response: ServerResponse, toApp: ToApp): boolean;
  /** Quotes answered here so far (tests and the bench read it). */
  readonly served: number;
}

/** The text of a body as the app reads it (@hono/node-server decodes with a default TextDecoder). */
const decoder = new TextDecoder();

/** A body's cached answer, its chain's reader and that chain's head when known without asking the node. */
export interface CachedAnswer {
  readonly cached: CachedQuote;
  readonly reader: ChainReader;
  /** Undefined when the reader must ask the node: the app's route awaits it, the server does not. */
  readonly headHash: string | undefined;
}

/** The cached answer for a body (served only while `headHash` is its block's): the app's route asks the same. */
export function cachedAnswerFor(
  cache: QuoteAnswerCache,
  registry: ChainRegistry,
  readerFor: (chain: ChainContext) => ChainReader,
  text: string,
): CachedAnswer | undefined {
  const cached = cache.lookup(text);
  const chain = cached && registry.byId(cached.chainId);
  if (!cached || !chain) return undefined;
  const reader = readerFor(chain);
  return { cached, reader, headHash: reader.currentNow?.()?.block.hash };
}

export function quoteHits(deps: QuoteHitDeps): QuoteHits {
  const { cache, registry, readerFor, now, cors, limiter, maxBodyBytes } = deps;
  let served = 0;

  const answer = (request: IncomingMessage, response: ServerResponse, dataHead: string) => {
    const text = quoteResponseText(dataHead, newQuoteId(), now());
    const headers = cors.jsonHeaders(request.headers.origin);
    response.writeHead(200, { ...headers, 'Content-Length': Buffer.byteLength(text) });
    response.end(text);
    served++;
  };

  const afterBody = (request: IncomingMessage, response: ServerResponse, toApp: ToApp, raw: Buffer) => {
    const hit = cachedAnswerFor(cache, registry, readerFor, decoder.decode(raw));
    const fresh = hit !== undefined && hit.headHash === hit.cached.blockHash;
    const refused =
      fresh && limiter?.take('POST', '/v1/quote', nodeHeader(request.headers), request.socket.remoteAddress);
    if (hit && fresh && !refused) {
      cache.hits += 1;
      answer(request, response, hit.cached.dataHead);
      return;
    }
    (request as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
    void toApp(request, response);
  };

  return {
    get served() {
      return served;
    },
    serve(request, response, toApp) {
      if (request.method !== 'POST' || request.url !== '/v1/quote') return false;
      const declared = request.headers['content-length'];
      if (declared === undefined || request.headers['transfer-encoding'] !== undefined) return false;
      const length = Number.parseInt(declared, 10);
      if (!(length <= maxBodyBytes)) return false;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A client gone before its body ends gets no answer from either side: nothing to do.
      request.once('end', () => {
        const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        try {
          afterBody(request, response, toApp, raw);
        } catch {
          // Not expected (a lookup and a write); the app answers it, its errors included.
          if (!response.headersSent) {
            (request as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
            void toApp(request, response);
          }
        }
      });
      return true;
    },
  };
}
