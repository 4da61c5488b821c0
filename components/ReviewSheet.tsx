import { useEffect, useRef, useState } from 'preact/hooks';
import { formatAmount } from '@/lib/amounts';
import { isNativeToken, type Quote, type Token } from '@/lib/api/schema';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import type { PreviewWarning, SwapPreview } from '@/lib/swap/preview';
import { formatImpact, impactLevel } from '@/lib/swap/price-impact';
import {
  allAcknowledged,
  type ChangedFigure,
  QUOTE_LIFETIME_MS,
  quoteChanges,
  requiredAcknowledgements,
  reviewWarnings,
  secondsLeft,
  shownExpiry,
} from '@/lib/swap/review';
import type { QuoteFigures } from './QuoteCard';
import { ReviewActions, type ReviewBlock } from './ReviewActions';
import {
  ApprovalChoice,
  type ApprovalMode,
  approvalWords,
  NetworkFee,
  PreviewDetails,
  Warnings,
} from './ReviewParts';
import { RouterTrust, routerTrustWarning } from './RouterTrust';

export { type ApprovalMode, approvalWords };

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
  /** Why the session has no new quote (its error), shown when "Get a new quote" brought none. */
  quoteProblem?: string | null;
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
  /** Why the last Confirm was refused (nothing was signed). */
  error: string | null;
}

type PreviewState =
  | { status: 'loading' }
  /** `quoteKey`: the frozen quote it was loaded for (a preview of the one before is not this one's). */
  | { status: 'ready'; preview: SwapPreview; quoteKey: unknown }
  | { status: 'failed'; failure: PreviewFailure };

const failureOf = (error: unknown): PreviewFailure => ({
  message: error instanceof Error ? error.message : String(error),
});

/** How long "Get a new quote" waits before it offers itself again. */
const NEW_QUOTE_WAIT_MS = 20_000;

/** What stops Confirm, in the order the user meets it. */
function reviewBlock(input: {
  state: PreviewState;
  expired: boolean;
  error: string | null;
  gaveUp: string | null;
  warnings: PreviewWarning[];
  ticked: ReadonlySet<string>;
  trust: PreviewWarning | undefined;
}): ReviewBlock {
  const { state, trust, ticked } = input;
  if (input.gaveUp) return { problem: input.gaveUp, waitingFor: null };
  if (state.status === 'failed')
    return {
      problem: `Swaplane could not prepare this swap for review: ${state.failure.message}`,
      previewFailed: true,
      waitingFor: null,
    };
  if (input.expired)
    return {
      problem:
        'This quote expired: prices move, so Swaplane signs a quote only while it is fresh. Nothing was signed.',
      waitingFor: null,
    };
  if (input.error) return { problem: input.error, waitingFor: null };
  if (state.status === 'loading')
    return { problem: null, waitingFor: 'Confirm waits for the check and simulation of the transaction…' };
  if (trust && !ticked.has(trust.code))
    return { problem: null, waitingFor: 'To confirm, tick that you trust the router above.', tick: true };
  if (!allAcknowledged(input.warnings, ticked))
    return { problem: null, waitingFor: 'To confirm, tick each warning above that asks for it.', tick: true };
  return { problem: null, waitingFor: null };
}

/**
 * The countdown's end: the earliest expiry any preview of the quote under review gave, so it only
 * goes down; before a preview, the fallback from when the quote arrived. A new quote (received
 * again, even with the same figures) starts afresh.
 */
function useShownExpiry(preview: SwapPreview | null, fallback: number, quoteKey: unknown): number {
  const seen = useRef<{ key: unknown; at: number } | null>(null);
  const before = seen.current !== null && seen.current.key === quoteKey ? seen.current.at : null;
  // A re-check loading (another approval choice) keeps the earlier preview's end, never the fallback's.
  if (!preview) return shownExpiry(before, fallback);
  const at = shownExpiry(before, preview.expiresAt);
  seen.current = { key: quoteKey, at };
  return at;
}

/**
 * "Get a new quote": waiting for the session's next quote, and giving up with the reason (the
 * session's error, or none came in time) so the button is offered again, never dead.
 */
