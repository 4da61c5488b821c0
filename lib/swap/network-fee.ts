// The network fee shown before the review, as the review computes it: the same capped fees per gas
// (lib/rpc/fees.ts cappedFees) and the same per-transaction figures (feeEstimate: expected = gas x
// (base fee + tip), max = gas + margin x max fee). The gas is the review's own simulation run early
// (./fee-probe.ts); when that cannot run, the gas last simulated for a route of the same shape, else
// an estimate from the route, and the screen says "about".
import { isNativeToken, type Quote } from '@/lib/api/schema';
import { type CappedFees, feeEstimate } from '@/lib/rpc/fees';
import { withGasMargin } from '@/lib/rpc/transactions';
import type { StorageItem } from '@/lib/storage/item';
import { swapGasMemoryItem } from '@/lib/storage/items';

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

/**
 * The swap gas simulated last (by the review or the swap screen's probe), per route shape, in
 * storage.session (lib/storage/items.ts, parsed back): a worker restart keeps it, a browser restart
 * empties it. Loaded once per worker; every change is written through.
 */
export function createGasMemory(store: StorageItem<Record<string, string>> = swapGasMemoryItem, limit = 64) {
  let loaded: Promise<Map<string, bigint>> | null = null;
  const load = () => {
    loaded ??= store.get().then(
      (stored) => new Map(Object.entries(stored).map(([shape, gas]) => [shape, BigInt(gas)])),
      () => new Map<string, bigint>(),
    );
    return loaded;
  };
  return {
    async remember(quote: Quote, used: bigint): Promise<void> {
      if (used <= 0n) return;
      const gas = await load();
      const key = routeShape(quote);
      gas.delete(key);
      gas.set(key, used);
      while (gas.size > limit) gas.delete(gas.keys().next().value as string);
      const stored = Object.fromEntries([...gas].map(([shape, value]) => [shape, value.toString()]));
      await store.set(stored).catch(() => undefined);
    },
    recall: async (quote: Quote): Promise<bigint | undefined> => (await load()).get(routeShape(quote)),
  };
}
export type GasMemory = ReturnType<typeof createGasMemory>;

/** The worker's one memory: the review and the probe write it, the swap screen's fallback reads it. */
export const swapGasMemory = createGasMemory();

export interface NetworkFee {
  gas: bigint;
  expected: bigint;
  max: bigint;
  approvalNeeded: boolean;
}

/** The gas of the swap and its approvals (simulated, or estimated: one APPROVAL_GAS per approval). */
export interface FeeGas {
  swap: bigint;
  approvals: readonly bigint[];
}

/** The route's estimate: what the screen says "about" when nothing was simulated. */
export function estimatedGas(
  quote: Pick<Quote, 'bestRoute' | 'inToken'>,
  approvalNeeded: boolean,
  remembered?: bigint,
): FeeGas {
  return {
    swap: remembered ?? swapGasEstimate(quote.bestRoute, isNativeToken(quote.inToken)),
    approvals: approvalNeeded ? [APPROVAL_GAS] : [],
  };
}

/** The review's figures for this gas: each transaction's feeEstimate at the review's margin, summed. */
export function networkFee(gas: FeeGas, fees: CappedFees): NetworkFee {
  const figures = [gas.swap, ...gas.approvals].map((used) =>
    feeEstimate(used, withGasMargin(used, GAS_MARGIN_PERCENT), fees),
  );
  return {
    gas: gas.approvals.reduce((sum, used) => sum + used, gas.swap),
    expected: figures.reduce((sum, fee) => sum + BigInt(fee.expected), 0n),
    max: figures.reduce((sum, fee) => sum + BigInt(fee.max), 0n),
    approvalNeeded: gas.approvals.length > 0,
  };
}
