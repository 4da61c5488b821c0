// POST /v1/build: re-validate a quote against the manifest and the chain, then encode the router
// call. Nothing in the quote is trusted: the route must be made of real pools, and its amounts
// must be what those pools gave at the quote's block.
import { type Abi, encodeFunctionData, parseAbi, zeroAddress } from 'viem';
import { ERROR_CODES, isNativeToken, type Quote, ReferenceSwapSchema } from '../lib/api/schema';
import type { BlockRef, ChainReader } from './chain-reader';
import type { ChainContext } from './chains';
import routerArtifact from './contracts/artifacts/SwapRouter.json' with { type: 'json' };
import { ApiError } from './errors';
import type { ServicePolicy } from './policy';
import type { Hop } from './routing/graph';
import { type RouteShareInput, simulateRoute } from './routing/simulate';
import { minReceivedFor } from './routing/slippage';
import { acceptedSlippage, amountProblem, routeToken, slippageRangeText, whitelisted } from './validate';
import { isWrap, wrapRouteProblem } from './wrap';

/** The agreed router signature; the compiled artifact's ABI is what actually encodes. */
export const ROUTER_SWAP_ABI = parseAbi([
  'struct Hop { address pool; address tokenIn; address tokenOut; }',
  'struct Share { uint16 percent; Hop[] hops; }',
  'function swap(address inToken, address outToken, uint256 inAmount, uint256 minReceived, Share[] route, address recipient, uint256 refCode) payable returns (uint256 received)',
]);
export const ROUTER_ABI = routerArtifact.abi as Abi;

export interface BuildData {
  to: string;
  transaction: `0x${string}`;
  value: string;
}

function invalid(message: string): ApiError {
  return new ApiError(400, ERROR_CODES.invalidQuote, message);
}

export async function build(
  chain: ChainContext,
  reader: ChainReader,
  policy: ServicePolicy,
  quote: Quote,
): Promise<BuildData> {
  const inToken = whitelisted(chain, quote.inToken);
  const outToken = whitelisted(chain, quote.outToken);
  if (!inToken) throw invalid(`inToken ${quote.inToken} is not a whitelisted token on ${chain.name}`);
  if (!outToken) throw invalid(`outToken ${quote.outToken} is not a whitelisted token on ${chain.name}`);
  if (inToken === outToken) throw invalid('inToken and outToken are the same token');
  if (quote.inDecimals !== inToken.decimals) throw invalid(`inDecimals must be ${inToken.decimals}`);
  if (quote.outDecimals !== outToken.decimals) throw invalid(`outDecimals must be ${outToken.decimals}`);
  if (quote.contractAddress.toLowerCase() !== chain.executor.toLowerCase()) {
    throw invalid(`contractAddress must be the ${chain.name} executor ${chain.executor}`);
  }
  if (quote.contractMethod !== 'swap') throw invalid('contractMethod must be "swap"');
  const slippage = acceptedSlippage(quote.slippage, policy);
  if (slippage === null) throw invalid(slippageRangeText(policy));
  const inAmount = BigInt(quote.inAmount);
  const problem = amountProblem(inAmount);
  if (problem) throw invalid(problem);
  const refCode = quote.refCode ?? 0;
  if (typeof refCode !== 'number' || !Number.isSafeInteger(refCode) || refCode < 0) {
    throw invalid('refCode must be a non-negative integer');
  }
  const outAmount = BigInt(quote.outAmount);
  if (BigInt(quote.minReceived) !== minReceivedFor(outAmount, slippage)) {
    throw invalid('minReceived must be floor(outAmount * (100 - slippage) / 100)');
  }

  const wrap = isWrap(chain, inToken, outToken);
  if (wrap) {
    const problem = wrapRouteProblem(chain, inToken, outToken, inAmount, quote.bestRoute, outAmount);
    if (problem) throw invalid(problem);
  }
  const shares = wrap
    ? []
    : parseRoute(chain, policy, quote.bestRoute, routeToken(chain, inToken), routeToken(chain, outToken));

  // Age first: an outdated quote is reported as such, whatever its amounts say.
  const head = await reader.head();
  const quoted = BigInt(quote.blockNumber);
  if (quoted > head.number) throw invalid(`blockNumber ${quoted} is ahead of the chain head ${head.number}`);
  const maxAge = policy.outdatedAfterBlocks[chain.name] ?? policy.defaultOutdatedAfterBlocks;
  if (head.number - quoted > BigInt(maxAge)) {
    throw new ApiError(
      400,
      ERROR_CODES.quoteOutdated,
      `the quote is outdated: block ${quoted} is ${head.number - quoted} blocks behind the head (limit ${maxAge}); request a new quote`,
    );
  }
  if (!wrap) await checkAmounts(reader, head, quoted, shares, inAmount, outAmount);

  const route = wrap
    ? [{ percent: 100, hops: [{ pool: chain.weth, tokenIn: inToken.address, tokenOut: outToken.address }] }]
    : shares.map((share) => ({
        percent: share.input.percent,
        hops: share.swaps.map((swap) => ({
          pool: swap.pool,
          tokenIn: swap.tokenIn,
          tokenOut: swap.tokenOut,
        })),
      }));
  const transaction = encodeFunctionData({
    abi: ROUTER_ABI,
    functionName: 'swap',
    args: [
      inToken.address,
      outToken.address,
      inAmount,
      BigInt(quote.minReceived),
      route,
      zeroAddress, // the router pays msg.sender
      BigInt(refCode),
    ],
  });
  return {
    to: chain.router,
    transaction,
    value: isNativeToken(inToken.address) ? inAmount.toString() : '0',
  };
}