function useNewQuote(now: number, quoteProblem: string | null, refresh: () => void) {
  const [since, setSince] = useState<number | null>(null);
  const [gaveUp, setGaveUp] = useState<string | null>(null);
  const waitedOut = since !== null && now - since >= NEW_QUOTE_WAIT_MS;
  // The session's error counts once the refresh had time to start (before, it is the old one's).
  const failed = since !== null && now - since >= 2_000 && quoteProblem ? quoteProblem : null;
  useEffect(() => {
    if (!waitedOut && !failed) return;
    setSince(null);
    setGaveUp(
      failed
        ? `Swaplane could not get a new quote: ${failed}`
        : 'The swap service sent no new quote yet. Try again.',
    );
  }, [waitedOut, failed]);
  return {
    awaiting: since !== null,
    since,
    gaveUp,
    ask: () => {
      setGaveUp(null);
      setSince(now);
      refresh();
    },
    done: () => setSince(null),
  };
}

/** Scrolls the first required tick not yet ticked into view and focuses it (the foot's "Go to the tick"). */
export function goToTick(body: HTMLElement | null): void {
  const tick = body?.querySelector<HTMLInputElement>('input[data-required-tick]:not(:checked)');
  if (!tick) return;
  tick.scrollIntoView({ block: 'nearest' });
  tick.focus();
}

function toggled(set: ReadonlySet<string>, code: string, on: boolean): ReadonlySet<string> {
  const next = new Set(set);
  if (on) next.add(code);
  else next.delete(code);
  return next;
}

export function ReviewSheet(props: ReviewSheetProps) {
  const { from, to, native, now, error } = props;
  // A quote with no arrival time counts from the review's opening, never from each render's `now`.
  const [frozen, setFrozen] = useState({ quote: props.quote, receivedAt: props.receivedAt ?? now });
  const [previous, setPrevious] = useState<Quote | null>(null);
  const [approvalMode, setApprovalMode] = useState<ApprovalMode>('exact');
  const [state, setState] = useState<PreviewState>({ status: 'loading' });
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    let current = true;
    const loadingFor = frozen;
    setState({ status: 'loading' });
    props.loadPreview(approvalMode).then(
      (preview) => current && setState({ status: 'ready', preview, quoteKey: loadingFor }),
      (failure: unknown) => current && setState({ status: 'failed', failure: failureOf(failure) }),
    );
    return () => {
      current = false;
    };
  }, [approvalMode, frozen]);
  const asking = useNewQuote(props.now, props.quoteProblem ?? null, props.onRefresh);
  // "Get a new quote": take the session's next quote, and say what changed.
  useEffect(() => {
    // Only a quote received after the ask: one that arrived before is already on its way out.
    if (asking.since === null || props.receivedAt === null || props.receivedAt < asking.since) return;
    setPrevious(shown);
    setFrozen({ quote: props.quote, receivedAt: props.receivedAt });
    setTicked(new Set());
    asking.done();
  }, [asking.since, props.quote, props.receivedAt]);
  // A preview loaded for the quote before "Get a new quote" is not this quote's.
  const preview = state.status === 'ready' && state.quoteKey === frozen ? state.preview : null;
  const shown = preview?.quote ?? frozen.quote;
  const changed = quoteChanges(previous, shown);
  // Figures are about the live quote: shown only while it is still the one under review.
  const figures = props.quote.outAmount === shown.outAmount ? props.figures : undefined;
  const impact = figures?.priceImpactBps ?? null;
  const all = reviewWarnings(preview?.warnings ?? [], impact, preview ? preview.calldata.readable : true);
  const trust = routerTrustWarning(all);
  const warnings = all.filter((warning) => warning !== trust);
  const expiresAt = useShownExpiry(preview, (frozen.receivedAt ?? now) + QUOTE_LIFETIME_MS, frozen);
  const expired = now >= expiresAt;
  const block = reviewBlock({ state, expired, error, gaveUp: asking.gaveUp, warnings: all, ticked, trust });

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
        <div class="sheet-body" ref={body}>
          {changed.size > 0 && (
            <p class="warning" role="status">
              The quote changed: the highlighted figures are new.
            </p>
          )}
          {/* First: on a short window (360x480) its tick is in view with Confirm, never under the fold. */}
          {preview && trust && (
            <RouterTrust
              preview={preview}
              warning={trust}
              ticked={ticked.has(trust.code)}
              onTick={(on) => setTicked(toggled(ticked, trust.code, on))}
            />
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
          <Warnings warnings={warnings} ticked={ticked} onTick={setTicked} />
        </div>
        <ReviewActions
          block={block}
          awaiting={asking.awaiting}
          onCancel={props.onClose}
          onNewQuote={asking.ask}
          onGoToTick={() => goToTick(body.current)}
          onConfirm={() =>
            props.onConfirm({
              approvalMode,
              ...(preview ? { quoteDigest: preview.digest } : {}),
              acknowledged: requiredAcknowledgements(all),
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
