// POST /v1/quote: price a request at the chain head with the best split route, exact to the wei;
// native <-> WETH is a wrap route (out = in). The checks that need no chain state come first (no RPC
// for a bad request); service/quote-route.ts runs the pricing in a search turn.
import { ERROR_CODES, type QuoteRequest } from '../lib/api/schema';
import type { BlockRef, ChainReader, ChainState } from './chain-reader';
import type { ChainContext, TokenRecord } from './chains';
import { ApiError } from './errors';
import type { ServicePolicy } from './policy';
import type { BestRouteJson, QuoteData } from './quote-data';
import { findBestRoute } from './routing/route';
import { RouteSearchTimeout, searchClock } from './routing/search-clock';
import type { Simulation } from './routing/simulate';
import { minReceivedFor } from './routing/slippage';
import { acceptedSlippage, amountProblem, routeToken, slippageRangeText, whitelisted } from './validate';
import { isWrap, wrapRoute } from './wrap';

export type { QuoteData } from './quote-data';

/** A priced quote and the block it was priced at (its hash keys the answer cache). */
export interface PricedQuote {
  data: QuoteData;
  block: BlockRef;
}

/** A request that passed every check that needs no chain state: what remains is to price it. */
export interface CheckedQuote {
  readonly request: QuoteRequest;
  readonly slippage: bigint;
  readonly inAmount: bigint;
  readonly inToken: TokenRecord;
  readonly outToken: TokenRecord;
}

/** The request's slippage, amount and tokens (406 / 400 / 404 as the contract says), before any RPC. */
export function checkQuote(chain: ChainContext, policy: ServicePolicy, request: QuoteRequest): CheckedQuote {
  const slippage = acceptedSlippage(request.slippage, policy);
  if (slippage === null) throw new ApiError(406, ERROR_CODES.slippageOutOfRange, slippageRangeText(policy));
  const inAmount = BigInt(request.inAmount);
  const problem = amountProblem(inAmount);
  if (problem) throw new ApiError(400, ERROR_CODES.badRequest, problem);

  const inToken = whitelisted(chain, request.inToken);
  const outToken = whitelisted(chain, request.outToken);
  if (!inToken || !outToken) {
    const missing = !inToken ? request.inToken : request.outToken;
    throw new ApiError(
      404,
      ERROR_CODES.unsupportedTokens,
      `${missing} is not a whitelisted token on ${chain.name}`,
    );
  }
  if (inToken === outToken) {
    throw new ApiError(404, ERROR_CODES.unsupportedTokens, 'inToken and outToken are the same token');
  }
  return { request, slippage, inAmount, inToken, outToken };
}

/** Prices a checked request at one block's state: the route search (bounded) or a wrap. */
export function priceAt(
  chain: ChainContext,
  policy: ServicePolicy,
  { request, slippage, inAmount, inToken, outToken }: CheckedQuote,
  { block, snapshot }: ChainState,
): PricedQuote {
  if (isWrap(chain, inToken, outToken)) {
    const data = {
      ...quoteFields(chain, request, inToken, outToken, slippage, inAmount, inAmount, block.number),
      bestRoute: wrapRoute(chain, inToken, outToken, inAmount),
    };
    return { data, block };
  }
  const tokenIn = routeToken(chain, inToken);
  const tokenOut = routeToken(chain, outToken);
  const route = searchRoute(() =>
    findBestRoute(chain.graph, snapshot, tokenIn, tokenOut, inAmount, searchClock(policy.routeSearchMs)),
  );
  if (!route.ok) throw new ApiError(404, ERROR_CODES.noRoute, `no route for this swap: ${route.reason}`);
  const data = {
    ...quoteFields(chain, request, inToken, outToken, slippage, inAmount, route.outAmount, block.number),
    bestRoute: routeJson(chain, route),
  };
  return { data, block };
}

/** Runs a route search, turning its time bound into the client's answer (422, ask again later). */
function searchRoute<T>(search: () => T): T {
  try {
    return search();
  } catch (error) {
    if (!(error instanceof RouteSearchTimeout)) throw error;
    throw new ApiError(
      422,
      ERROR_CODES.routeSearchTooLong,
      `the route search for this pair ran past the service's ${error.budgetMs} ms limit; try again shortly or a simpler pair`,
    );
  }
}

function quoteFields(
  chain: ChainContext,
  request: QuoteRequest,
  inToken: TokenRecord,
  outToken: TokenRecord,
  slippage: bigint,
  inAmount: bigint,
  outAmount: bigint,
  block: bigint,
): Omit<QuoteData, 'bestRoute'> {
  return {
    chainId: chain.chainId,
    inToken: inToken.address,
    inDecimals: inToken.decimals,
    inAmount: inAmount.toString(),
    outToken: outToken.address,
    outDecimals: outToken.decimals,
    outAmount: outAmount.toString(),
    slippage: request.slippage,
    minReceived: minReceivedFor(outAmount, slippage).toString(),
    contractAddress: chain.executor,
    contractMethod: 'swap',
    blockNumber: Number(block),
    refCode: request.refCode ?? 0,
  };
}

/**
 * The head and its state when `currentNow()` could not answer (the caller asked it already):
 * the reader's current(), else a head lookup and the reserves at that head.
 */
export async function awaitStateAtHead(reader: ChainReader): Promise<ChainState> {
  if (reader.current) return reader.current();
  const block = await reader.head();
  return { block, snapshot: await reader.reserves(block) };
}

export function routeJson(chain: ChainContext, route: Simulation): BestRouteJson {
  return route.shares.map((share) => ({
    percent: share.percent,
    swaps: share.hops.map((hop) => {
      const pool = chain.graph.pools[hop.pool];
      if (!pool) throw new Error(`pool ${hop.pool} out of range`);
      return {
        dex: pool.dex,
        pool: chain.poolAddresses[hop.pool] ?? pool.address,
        tokenIn: chain.checksum(hop.zeroForOne ? pool.token0 : pool.token1),
        tokenOut: chain.checksum(hop.zeroForOne ? pool.token1 : pool.token0),
        amountIn: hop.amountIn.toString(),
        amountOut: hop.amountOut.toString(),
        ...(pool.fee === undefined ? {} : { fee: pool.fee }),
      };
    }),
  }));
}
