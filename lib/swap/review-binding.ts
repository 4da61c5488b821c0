// What startSwap may sign: only the quote of the open review (its digest), before the review
// expires, with the approval choice reviewed and every warning that needs it acknowledged. Pure.
import type { SwapPreview } from './preview';

export const REVIEW_LIFETIME_MS = 60_000;

export interface StartRequest {
  quoteDigest?: string;
  acknowledged?: readonly string[];
  approvalMode: 'exact' | 'unlimited';
}

export interface FrozenReview {
  preview: SwapPreview;
  approvalMode: 'exact' | 'unlimited';
}

export type StartRefusal = {
  code: 'REVIEW_REQUIRED' | 'QUOTE_CHANGED' | 'QUOTE_EXPIRED' | 'ACKNOWLEDGEMENT_REQUIRED';
  message: string;
};

export function checkStart(
  review: FrozenReview | null,
  start: StartRequest,
  now: number,
): StartRefusal | null {
  if (!start.quoteDigest) {
    return { code: 'REVIEW_REQUIRED', message: 'Review the swap before confirming it. Nothing was signed.' };
  }
  if (!review || review.preview.digest.toLowerCase() !== start.quoteDigest.toLowerCase()) {
    return {
      code: 'QUOTE_CHANGED',
      message: 'The quote changed since you reviewed it. Nothing was signed: review the new quote.',
    };
  }
  if (now >= review.preview.expiresAt) {
    return {
      code: 'QUOTE_EXPIRED',
      message: 'The reviewed quote expired. Nothing was signed: get a new quote.',
    };
  }
  if (review.approvalMode !== start.approvalMode) {
    return {
      code: 'REVIEW_REQUIRED',
      message: 'The approval choice changed since the review. Nothing was signed: review again.',
    };
  }
  const acknowledged = new Set(start.acknowledged ?? []);
  const missing = review.preview.warnings.filter((w) => w.needsAcknowledgement && !acknowledged.has(w.code));
  if (missing.length > 0) {
    return {
      code: 'ACKNOWLEDGEMENT_REQUIRED',
      message: `Confirm you read: ${missing.map((w) => w.message).join(' ')} Nothing was signed.`,
    };
  }
  return null;
}
