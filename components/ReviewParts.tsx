// The review sheet's sections (./ReviewSheet.tsx): the approval choice, the network fee, the
// simulated balance changes and the warnings with their ticks.
import { formatAmount } from '@/lib/amounts';
import type { PreviewWarning, SwapPreview } from '@/lib/swap/preview';
import { acknowledgementLabel } from '@/lib/swap/review';
import { feeText, type QuoteFigures } from './QuoteCard';

export type ApprovalMode = 'exact' | 'unlimited';

/** Exact amount (the default) or unlimited, when the token paid needs an approval. */
export function ApprovalChoice(props: {
  symbol: string;
  mode: ApprovalMode;
  onChange: (mode: ApprovalMode) => void;
  /** What the review's transaction will ask, in words; null when no approval is needed (or not known yet). */
  planned: string | null;
}) {
  return (
    <fieldset class="choice">
      <legend class="field-label">{props.planned ?? `If ${props.symbol} needs an approval`}</legend>
      {(['exact', 'unlimited'] as const).map((mode) => (
        <label key={mode}>
          <input
            type="radio"
            name="approval"
            checked={props.mode === mode}
            onChange={() => props.onChange(mode)}
          />{' '}
          {mode === 'exact' ? 'Exact amount' : 'Unlimited'}
        </label>
      ))}
    </fieldset>
  );
}

export function NetworkFee(props: {
  preview: SwapPreview | null;
  figures: QuoteFigures | undefined;
  native: { symbol: string; decimals: number };
}) {
  const { preview, figures, native } = props;
  const price = figures?.nativePrice ?? null;
  const expected = preview ? BigInt(preview.fees.totalExpected) : figures?.fee?.expected;
  const max = preview ? BigInt(preview.fees.totalMax) : figures?.fee?.max;
  return (
    <details class="fee-details">
      <summary>
        Network fee <span data-testid="review-fee">{feeText(expected, native, price)}</span>
      </summary>
      <p class="muted">
        Up to {feeText(max, native, price)}: the most it can cost.{' '}
        {preview ? 'From the transaction as built and simulated.' : 'Estimated from the route.'}
        {(preview ? preview.approval !== null : figures?.fee?.approvalNeeded) && ' Includes the approval.'}
      </p>
    </details>
  );
}

/** The approval the swap will ask for, in the token's units and the future tense. */
export function approvalWords(
  approval: NonNullable<SwapPreview['approval']>,
  token: { symbol: string; decimals: number },
): string {
  const what = approval.unlimited
    ? `unlimited ${token.symbol}`
    : `exactly ${formatAmount(BigInt(approval.amount), token.decimals)} ${token.symbol}`;
  return `Swaplane will ask you to approve ${what} for the router${approval.resetFirst ? ' (after setting its allowance to 0)' : ''}.`;
}

export function PreviewDetails({ preview }: { preview: SwapPreview }) {
  // The planned approval is said beside its Exact/Unlimited choice; these are any others the
  // simulation saw the transaction grant (normally none).
  const approvals = preview.approvalsGranted.filter(
    (grant) =>
      !preview.approval ||
      grant.token.toLowerCase() !== preview.approval.token.toLowerCase() ||
      grant.spender.toLowerCase() !== preview.approval.spender.toLowerCase(),
  );
  return (
    <>
      {preview.balanceChanges.length > 0 && (
        <section aria-label="Balance changes">
          <h3 class="field-label">Balance changes (simulated)</h3>
          <ul class="plain">
            {preview.balanceChanges.map((change) => (
              <li key={change.token}>
                {change.delta.startsWith('-') ? '−' : '+'}
                {formatAmount(BigInt(change.delta.replace('-', '')), change.decimals)} {change.symbol}
              </li>
            ))}
          </ul>
        </section>
      )}
      {approvals.map((approval) => (
        <p key={approval.token} class="warning">
          This transaction would also approve {approval.amount} units of {approval.token} for{' '}
          {approval.spender}.
        </p>
      ))}
      {preview.simulation.missing.length > 0 && (
        <div class="warning" role="status">
          <p>Not checked with this network's RPC:</p>
          <ul class="plain">
            {preview.simulation.missing.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

export function Warnings(props: {
  warnings: PreviewWarning[];
  ticked: ReadonlySet<string>;
  onTick: (next: ReadonlySet<string>) => void;
}) {
  if (props.warnings.length === 0) return null;
  return (
    <ul class="plain warnings" aria-label="Warnings">
      {props.warnings.map((warning) => (
        <li key={warning.code} class={warning.level === 'danger' ? 'danger-note' : 'warning'}>
          {warning.needsAcknowledgement ? (
            <label>
              <input
                type="checkbox"
                data-required-tick
                checked={props.ticked.has(warning.code)}
                onChange={(event) => {
                  const next = new Set(props.ticked);
                  if (event.currentTarget.checked) next.add(warning.code);
                  else next.delete(warning.code);
                  props.onTick(next);
                }}
              />{' '}
              {acknowledgementLabel(warning)}
            </label>
          ) : (
            warning.message
          )}
        </li>
      ))}
    </ul>
  );
}
