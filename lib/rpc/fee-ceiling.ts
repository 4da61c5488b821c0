// The per-chain fee ceiling: a bound on the fee fields of every transaction Swaplane signs that no
// RPC answer can raise. The history caps (./fees.ts) come from the RPC's own eth_feeHistory, so an
// RPC that inflates its history lifts its own cap; this ceiling is Swaplane's (or the user's, in
// Settings) and is applied last. Above it, nothing is signed: the user is told to raise it.

import { GWEI_TEXT, gweiToWei, weiToGweiText } from '@/lib/amounts/gwei';
import { bigMin } from '@/lib/amounts/min-max';
import type { Fees } from './transactions';

export { GWEI_TEXT, gweiToWei, weiToGweiText };

const GWEI = 1_000_000_000n;

export interface FeeCeiling {
  /** The most any transaction may pay per gas (base fee + priority fee), wei. */
  maxFeePerGas: bigint;
  /** The most any transaction may tip the block producer per gas, wei. */
  maxPriorityFeePerGas: bigint;
}

/**
 * Defaults in gwei: far above what each chain needs on a busy day, far below what an RPC that
 * answers "1,000 gwei priority" would burn. [max fee, priority fee].
 */
export const DEFAULT_FEE_CEILINGS_GWEI: Readonly<Record<number, readonly [number, number]>> = {
  1: [500, 50], // Ethereum: base fees above 500 gwei have lasted minutes in its history
  10: [50, 5], // OP Mainnet
  56: [100, 20], // BNB Chain
  137: [5_000, 1_000], // Polygon PoS: fees are in POL and spike to thousands of gwei
  250: [5_000, 1_000], // Fantom
  8453: [50, 5], // Base
  42161: [50, 5], // Arbitrum One
  43114: [1_000, 100], // Avalanche C-Chain
};
/** A chain Swaplane has no default for. */
export const FALLBACK_FEE_CEILING_GWEI: readonly [number, number] = [500, 50];

/**
 * The ceiling of `chainId`: the user's max fee (Settings, gwei) when set, else the default; the
 * priority ceiling is the default's, never above the max fee.
 */
export function feeCeilingFor(
  chainId: number,
  userMaxFeeGwei?: Readonly<Record<string, string>>,
): FeeCeiling {
  const [maxGwei, priorityGwei] = DEFAULT_FEE_CEILINGS_GWEI[chainId] ?? FALLBACK_FEE_CEILING_GWEI;
  const user = userMaxFeeGwei?.[String(chainId)];
  const maxFeePerGas = user !== undefined && GWEI_TEXT.test(user) ? gweiToWei(user) : BigInt(maxGwei) * GWEI;
  const priority = BigInt(priorityGwei) * GWEI;
  return { maxFeePerGas, maxPriorityFeePerGas: bigMin(priority, maxFeePerGas) };
}

export class FeeCeilingError extends Error {
  override name = 'FeeCeilingError';
  readonly code = 'FEE_ABOVE_CEILING';
  constructor(
    readonly baseFee: bigint,
    readonly ceiling: FeeCeiling,
  ) {
    super(
      `The network asks ${weiToGweiText(baseFee)} gwei per gas, above your ceiling of ${weiToGweiText(ceiling.maxFeePerGas)} gwei for this network. Nothing was signed. Wait for fees to fall, or raise the ceiling in Settings.`,
    );
  }
}

/**
 * Fees no higher than the ceiling (pure). `capped` says a field was lowered. A base fee above the
 * ceiling cannot be paid under it: refused (FeeCeilingError), never signed to sit unmined.
 */
export function applyCeiling<T extends Fees & { baseFee: bigint; capped: boolean }>(
  fees: T,
  ceiling: FeeCeiling,
): T {
  if (fees.baseFee > ceiling.maxFeePerGas) throw new FeeCeilingError(fees.baseFee, ceiling);
  let capped = fees.capped;
  let maxFeePerGas = fees.maxFeePerGas;
  if (maxFeePerGas > ceiling.maxFeePerGas) {
    maxFeePerGas = ceiling.maxFeePerGas;
    capped = true;
  }
  let maxPriorityFeePerGas = fees.maxPriorityFeePerGas;
  const priorityCeiling = bigMin(ceiling.maxPriorityFeePerGas, maxFeePerGas);
  if (maxPriorityFeePerGas > priorityCeiling) {
    maxPriorityFeePerGas = priorityCeiling;
    capped = true;
  }
  return { ...fees, maxFeePerGas, maxPriorityFeePerGas, capped };
}

/** Whether signed fee fields are within the ceiling (the funnel's last check, pure). */
export function withinCeiling(fees: Fees, ceiling: FeeCeiling): boolean {
  return (
    fees.maxFeePerGas <= ceiling.maxFeePerGas && fees.maxPriorityFeePerGas <= ceiling.maxPriorityFeePerGas
  );
}
