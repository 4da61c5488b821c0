import { formatAmount } from '@/lib/amounts';
import type { Token } from '@/lib/api/schema';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { RouteDiagram } from './RouteDiagram';

export interface QuoteCardProps {
  state: QuoteSessionState;
  inToken: Token | null;
  outToken: Token | null;
  now: number;
  onRefresh: () => void;
  /** Resolves route token addresses to symbols; unknown ones show as short addresses. */
  symbolOf?: ((address: string) => string | undefined) | undefined;
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

export function QuoteCard({ state, inToken, outToken, now, onRefresh, symbolOf }: QuoteCardProps) {
  if (state.status === 'idle') return null;
  const { quote } = state;
  const countdown = secondsUntil(state.nextRefreshAt, now);
  return (
    <section
      class={`quote quote-${state.status}`}
      aria-live="polite"
      aria-busy={state.status === 'loading'}
      data-testid="quote-card"
    >
      {(state.status === 'debouncing' || (state.status === 'loading' && !quote)) && (
        <p class="muted" data-testid="quote-status">
          Fetching the best price…
        </p>
      )}
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
        <dl class="quote-figures">
          <dt>You receive (expected)</dt>
          <dd data-testid="quote-out">
            {formatAmount(BigInt(quote.outAmount), outToken.decimals)} {outToken.symbol}
          </dd>
          <dt>Minimum received ({quote.slippage}% slippage)</dt>
          <dd data-testid="quote-min">
            {formatAmount(BigInt(quote.minReceived), outToken.decimals)} {outToken.symbol}
          </dd>
          <dt>Rate</dt>
          <dd data-testid="quote-rate">
            1 {inToken.symbol} ={' '}
            {rateOf(BigInt(quote.inAmount), inToken.decimals, BigInt(quote.outAmount), outToken.decimals)}{' '}
            {outToken.symbol}
            <br />1 {outToken.symbol} ={' '}
            {rateOf(BigInt(quote.outAmount), outToken.decimals, BigInt(quote.inAmount), inToken.decimals)}{' '}
            {inToken.symbol}
          </dd>
          <dt>Quoted at block</dt>
          <dd data-testid="quote-block">{quote.blockNumber}</dd>
        </dl>
      )}
      {quote && outToken && inToken && <RouteDiagram route={quote.bestRoute} symbolOf={symbolOf} />}
      {state.status === 'loading' && quote && <p class="muted">Refreshing…</p>}
      {state.status === 'ready' && (
        <p class="muted" data-testid="quote-countdown">
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
