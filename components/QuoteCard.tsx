import type { ComponentChildren } from 'preact';
import { formatAmount } from '@/lib/amounts';
import { busyRetryingText } from '@/lib/api/messages';
import type { Token } from '@/lib/api/schema';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { formatImpact, impactLevel } from '@/lib/swap/price-impact';
import { RouteDiagram } from './RouteDiagram';

/** What the background adds to a quote (quoteInsights), already matched to the quote shown. */
export interface QuoteFigures {
  /** null when unknown; undefined while it is being worked out. */
  priceImpactBps: number | null | undefined;
  /** Expected and maximum network fee in native wei; null when unknown, undefined while worked out. */
  fee:
    | {
        expected: bigint;
        max: bigint;
        approvalNeeded: boolean;
        /** Not simulated for this quote (a remembered or estimated gas): shown as "about". */
        about?: boolean;
      }
    | null
    | undefined;
  /** USD per whole native coin (x 10^8), or null. */
  nativePrice: bigint | null;
}

export interface QuoteCardProps {
  state: QuoteSessionState;
  inToken: Token | null;
  outToken: Token | null;
  now: number;
  onRefresh: () => void;
  /** Resolves route token addresses to symbols; unknown ones show as short addresses. */
  symbolOf?: ((address: string) => string | undefined) | undefined;
  /** Fee and price impact; undefined while they are being worked out. */
  figures?: QuoteFigures | undefined;
  native?: { symbol: string; decimals: number } | undefined;
  /** Shown inside the details (the slippage control). */
  children?: ComponentChildren;
}

// Extra digits kept in the bigint division so small rates (1 USDC = 0.0003 ETH) keep precision.
const RATE_PRECISION = 18;

/** How many `to` units one whole `from` unit buys, as display text; bigint only, never Number. */
export function rateOf(
  fromAmount: bigint,
  fromDecimals: number,
  toAmount: bigint,
  toDecimals: number,
): string {
  if (fromAmount <= 0n) return '—';
  const scaled = (toAmount * 10n ** BigInt(fromDecimals + RATE_PRECISION)) / fromAmount;
  return formatAmount(scaled, toDecimals + RATE_PRECISION);
}

