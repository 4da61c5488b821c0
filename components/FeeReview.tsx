// A short review before Swaplane signs a revoke, a speed up or a cancel: the network fee of the
// exact transaction (capped, as it will be signed), then Confirm or Cancel. Nothing is signed
// without this screen: the Confirm carries the review's ticket, usable once.
import { useState } from 'preact/hooks';
import { formatAmount } from '@/lib/amounts';
import type { FeeEstimate } from '@/lib/swap/preview';

export interface ReviewedFee {
  reviewId: string;
  fee: FeeEstimate;
}

export interface FeeReviewProps {
  /** The button that opens the review, e.g. "Revoke USDC", "Speed up". */
  label: string;
  /** What confirming does, e.g. "Confirm revoke". */
  confirmLabel: string;
  /** One line on what the transaction does. */
  what: string;
  native: { symbol: string; decimals: number };
  /** Whether the action is on offer (false: only what was said stays, e.g. after the allowance is gone). */
  offered?: boolean;
  /** Done once it succeeded (a revoke): the button does not come back. */
  once?: boolean;
  preview: () => Promise<ReviewedFee>;
  /** Signs the reviewed transaction; answers what happened, in words. */
  confirm: (reviewId: string) => Promise<string>;
  /** Words while confirming, e.g. "Revoking…". */
  busyLabel: string;
}

const errorWords = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));

export function FeeReview(props: FeeReviewProps) {
  const [reviewed, setReviewed] = useState<ReviewedFee | null>(null);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const { native } = props;
  const amount = (wei: string) => `${formatAmount(BigInt(wei), native.decimals)} ${native.symbol}`;

  const open = () => {
    setBusy(true);
    setSaid(null);
    setError(null);
    props
      .preview()
      .then(setReviewed, (failure: unknown) => setError(errorWords(failure)))
      .finally(() => setBusy(false));
  };
  const confirm = () => {
    if (!reviewed) return;
    const { reviewId } = reviewed;
    setReviewed(null); // one Confirm per review: the button is gone at once
    setBusy(true);
    props
      .confirm(reviewId)
      .then(
        (words) => {
          setSaid(words);
          setDone(true);
        },
        (failure: unknown) => setError(errorWords(failure)),
      )
      .finally(() => setBusy(false));
  };

  if (reviewed) {
    const { fee } = reviewed;
    return (
      <section class="fee-review" aria-label={`Review: ${props.label}`}>
        <p>{props.what}</p>
        <p data-testid="fee-review-fee">
          Network fee: about {amount(fee.expected)}, at most {amount(fee.max)}.
        </p>
        {fee.capped && (
          <p class="muted">
            The network suggested more; Swaplane lowered the fee to its cap. It may take longer to be
            included.
          </p>
        )}
        <div class="row">
          <button type="button" class="primary" onClick={confirm}>
            {props.confirmLabel}
          </button>{' '}
          <button type="button" onClick={() => setReviewed(null)}>
            Cancel
          </button>
        </div>
      </section>
    );
  }
  return (
    <>
      {props.offered !== false && !(props.once && done) && (
        <button type="button" disabled={busy} onClick={open}>
          {busy ? props.busyLabel : props.label}
        </button>
      )}
      {said && <span role="status">{said}</span>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
