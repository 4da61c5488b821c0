import { useEffect, useRef, useState } from 'preact/hooks';
import { formatAmount } from '@/lib/amounts';
import { isNativeToken, type Quote, type Token } from '@/lib/api/schema';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import type { PreviewWarning, SwapPreview } from '@/lib/swap/preview';
import { formatImpact, impactLevel } from '@/lib/swap/price-impact';
import {
  acknowledgementLabel,
  allAcknowledged,
  type ChangedFigure,
  FALLBACK_QUOTE_LIFETIME_MS,
  quoteChanges,
  requiredAcknowledgements,
  reviewWarnings,
  secondsLeft,
} from '@/lib/swap/review';
import { feeText, type QuoteFigures } from './QuoteCard';

export type ApprovalMode = 'exact' | 'unlimited';

export interface ConfirmRequest {
  approvalMode: ApprovalMode;
  quoteDigest?: string;
  acknowledged: string[];
}

/** Why no preview: without one there is no digest to sign against, so Confirm stays disabled. */
export interface PreviewFailure {
  message: string;
}

export interface ReviewSheetProps {
  /** The session's live quote: frozen when the sheet opens, replaced only by "Get a new quote". */
  quote: Quote;
  receivedAt: number | null;
  from: Token;
  to: Token;
  native: { symbol: string; decimals: number };
  figures: QuoteFigures | undefined;
  prices: { in: bigint | null; out: bigint | null };
  now: number;
  loadPreview: (approvalMode: ApprovalMode) => Promise<SwapPreview>;
  onRefresh: () => void;
  onConfirm: (request: ConfirmRequest) => void;
  onClose: () => void;
  error: string | null;
}

type PreviewState =
  | { status: 'loading' }
  | { status: 'ready'; preview: SwapPreview }
  | { status: 'failed'; failure: PreviewFailure };

const failureOf = (error: unknown): PreviewFailure => ({
  message: error instanceof Error ? error.message : String(error),
});

export function ReviewSheet(props: ReviewSheetProps) {
  const { from, to, native, now, error } = props;
  const [frozen, setFrozen] = useState({ quote: props.quote, receivedAt: props.receivedAt });
  const [previous, setPrevious] = useState<Quote | null>(null);
  const [awaiting, setAwaiting] = useState(false);
  const [approvalMode, setApprovalMode] = useState<ApprovalMode>('exact');
  const [state, setState] = useState<PreviewState>({ status: 'loading' });
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    props.loadPreview(approvalMode).then(
      (preview) => current && setState({ status: 'ready', preview }),
      (failure: unknown) => current && setState({ status: 'failed', failure: failureOf(failure) }),
    );
    return () => {
      current = false;
    };
  }, [approvalMode, frozen]);
  // "Get a new quote": take the session's next quote, and say what changed.
  useEffect(() => {
    if (!awaiting || props.receivedAt === frozen.receivedAt) return;
    setPrevious(shown);
    setFrozen({ quote: props.quote, receivedAt: props.receivedAt });
    setTicked(new Set());
    setAwaiting(false);
  }, [awaiting, props.quote, props.receivedAt]);

  const preview = state.status === 'ready' ? state.preview : null;
  const shown = preview?.quote ?? frozen.quote;
  const changed = quoteChanges(previous, shown);
  // Figures are about the live quote: shown only while it is still the one under review.
  const figures = props.quote.outAmount === shown.outAmount ? props.figures : undefined;
  const impact = figures?.priceImpactBps ?? null;
  const warnings = reviewWarnings(
    preview?.warnings ?? [],
    impact,
    preview ? preview.calldata.readable : true,
  );
  const expiresAt = preview?.expiresAt ?? (frozen.receivedAt ?? now) + FALLBACK_QUOTE_LIFETIME_MS;
  const expired = now >= expiresAt;
  const ready = preview !== null && !expired && allAcknowledged(warnings, ticked);

  return (
    <div class="sheet-scrim">
      <div
        class="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="review-title"
        data-testid="review"
        onKeyDown={(event) => event.key === 'Escape' && props.onClose()}
      >
        <div class="sheet-head">
          <h2 id="review-title" tabIndex={-1} ref={heading}>
            Review swap
          </h2>
          <span class={expired ? 'error' : 'muted'} data-testid="review-countdown">
            {expired ? 'Quote expired' : `Quote valid for ${secondsLeft(expiresAt, now)}s`}
          </span>
        </div>
        <div class="sheet-body">
          {changed.size > 0 && (
            <p class="warning" role="status">
              The quote changed: the highlighted figures are new.
            </p>
          )}
          <ReviewFigures
            quote={shown}
            from={from}
            to={to}
            prices={props.prices}
            changed={changed}
            impact={figures ? impact : undefined}
          />
          <NetworkFee preview={preview} figures={figures} native={native} />
          {preview && <PreviewDetails preview={preview} />}
          {!isNativeToken(from.address) && (
            <ApprovalChoice
              symbol={from.symbol}
              mode={approvalMode}
              onChange={setApprovalMode}
              planned={preview?.approval ? approvalWords(preview.approval, from) : null}
            />
          )}
          {state.status === 'loading' && <p class="muted">Checking and simulating the transaction…</p>}
          {state.status === 'failed' && <PreviewFailed failure={state.failure} />}
          <Warnings warnings={warnings} ticked={ticked} onTick={setTicked} />
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
        </div>
        <SheetActions
          expired={expired}
          awaiting={awaiting}
          ready={ready}
          onCancel={props.onClose}
          onNewQuote={() => {
            setAwaiting(true);
            props.onRefresh();
          }}
          onConfirm={() =>
            props.onConfirm({
              approvalMode,
              ...(preview ? { quoteDigest: preview.digest } : {}),
              acknowledged: requiredAcknowledgements(warnings),
            })
          }
        />
      </div>
    </div>
  );
}

