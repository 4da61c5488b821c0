// The swap screen's parts: the list's notices, the form's two amount panels, the progress sheet.
// SwapScreen.tsx puts them together over the form's state (hooks/useSwapForm.ts).
import { AmountField } from '@/components/AmountField';
import { AmountPanel, FlipButton } from '@/components/AmountPanel';
import { type ApprovalMode, ReviewSheet } from '@/components/ReviewSheet';
import { SlippageControl } from '@/components/SlippageControl';
import { SwapProgress } from '@/components/SwapProgress';
import { TokenPicker, type TokenPickerProps } from '@/components/TokenPicker';
import { amountFontPx } from '@/lib/amounts/fit';
import type { Quote, Token } from '@/lib/api/schema';
import { callBackground } from '@/lib/messaging/client';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { SwapFigures } from './hooks/useSwapFigures';
import type { SwapForm } from './hooks/useSwapForm';
import type { useSwapRun } from './hooks/useSwapRun';
import { nativeOf, previewLeftApproval, revokeReviewed } from './swap-actions';

/**
 * The whole list could not be loaded (with Try again), or only not refreshed. Shown under the form,
 * never over it: a notice that comes after the first frame must not move the form down.
 */
export function ListNotices({
  error,
  refreshError,
  onRetry,
}: {
  error: string | null;
  refreshError: boolean;
  onRetry: () => void;
}) {
  return (
    <>
      {error && (
        <div class="error" role="alert" data-testid="list-error">
          <p>{error}</p>
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
      {refreshError && (
        <p class="warning" role="status">
          Token list could not be refreshed; showing the saved list.
        </p>
      )}
    </>
  );
}

export type SharedPickerProps = Omit<TokenPickerProps, 'label' | 'value' | 'onChange'>;

export interface SwapFieldsProps {
  form: SwapForm;
  picker: SharedPickerProps;
  balanceOf: (token: string | undefined) => bigint | undefined;
  /** Why the balances could not be read, or null. */
  balanceError?: string | null;
  /** What Max puts in the field, or null while the balance is unknown. */
  maxText: string | null;
  maxNote: string | undefined;
  /** Max keeps the network fee in this coin (the native coin is paid), or undefined. */
  feeSymbol: string | undefined;
  usdIn: string;
  usdOut: string;
  /** The quote's expected output for the form's pair, as shown, or null (no fitting quote). */
  outText: string | null;
  /** While the next quote loads: the last one's output, shown dimmed (never 0.0 meanwhile). */
  pendingOut?: string | null;
}

/** The form: "You pay" (amount, From), the flip, "You receive" (expected output, To). */
export function SwapFields({
  form,
  picker,
  balanceOf,
  balanceError = null,
  maxText,
  maxNote,
  feeSymbol,
  usdIn,
  usdOut,
  outText,
  pendingOut = null,
}: SwapFieldsProps) {
  const { from, to } = form;
  const shownOut = outText ?? pendingOut;
  return (
    <form
      class="swap"
      data-ready={form.ready ? 'true' : undefined}
      onSubmit={(event) => event.preventDefault()}
    >
      <AmountPanel
        label="You pay"
        token={from?.token}
        balance={balanceOf(from?.token.address)}
        balanceError={balanceError}
        onMax={maxText !== null ? () => form.setAmount(maxText) : undefined}
        maxTitle={feeSymbol ? `Keeps the estimated network fee in ${feeSymbol}` : undefined}
        usd={usdIn}
        usdTestId="usd-in"
        note={maxNote}
      >
        <AmountField value={form.amount} error={form.amountError} onInput={form.typeAmount} />
        <TokenPicker label="From" {...picker} value={from} onChange={form.pickFrom} />
      </AmountPanel>
      <FlipButton onFlip={form.flip} />
      <AmountPanel
        label="You receive"
        token={to?.token}
        balance={balanceOf(to?.token.address)}
        usd={usdOut}
        usdTestId="usd-out"
      >
        <output
          class={outText === null && pendingOut !== null ? 'amount-out pending' : 'amount-out'}
          data-testid={outText !== null ? 'quote-out' : pendingOut !== null ? 'quote-out-pending' : undefined}
          aria-label={
            outText === null && pendingOut !== null
              ? 'You receive (last quote, a new one is loading)'
              : 'You receive (expected)'
          }
          aria-busy={outText === null && pendingOut !== null ? 'true' : undefined}
          title={shownOut ?? undefined}
          style={{ fontSize: `${amountFontPx(shownOut ?? '')}px` }}
        >
          {shownOut ?? '0.0'}
        </output>
        <TokenPicker label="To" {...picker} value={to} onChange={form.pickTo} />
      </AmountPanel>
    </form>
  );
}

/** The swap under way, over the screen, until the user is done with it. */
export function ProgressSheet({
  swap,
  findToken,
  localChain,
  run,
  onConfirmedDone,
  onNewQuote,
}: {
  /** Asks the session for a new quote (the progress sheet's "Get a new quote"). */
  onNewQuote: () => void;
  swap: SwapState;
  findToken: (address: string) => Token | undefined;
  localChain: boolean;
  run: ReturnType<typeof useSwapRun>;
  /** The user closed a confirmed swap. */
  onConfirmedDone: () => void;
}) {
  const out = findToken(swap.request.outToken);
  return (
    <div class="sheet-scrim">
      <div class="sheet" role="dialog" aria-modal="true" aria-label="Swap progress">
        <SwapProgress
          swap={swap}
          outSymbol={out?.symbol ?? ''}
          outDecimals={out?.decimals ?? 18}
          localChain={localChain}
          onConsent={run.consent}
          onNewQuote={() => {
            callBackground({ type: 'dismissSwap' }).catch(() => undefined);
            run.dismiss(swap.id);
            onNewQuote();
          }}
          native={nativeOf(swap.chainId)}
          revoke={{ preview: () => previewLeftApproval(swap), confirm: revokeReviewed }}
          replace={{
            preview: (kind) => callBackground({ type: 'previewReplace', kind }),
            confirm: (kind, reviewId) =>
              callBackground({ type: 'replaceSwap', kind, reviewId }).then(() =>
                kind === 'cancel' ? 'Cancel sent.' : 'Sped up.',
              ),
          }}
          onDone={() => {
            callBackground({ type: 'dismissSwap' }).catch(() => undefined);
            run.dismiss(swap.id);
            // A swapped quote is spent: clear the amount so no old quote stays reviewable. After a
            // failure ("Back to the quote") the form stays as it was.
            if (swap.status === 'confirmed') onConfirmedDone();
          }}
        />
      </div>
    </div>
  );
}

/** Slippage, shown once: its value on the summary line, the control when opened. */
export function SlippageDetails({ value, onChange }: { value: number; onChange: (next: number) => void }) {
  return (
    <details class="slippage-details">
      <summary>Slippage tolerance {value}%</summary>
      <SlippageControl value={value} onChange={onChange} />
    </details>
  );
}

/** The swap button before a pair is chosen: disabled, saying what is missing. */
export function NoReviewButton({ label }: { label: string }) {
  return (
    <button type="button" class="primary wide review-button" disabled>
      {label}
    </button>
  );
}

/** "Review swap" (enabled once the quote fits and the balance allows it), and the review it opens. */
export function ReviewStep({
  canReview,
  label,
  reviewing,
  onReviewing,
  quote,
  receivedAt,
  quoteProblem,
  from,
  to,
  native,
  figures,
  priceOf,
  now,
  onRefresh,
  run,
}: {
  canReview: boolean;
  /** "Review swap", or why it cannot be reviewed yet ("Enter an amount", "Insufficient ETH balance"). */
  label: string;
  reviewing: boolean;
  onReviewing: (open: boolean) => void;
  quote: Quote | null;
  receivedAt: number | null;
  /** The quote session's error, in words, or null. */
  quoteProblem: string | null;
  from: Token;
  to: Token;
  native: { symbol: string; decimals: number };
  figures: SwapFigures['figures'];
  priceOf: SwapFigures['priceOf'];
  now: number;
  onRefresh: () => void;
  run: ReturnType<typeof useSwapRun>;
}) {
  return (
    <>
      <button
        type="button"
        class="primary wide review-button"
        disabled={!canReview}
        onClick={() => {
          run.clearError();
          onReviewing(true);
        }}
      >
        {label}
      </button>
      {reviewing && quote && (
        <ReviewSheet
          quote={quote}
          receivedAt={receivedAt}
          quoteProblem={quoteProblem}
          from={from}
          to={to}
          native={native}
          figures={figures}
          prices={{ in: priceOf(from.address), out: priceOf(to.address) }}
          now={now}
          loadPreview={(approvalMode: ApprovalMode) => callBackground({ type: 'previewSwap', approvalMode })}
          onRefresh={() => {
            run.clearError();
            onRefresh();
          }}
          onConfirm={run.start}
          onClose={() => onReviewing(false)}
          error={run.error}
        />
      )}
    </>
  );
}
