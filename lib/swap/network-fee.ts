// The network fee shown before the review: the swap's gas (from its route) and the approval's when
// one is needed, times the fee per gas the RPC suggests. The review then shows the fee of the
// transaction actually built and simulated (SwapPreview.fees).
import type { Quote } from '@/lib/api/schema';

// Measured on the devnet's router: a one-pool swap uses ~110k gas, each further pool ~70k.
const SWAP_BASE_GAS = 40_000n;
const GAS_PER_POOL = 70_000n;
/** An ERC-20 approve that sets a zero allowance to non-zero. */
export const APPROVAL_GAS = 46_000n;

export function swapGasEstimate(route: Quote['bestRoute']): bigint {
  const pools = route.reduce((sum, share) => sum + share.swaps.length, 0);
  return SWAP_BASE_GAS + GAS_PER_POOL * BigInt(Math.max(1, pools));
}

export interface FeePerGas {
  /** What a transaction is likely to pay per gas (base fee + tip). */
  expected: bigint;
  /** The most it may pay per gas (maxFeePerGas). */
  max: bigint;
}

export interface NetworkFee {
  gas: bigint;
  expected: bigint;
  max: bigint;
  approvalNeeded: boolean;
}

export function networkFee(
  route: Quote['bestRoute'],
  approvalNeeded: boolean,
  perGas: FeePerGas,
): NetworkFee {
  const gas = swapGasEstimate(route) + (approvalNeeded ? APPROVAL_GAS : 0n);
  return { gas, expected: gas * perGas.expected, max: gas * perGas.max, approvalNeeded };
}
