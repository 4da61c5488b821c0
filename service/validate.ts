// Checks shared by /quote and /build: slippage policy, amounts, token whitelist.
import { ERROR_CODES } from '../lib/api/schema';
import type { ChainContext, TokenRecord } from './chains';
import { ApiError } from './errors';
import type { ServicePolicy } from './policy';
import { scaleSlippage } from './routing/slippage';
import { MAX_RESERVE } from './routing/v2';

/** The slippage as integer micro-percent, or null when policy refuses it. */
export function acceptedSlippage(slippage: number, policy: ServicePolicy): bigint | null {
  const scaled = scaleSlippage(slippage);
  if (scaled === null || slippage < policy.minSlippage || slippage > policy.maxSlippage) return null;
  return scaled;
}

export function slippageRangeText(policy: ServicePolicy): string {
  return `slippage must be between ${policy.minSlippage} and ${policy.maxSlippage} percent with at most 6 decimals`;
}

/** Why an input amount cannot be routed, or null when it can be. */
export function amountProblem(inAmount: bigint): string | null {
  if (inAmount <= 0n) return 'inAmount must be greater than 0';
  // Pair reserves are uint112: a larger input can never be swapped.
  if (inAmount > MAX_RESERVE) return 'inAmount is larger than any pool can take (2^112 - 1)';
  return null;
}

export function requireChainById(
  chains: { byId(chainId: number): ChainContext | undefined },
  chainId: number,
): ChainContext {
  const chain = chains.byId(chainId);
  if (!chain) throw new ApiError(400, ERROR_CODES.unsupportedChain, `chainId ${chainId} is not supported`);
  return chain;
}

export function whitelisted(chain: ChainContext, address: string): TokenRecord | undefined {
  return chain.tokensByAddress.get(address.toLowerCase());
}

/** The token the pools trade for this one: WETH for the native coin. */
export function routeToken(chain: ChainContext, token: TokenRecord): string {
  return (token.native ? chain.weth : token.address).toLowerCase();
}