/** The frozen quote's figures; those that changed since the last review are highlighted. */
function ReviewFigures(props: {
  quote: Quote;
  from: Token;
  to: Token;
  prices: { in: bigint | null; out: bigint | null };
  changed: Set<ChangedFigure>;
  /** Undefined while unknown. */
  impact: number | null | undefined;
}) {
  const { quote, from, to, prices, changed, impact } = props;
  const amount = (raw: string, token: Token) =>
    `${formatAmount(BigInt(raw), token.decimals)} ${token.symbol}`;
  const usd = (raw: string, token: Token, price: bigint | null) =>
    formatUsd(usdValue(BigInt(raw), token.decimals, price));
  const mark = (figure: ChangedFigure) => (changed.has(figure) ? 'changed' : undefined);
  return (
    <dl class="quote-figures">
      <dt>You pay</dt>
      <dd class={mark('inAmount')}>
        {amount(quote.inAmount, from)} <span class="muted">{usd(quote.inAmount, from, prices.in)}</span>
      </dd>
      <dt>You receive (expected)</dt>
      <dd class={mark('outAmount')} data-testid="review-out">
        {amount(quote.outAmount, to)} <span class="muted">{usd(quote.outAmount, to, prices.out)}</span>
      </dd>
      <dt>You receive at least</dt>
      <dd class={mark('minReceived')} data-testid="review-min">
        {amount(quote.minReceived, to)}
      </dd>
      <dt>Price impact</dt>
      <dd class={`impact-${impactLevel(impact ?? null)}`}>
        {impact === undefined ? '…' : formatImpact(impact)}
      </dd>
    </dl>
  );
}

/** Exact amount (the default) or unlimited, when the token paid needs an approval. */
function ApprovalChoice(props: {
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

/** Cancel, and Confirm swap (disabled until ready) or, once the quote expired, Get a new quote. */
function SheetActions(props: {
  expired: boolean;
  awaiting: boolean;
  ready: boolean;
  onCancel: () => void;
  onNewQuote: () => void;
  onConfirm: () => void;
}) {
  return (
    <div class="sheet-actions">
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
      {props.expired ? (
        <button type="button" class="primary" disabled={props.awaiting} onClick={props.onNewQuote}>
          {props.awaiting ? 'Getting a new quote…' : 'Get a new quote'}
        </button>
      ) : (
        <button type="button" class="primary" disabled={!props.ready} onClick={props.onConfirm}>
          Confirm swap
        </button>
      )}
    </div>
  );
}

function NetworkFee(props: {
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
        Most it can cost: {feeText(max, native, price)}.{' '}
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

function PreviewDetails({ preview }: { preview: SwapPreview }) {
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

function PreviewFailed({ failure }: { failure: PreviewFailure }) {
  return (
    <p class="error" role="alert" data-testid="preview-error">
      Swaplane could not prepare this swap for review: {failure.message}
    </p>
  );
}

function Warnings(props: {
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
