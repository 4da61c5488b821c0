// The network fee shown before the review, as the review computes it: the same capped fees per gas
// (lib/rpc/fees.ts cappedFees) and the same per-transaction figures (feeEstimate: expected = gas x
// (base fee + tip), max = gas + margin x max fee). Only the gas differs before a build exists: the
// gas the review last simulated for a route of the same shape, else an estimate from the route.
import { isNativeToken, type Quote } from '@/lib/api/schema';
import { type CappedFees, feeEstimate } from '@/lib/rpc/fees';
import { withGasMargin } from '@/lib/rpc/transactions';

// Fitted to the devnet router's simulated gasUsed (21k intrinsic included), in the review: ETH in,
// 1 pool 169k, 2 shares of 1 pool 266k, 5 shares over 6 pools 612k; a token in (no wrap), 1 pool
// 160k, 2 pools 250k.
const SWAP_BASE_GAS = 70_000n;
/** Wrapping the coin paid in. */
const WRAP_GAS = 10_000n;
const GAS_PER_POOL = 90_000n;
/** An ERC-20 approve that sets a zero allowance to non-zero. */
export const APPROVAL_GAS = 46_000n;
/** The review's gas limit margin over the simulated gas (lib/swap/preview-build.ts). */
export const GAS_MARGIN_PERCENT = 25;

/** The swap's gas from its route (`coinIn`: the coin paid in is wrapped first). */
export function swapGasEstimate(route: Quote['bestRoute'], coinIn = false): bigint {
  const pools = route.reduce((sum, share) => sum + share.swaps.length, 0);
  return SWAP_BASE_GAS + (coinIn ? WRAP_GAS : 0n) + GAS_PER_POOL * BigInt(Math.max(1, pools));
}

/** What decides a swap's gas, roughly: the chain, the router, coin in or out, each share's pools and dexes. */
export function routeShape(quote: Quote): string {
  const hops = quote.bestRoute.map((share) =>
    share.swaps.map((swap) => String((swap as { dex?: unknown }).dex ?? '?')).join('>'),
  );
  return [
    quote.chainId,
    quote.contractAddress.toLowerCase(),
    isNativeToken(quote.inToken) ? 'coin-in' : 'token-in',
    isNativeToken(quote.outToken) ? 'coin-out' : 'token-out',
    hops.join('|'),
  ].join(':');
}

/** The swap gas the review simulated last, per route shape (worker memory: a restart forgets it). */
export function createGasMemory(limit = 64) {
  const gas = new Map<string, bigint>();
  return {
    remember(quote: Quote, used: bigint): void {
      if (used <= 0n) return;
      const key = routeShape(quote);
      gas.delete(key);
      gas.set(key, used);
      if (gas.size > limit) gas.delete(gas.keys().next().value as string);
    },
    recall: (quote: Quote): bigint | undefined => gas.get(routeShape(quote)),
  };
}
export type GasMemory = ReturnType<typeof createGasMemory>;

/** The worker's one memory: the review writes it, the swap screen's fee reads it. */
export const swapGasMemory = createGasMemory();

export interface NetworkFee {
  gas: bigint;
  expected: bigint;
  max: bigint;
  approvalNeeded: boolean;
}

export function networkFee(
  quote: Pick<Quote, 'bestRoute' | 'inToken'>,
  approvalNeeded: boolean,
  fees: CappedFees,
  /** The swap's gas when known (simulated before); else estimated from the route. */
  swapGas: bigint = swapGasEstimate(quote.bestRoute, isNativeToken(quote.inToken)),
): NetworkFee {
  const figures = [swapGas, ...(approvalNeeded ? [APPROVAL_GAS] : [])].map((gas) =>
    feeEstimate(gas, withGasMargin(gas, GAS_MARGIN_PERCENT), fees),
  );
  return {
    gas: swapGas + (approvalNeeded ? APPROVAL_GAS : 0n),
    expected: figures.reduce((sum, fee) => sum + BigInt(fee.expected), 0n),
    max: figures.reduce((sum, fee) => sum + BigInt(fee.max), 0n),
    approvalNeeded,
  };
}
