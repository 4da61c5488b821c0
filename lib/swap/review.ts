// The review sheet's rules, pure: which warnings it shows, which need the user's tick before
// Confirm, and what changed between the quote reviewed before and the new one.
import type { Quote } from '@/lib/api/schema';
import type { PreviewWarning } from './preview';
import { PRICE_IMPACT_HIGH, priceImpactWarning } from './price-impact';

/**
 * How long after it arrived a quote may be reviewed and confirmed: the one figure the session's
 * staleness (lib/swap/session.ts), the review's expiry (reviewExpiry) and the review's countdown
 * before its preview all use. The service's contract gives no quote lifetime (an outdated quote is
 * only a 400 from /v1/build), so this is Swaplane's own bound on how old a price it signs; the
 * service's word comes from the review's own build, which it must accept before the review shows a
 * countdown at all (a 400 there is "The price moved" and a new quote), and Confirm signs that
 * accepted build, asking the service nothing more.
 */
export const QUOTE_LIFETIME_MS = 30_000;

export const UNREADABLE_CALLDATA = 'UNREADABLE_CALLDATA';

/** The review warnings whose tick is the user's trust in the router (lib/swap/preview-words.ts). */
export const ROUTER_TRUST_CODES: readonly string[] = ['ROUTER_UNPINNED', 'ROUTER_CHANGED'];

/**
 * The preview's warnings plus the popup's own: price impact, and calldata nobody could read (each
 * once; the background's own wins).
 */
export function reviewWarnings(
  previewWarnings: readonly PreviewWarning[],
  impactBps: number | null,
  calldataReadable = true,
): PreviewWarning[] {
  const warnings = [...previewWarnings];
  const has = (code: string) => warnings.some((warning) => warning.code === code);
  const impact = priceImpactWarning(impactBps);
  if (impact && !has(PRICE_IMPACT_HIGH)) warnings.push(impact);
  if (!calldataReadable && !has(UNREADABLE_CALLDATA)) {
    warnings.push({
      code: UNREADABLE_CALLDATA,
      level: 'danger',
      message: 'Swaplane could not read what this transaction does.',
      needsAcknowledgement: true,
    });
  }
  return warnings;
}

/** The label of a warning's acknowledgement checkbox, as the user reads it. */
export function acknowledgementLabel(warning: PreviewWarning): string {
  return /^I understand/i.test(warning.message) ? warning.message : `I understand: ${warning.message}`;
}

export function requiredAcknowledgements(warnings: readonly PreviewWarning[]): string[] {
  return warnings.filter((warning) => warning.needsAcknowledgement).map((warning) => warning.code);
}

export function allAcknowledged(warnings: readonly PreviewWarning[], ticked: ReadonlySet<string>): boolean {
  return requiredAcknowledgements(warnings).every((code) => ticked.has(code));
}

export type ChangedFigure = 'outAmount' | 'minReceived' | 'inAmount';

/** What differs between the quote reviewed before and the new one (highlighted in the sheet). */
export function quoteChanges(before: Quote | null, after: Quote): Set<ChangedFigure> {
  const changed = new Set<ChangedFigure>();
  if (!before) return changed;
  for (const key of ['inAmount', 'outAmount', 'minReceived'] as const) {
    if (before[key] !== after[key]) changed.add(key);
  }
  return changed;
}

export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/**
 * The review's expiry as shown: the earliest any preview of the same quote gave (or, while a
 * re-check loads, the quote's own lifetime), so the countdown only goes down (a re-check after an
 * approval choice never adds time the quote does not have).
 */
export function shownExpiry(seen: number | null, latest: number): number {
  return seen === null ? latest : Math.min(seen, latest);
}