/** The route replayed on the pools at the quote's block must give every amount the quote claims. */
async function checkAmounts(
  reader: ChainReader,
  head: BlockRef,
  quoted: bigint,
  shares: ParsedShare[],
  inAmount: bigint,
  outAmount: bigint,
): Promise<void> {
  const block = quoted === head.number ? head : await reader.block(quoted);
  if (!block) throw invalid(`block ${quoted} is not known to the chain`);
  const snapshot = await reader.reserves(block);
  const replay = simulateRoute(
    shares.map((share) => share.input),
    inAmount,
    snapshot,
  );
  if (!replay.ok) throw invalid(`the route cannot execute at block ${quoted}: ${replay.reason}`);
  replay.shares.forEach((share, s) => {
    share.hops.forEach((hop, h) => {
      const claimed = shares[s]?.swaps[h];
      if (claimed?.amountIn !== hop.amountIn.toString() || claimed.amountOut !== hop.amountOut.toString()) {
        throw invalid(`bestRoute[${s}].swaps[${h}] amounts do not match the pool at block ${quoted}`);
      }
    });
  });
  if (replay.outAmount !== outAmount) {
    throw invalid(
      `outAmount does not match the route at block ${quoted} (the route gives ${replay.outAmount})`,
    );
  }
}

interface ParsedShare {
  input: RouteShareInput;
  swaps: { pool: string; tokenIn: string; tokenOut: string; amountIn: string; amountOut: string }[];
}

/** Every share: integer percent, swaps in the reference shape, a hop chain of real pools in -> out. */
function parseRoute(
  chain: ChainContext,
  policy: ServicePolicy,
  bestRoute: Quote['bestRoute'],
  tokenIn: string,
  tokenOut: string,
): ParsedShare[] {
  let total = 0;
  const shares = bestRoute.map((share, s): ParsedShare => {
    if (!Number.isInteger(share.percent)) throw invalid(`bestRoute[${s}].percent must be an integer`);
    total += share.percent;
    if (share.swaps.length > policy.maxHops)
      throw invalid(`bestRoute[${s}] has more than ${policy.maxHops} swaps`);
    let expectIn = tokenIn;
    const hops: Hop[] = [];
    const swaps = share.swaps.map((entry, h) => {
      const where = `bestRoute[${s}].swaps[${h}]`;
      const parsed = ReferenceSwapSchema.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw invalid(`${where}.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid swap entry'}`);
      }
      const swap = parsed.data;
      const pool = chain.graph.pool(swap.pool);
      if (!pool || pool.dex !== swap.dex)
        throw invalid(`${where} is not a known ${swap.dex} pool on ${chain.name}`);
      const from = swap.tokenIn.toLowerCase();
      const to = swap.tokenOut.toLowerCase();
      const zeroForOne = from === pool.token0 && to === pool.token1;
      if (!zeroForOne && !(from === pool.token1 && to === pool.token0)) {
        throw invalid(`${where} tokens are not the pool's tokens`);
      }
      if (from !== expectIn) throw invalid(`${where} does not continue the route from ${expectIn}`);
      expectIn = to;
      hops.push({ pool: pool.index, zeroForOne });
      return swap;
    });
    if (expectIn !== tokenOut) throw invalid(`bestRoute[${s}] does not end in the output token`);
    return { input: { percent: share.percent, path: hops }, swaps };
  });
  if (total !== 100) throw invalid('bestRoute percents must sum to exactly 100');
  return shares;
}
