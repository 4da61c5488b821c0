// Network fees under Swaplane's control, not the RPC's. The RPC's suggestion is capped against the
// chain's recent fee history (eth_feeHistory), so an RPC answering a huge priority fee cannot burn
// the balance into fees. The rule (SECURITY.md, "Fees"):
//   priority cap = max(2 x the highest median priority fee of the last 20 blocks, 2 gwei)
//   maxFee cap   = 2 x the next block's base fee + the capped priority fee
// Then the per-chain ceiling (./fee-ceiling.ts), which no RPC answer can raise, bounds both.
// One module for every fee figure: the review's fee lines, the swap's signed fields, and Max.

import { bigMax, bigMin } from '@/lib/amounts/min-max';
import { applyCeiling, type FeeCeiling, feeCeilingFor } from '@/lib/rpc/fee-ceiling';
import type { RpcClient } from '@/lib/rpc/network';
import type { Fees } from '@/lib/rpc/transactions';

export const FEE_HISTORY_BLOCKS = 20;
export const PRIORITY_FLOOR = 2_000_000_000n; // 2 gwei: never cap below what a normal swap needs
/** The fee is a large share of the swap from this many percent (HIGH_FEE warning). */
export const HIGH_FEE_PERCENT = 10n;

/** One transaction's fee figures (decimal strings of wei): lib/swap/preview.ts FeeEstimateSchema. */
export interface FeeEstimate {
  gasLimit: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  expected: string;
  max: string;
  capped: boolean;
}

export interface FeeHistory {
  /** Base fee of each block and of the next one (last entry), wei. */
  baseFees: bigint[];
  /** Median priority fee paid in each block, wei. */
  medianRewards: bigint[];
}

export interface FeeCaps {
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  /** The next block's base fee, for the expected cost. */
  baseFee: bigint;
}

/** Caps from history alone (pure). */
export function feeCaps(history: FeeHistory): FeeCaps {
  const baseFee = history.baseFees.at(-1) ?? 0n;
  const highestMedian = history.medianRewards.reduce(bigMax, 0n);
  const doubled = highestMedian * 2n;
  const maxPriorityFeePerGas = bigMax(doubled, PRIORITY_FLOOR);
  return { maxPriorityFeePerGas, maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas, baseFee };
}

export interface CappedFees extends Fees {
  baseFee: bigint;
  /** The RPC suggested more than the caps allow, and the caps were applied. */
  capped: boolean;
}

/** The RPC's suggestion, each field no higher than its cap (pure). */
export function capFees(suggested: Fees, caps: FeeCaps): CappedFees {
  let capped = false;
  let priority = suggested.maxPriorityFeePerGas;
  if (priority > caps.maxPriorityFeePerGas) {
    priority = caps.maxPriorityFeePerGas;
    capped = true;
  }
  let maxFee = suggested.maxFeePerGas;
  if (maxFee > caps.maxFeePerGas) {
    maxFee = caps.maxFeePerGas;
    capped = true;
  }
  // maxFee must cover the priority fee it promises, and the next base fee.
  const floor = caps.baseFee + priority;
  if (maxFee < floor) maxFee = floor;
  return { maxFeePerGas: maxFee, maxPriorityFeePerGas: priority, baseFee: caps.baseFee, capped };
}

type FeeRpc = Pick<RpcClient, 'estimateFeesPerGas' | 'request'> & { chain?: { id: number } | undefined };

const HEX = /^0x[0-9a-fA-F]{1,64}$/;
function hexList(value: unknown): bigint[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && HEX.test(v)).map((v) => BigInt(v));
}

/** eth_feeHistory over the last blocks, parsed (a malformed answer reads as no history). */
export async function readFeeHistory(client: FeeRpc): Promise<FeeHistory> {
  // Parsed by hand, not trusted by type: a malformed answer reads as no history.
  const raw = (await client.request({
    method: 'eth_feeHistory',
    params: [`0x${FEE_HISTORY_BLOCKS.toString(16)}`, 'latest', [50]],
  })) as unknown as { baseFeePerGas?: unknown; reward?: unknown } | null;
  const rewards = Array.isArray(raw?.reward) ? raw.reward : [];
  return {
    baseFees: hexList(raw?.baseFeePerGas),
    medianRewards: rewards.flatMap((r) => hexList(r).slice(0, 1)),
  };
}

/**
 * What to sign with: the RPC's EIP-1559 suggestion, capped against the fee history, then against
 * the chain's ceiling (the user's from Settings, else the default of the client's chain).
 */
export async function cappedFees(client: FeeRpc, ceiling?: FeeCeiling): Promise<CappedFees> {
  const [suggested, history] = await Promise.all([client.estimateFeesPerGas(), readFeeHistory(client)]);
  if (suggested.maxFeePerGas === undefined || suggested.maxPriorityFeePerGas === undefined) {
    throw new Error('the RPC gave no EIP-1559 fees');
  }
  if (history.baseFees.length === 0) throw new Error('the RPC gave no fee history to check its fees against');
  const capped = capFees(
    { maxFeePerGas: suggested.maxFeePerGas, maxPriorityFeePerGas: suggested.maxPriorityFeePerGas },
    feeCaps(history),
  );
  return applyCeiling(capped, ceiling ?? feeCeilingFor(client.chain?.id ?? 0));
}

/** One transaction's fee figures for the review (pure). */
export function feeEstimate(gasEstimate: bigint, gasLimit: bigint, fees: CappedFees): FeeEstimate {
  const perGas = fees.baseFee + fees.maxPriorityFeePerGas;
  const expectedPerGas = bigMin(perGas, fees.maxFeePerGas);
  return {
    gasLimit: gasLimit.toString(),
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    expected: (gasEstimate * expectedPerGas).toString(),
    max: (gasLimit * fees.maxFeePerGas).toString(),
    capped: fees.capped,
  };
}

/**
 * Whether the fee is a large share of what is swapped. Native input: the most the fee can cost vs
 * the amount paid. Token input: only when the swap pays out the native coin, the fee vs the minimum
 * received; otherwise there is no price on the chain to compare with (null: not judged).
 */
export function feeShareHigh(input: {
  feeMax: bigint;
  nativeIn: bigint | null;
  nativeOutMin: bigint | null;
}): boolean | null {
  const value = input.nativeIn ?? input.nativeOutMin;
  if (value === null || value === 0n) return null;
  return input.feeMax * 100n >= value * HIGH_FEE_PERCENT;
}