function secondsUntil(at: number | null, now: number): number | null {
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** "0.00031 ETH ($0.92)", or "—" while unknown. */
export function feeText(
  wei: bigint | undefined,
  native: { symbol: string; decimals: number } | undefined,
  price: bigint | null,
): string {
  if (wei === undefined || !native) return '—';
  return `${formatAmount(wei, native.decimals, { maxSignificant: 3, minDisplay: '0.00000001' })} ${native.symbol} (${formatUsd(usdValue(wei, native.decimals, price))})`;
}

/**
 * What the card says while a quote is on its way: fetching (top, no quote yet), refreshing (bottom,
 * under the old quote), or, when the service answered 429, that it is busy and when the retry is.
 */
function QuoteProgress({
  state,
  now,
  position,
}: {
  state: QuoteSessionState;
  now: number;
  position: 'top' | 'bottom';
}) {
  const busyIn = state.status === 'loading' ? secondsUntil(state.busyRetryAt ?? null, now) : null;
  if (busyIn !== null) {
    return position === 'top' ? (
      <p class="muted" role="status" data-testid="quote-busy">
        {busyRetryingText(busyIn)}
      </p>
    ) : null;
  }
  if (position === 'top' && (state.status === 'debouncing' || (state.status === 'loading' && !state.quote))) {
    return (
      <p class="muted" data-testid="quote-status">
        Fetching the best price…
      </p>
    );
  }
  if (position === 'bottom' && state.status === 'loading' && state.quote)
    return <p class="muted">Refreshing…</p>;
  return null;
}

export function QuoteCard(props: QuoteCardProps) {
  const { state, inToken, outToken, now, onRefresh, symbolOf, figures, native, children } = props;
  if (state.status === 'idle') return null;
  const { quote } = state;
  const countdown = secondsUntil(state.nextRefreshAt, now);
  const impact = figures ? figures.priceImpactBps : undefined;
  const level = impactLevel(impact ?? null);
  return (
    <section
      class={`quote quote-${state.status}`}
      aria-label="Quote"
      aria-live="polite"
      aria-busy={state.status === 'loading'}
      data-testid="quote-card"
    >
      <QuoteProgress state={state} now={now} position="top" />
      {state.status === 'error' && state.error && (
        <div class="error" role="alert" data-testid="quote-error">
          <strong>{state.error.title}</strong>
          <p>{state.error.detail}</p>
          <p>{state.error.action}</p>
          <button type="button" onClick={onRefresh}>
            Try again
          </button>
        </div>
      )}
      {quote && outToken && inToken && (
        <>
          <dl class="quote-line">
            <div class="quote-rate">
              <dt class="sr-only">Rate</dt>
              <dd data-testid="quote-rate">
                1 {inToken.symbol} ={' '}
                {rateOf(BigInt(quote.inAmount), inToken.decimals, BigInt(quote.outAmount), outToken.decimals)}{' '}
                {outToken.symbol}
              </dd>
            </div>
            <div>
              <dt>Network fee</dt>
              <dd data-testid="quote-fee">
                {figures?.fee === undefined
                  ? '…'
                  : `${figures.fee?.about ? 'about ' : ''}${feeText(figures.fee?.expected, native, figures.nativePrice)}`}
              </dd>
            </div>
            <div>
              <dt>Price impact</dt>
              <dd data-testid="quote-impact" class={`impact-${level}`}>
                {impact === undefined ? '…' : formatImpact(impact)}
              </dd>
            </div>
          </dl>
          {level !== 'ok' && impact != null && (
            <p
              class={level === 'danger' ? 'danger-note' : 'warning'}
              role="status"
              data-testid="impact-warning"
            >
              {level === 'danger'
                ? `High price impact: you lose about ${formatImpact(impact)} against the market price.`
                : `Price impact is ${formatImpact(impact)}: this trade moves the price against you.`}
            </p>
          )}
          <details class="quote-details">
            <summary>Details</summary>
            <dl class="quote-figures">
              <dt>Minimum received</dt>
              <dd data-testid="quote-min">
                {formatAmount(BigInt(quote.minReceived), outToken.decimals)} {outToken.symbol}
              </dd>
              <dt>Slippage tolerance</dt>
              <dd>{quote.slippage}%</dd>
              <dt>Rate, inverted</dt>
              <dd>
                1 {outToken.symbol} ={' '}
                {rateOf(BigInt(quote.outAmount), outToken.decimals, BigInt(quote.inAmount), inToken.decimals)}{' '}
                {inToken.symbol}
              </dd>
              <dt>Network fee, up to</dt>
              <dd data-testid="quote-fee-max">
                {figures?.fee === undefined ? '…' : feeText(figures.fee?.max, native, figures.nativePrice)}
              </dd>
              {figures?.fee?.approvalNeeded && (
                <>
                  <dt>Approval</dt>
                  <dd>Included in the fee</dd>
                </>
              )}
            </dl>
            <RouteDiagram route={quote.bestRoute} symbolOf={symbolOf} nativeSymbol={native?.symbol} />
            {children}
          </details>
        </>
      )}
      <QuoteProgress state={state} now={now} position="bottom" />
      {state.status === 'ready' && (
        <p class="muted quote-age" data-testid="quote-countdown">
          {countdown !== null ? `New quote in ${countdown}s` : 'Auto-refresh paused'}
          {' · '}
          <button type="button" class="link" onClick={onRefresh}>
            Refresh now
          </button>
        </p>
      )}
      {state.status === 'stale' && (
        <div class="warning" role="status" data-testid="quote-stale">
          <p>{state.staleReason ?? 'This quote is out of date.'}</p>
          <button type="button" onClick={onRefresh}>
            Get a new quote
          </button>
        </div>
      )}
    </section>
  );
}
