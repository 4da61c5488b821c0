// The review's foot, always in view: Cancel, then Confirm swap or, when the quote expired or the
// swap could not be prepared or started, the reason and "Get a new quote". A disabled button says why.

/** What stops Confirm, in words; the sheet shows it beside the button. */
export interface ReviewBlock {
  /** The quote cannot be used any more (expired, failed to prepare, refused at Confirm). */
  problem: string | null;
  /** The preview itself failed (its words come from the background's checks). */
  previewFailed?: boolean;
  /** Confirm waits for something the user can see or do (a check running, a tick). */
  waitingFor: string | null;
  /** What Confirm waits for is a tick in the review's body (the foot offers to go to it). */
  tick?: boolean;
}

export function ReviewActions(props: {
  block: ReviewBlock;
  awaiting: boolean;
  onCancel: () => void;
  onNewQuote: () => void;
  onConfirm: () => void;
  /** Brings the first tick still needed into view and focuses it. */
  onGoToTick: () => void;
}) {
  const { block, awaiting } = props;
  const newQuote = block.problem !== null || awaiting;
  return (
    <div class="sheet-foot">
      {block.problem !== null && !awaiting && (
        <p class="error" role="alert" data-testid={block.previewFailed ? 'preview-error' : 'review-problem'}>
          {block.problem}
        </p>
      )}
      {awaiting && (
        <p class="muted" role="status" id="review-why">
          Asking the swap service for a new quote…
        </p>
      )}
      {!newQuote && block.waitingFor !== null && (
        <div class="review-why">
          <p class="muted" id="review-why" data-testid="review-why">
            {block.waitingFor}
          </p>
          {/* The body scrolls: on a short window the tick can sit below its fold. */}
          {block.tick && (
            <button type="button" class="link" onClick={props.onGoToTick}>
              Go to the tick
            </button>
          )}
        </div>
      )}
      <div class="sheet-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        {newQuote ? (
          <button
            type="button"
            class="primary"
            disabled={awaiting}
            aria-describedby={awaiting ? 'review-why' : undefined}
            onClick={props.onNewQuote}
          >
            {awaiting ? 'Getting a new quote…' : 'Get a new quote'}
          </button>
        ) : (
          <button
            type="button"
            class="primary"
            disabled={block.waitingFor !== null}
            aria-describedby={block.waitingFor !== null ? 'review-why' : undefined}
            onClick={props.onConfirm}
          >
            Confirm swap
          </button>
        )}
      </div>
    </div>
  );
}
