// POST /v1/quote: price a request at the chain head with the best split route, exact to the wei.
import { ERROR_CODES, type QuoteRequest, type ReferenceSwap } from '../lib/api/schema';
import type { ChainReader } from './chain-reader';
import type { ChainContext } from './chains';
import { ApiError } from './errors';
import type { ServicePolicy } from './policy';
import { findBestRoute } from './routing/route';
import type { Simulation } from './routing/simulate';
import { minReceivedFor } from './routing/slippage';
import { acceptedSlippage, amountProblem, routeToken, slippageRangeText, whitelisted } from './validate';

export interface QuoteData {
  chainId: number;
  inToken: string;
  inDecimals: number;
  inAmount: string;
  outToken: string;
  outDecimals: number;
  outAmount: string;
  slippage: number;
  minReceived: string;
  bestRoute: { percent: number; swaps: ReferenceSwap[] }[];
  contractAddress: string;
  contractMethod: 'swap';
  blockNumber: number;
  /** Not in the contract: the request's referral code, carried to /build (0 when absent). */
  refCode: number;
}

export async function quote(
  chain: ChainContext,
  reader: ChainReader,
  policy: ServicePolicy,
  request: QuoteRequest,
): Promise<QuoteData> {
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
  const tokenIn = routeToken(chain, inToken);
  const tokenOut = routeToken(chain, outToken);
  if (tokenIn === tokenOut) {
    throw new ApiError(
      404,
      ERROR_CODES.noRoute,
      `wrapping or unwrapping ${chain.nativeSymbol} is not a swap; use WETH directly`,
    );
  }

  const headLookup = reader.head();
  // Route on the last snapshot while the head lookup is on the wire; most quotes land on the same
  // block, and then that work is the answer. Otherwise route again on the head's reserves.
  const guess = reader.latest?.();
  const early = guess ? findBestRoute(chain.graph, guess, tokenIn, tokenOut, inAmount) : undefined;
  const head = await headLookup;
  const snapshot = await reader.reserves(head);
  const route =
    early && snapshot === guess ? early : findBestRoute(chain.graph, snapshot, tokenIn, tokenOut, inAmount);
  if (!route.ok) throw new ApiError(404, ERROR_CODES.noRoute, `no route for this swap: ${route.reason}`);

  return {
    chainId: chain.chainId,
    inToken: inToken.address,
    inDecimals: inToken.decimals,
    inAmount: inAmount.toString(),
    outToken: outToken.address,
    outDecimals: outToken.decimals,
    outAmount: route.outAmount.toString(),
    slippage: request.slippage,
    minReceived: minReceivedFor(route.outAmount, slippage).toString(),
    bestRoute: routeJson(chain, route),
    contractAddress: chain.executor,
    contractMethod: 'swap',
    blockNumber: Number(head.number),
    refCode: request.refCode ?? 0,
  };
}

export function routeJson(chain: ChainContext, route: Simulation): QuoteData['bestRoute'] {
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
      };
    }),
  }));
}
