// Price impact: how much worse the quote's rate is than a small reference quote of the same pair
// (the small one barely moves the pools, so it stands for the market price). Basis points, bigint.

import { bigMax } from '@/lib/amounts/min-max';
import type { PreviewWarning } from './preview';

export const IMPACT_WARNING_BPS = 300; // 3%: shown as a warning
export const IMPACT_ACK_BPS = 1_000; // 10%: Confirm needs an explicit acknowledgement
export const PRICE_IMPACT_HIGH = 'PRICE_IMPACT_HIGH';

/** The reference quote's input: a thousandth of the trade, at least one unit. */
export function referenceInAmount(inAmount: bigint): bigint {
  return bigMax(inAmount / 1000n, 1n);
}

/**
 * 1 - (out / in) / (refOut / refIn), in basis points (rounded down to the user's benefit is not
 * wanted here: rounded up, so 9.995% shows as 10%). Null when the reference says nothing.
 */
export function priceImpactBps(
  inAmount: bigint,
  outAmount: bigint,
  refIn: bigint,
  refOut: bigint,
): number | null {
  if (inAmount <= 0n || refIn <= 0n || refOut <= 0n) return null;
  const market = inAmount * refOut; // what `inAmount` would buy at the reference rate, times refIn
  const got = outAmount * refIn;
  const lossScaled = (market - got) * 10_000n;
  const bps = lossScaled >= 0n ? (lossScaled + market - 1n) / market : lossScaled / market;
  return Number(bps);
}

export type ImpactLevel = 'ok' | 'warning' | 'danger';

export function impactLevel(bps: number | null): ImpactLevel {
  if (bps === null || bps < IMPACT_WARNING_BPS) return 'ok';
  return bps >= IMPACT_ACK_BPS ? 'danger' : 'warning';
}

/** "2.35%", "<0.01%" for nothing (or a better-than-market quote), "—" when unknown. */
export function formatImpact(bps: number | null): string {
  if (bps === null) return '—';
  if (bps <= 0) return '<0.01%';
  return `${(bps / 100).toFixed(2)}%`;
}

/** Whole percent the user loses, as said in the acknowledgement ("about 19%"). */
export function lossPercentWords(bps: number): string {
  return `${Math.round(bps / 100)}%`;
}

/** The review's warning for a high impact; at 10% or more it needs the user's acknowledgement. */
export function priceImpactWarning(bps: number | null): PreviewWarning | null {
  const level = impactLevel(bps);
  if (bps === null || level === 'ok') return null;
  const needsAcknowledgement = level === 'danger';
  return {
    code: PRICE_IMPACT_HIGH,
    level: needsAcknowledgement ? 'danger' : 'warning',
    message: needsAcknowledgement
      ? `I understand I lose about ${lossPercentWords(bps)} to price impact`
      : `Price impact is ${formatImpact(bps)}: this trade moves the price against you.`,
    needsAcknowledgement,
  };
}
