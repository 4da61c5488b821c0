// @vitest-environment happy-dom

import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuoteCard, type QuoteFigures, rateOf } from '@/components/QuoteCard';
import type { Quote, Token } from '@/lib/api/schema';
import { INITIAL_SESSION_STATE, type QuoteSessionState } from '@/lib/state/session-state';
import * as TOKENS from '../support/addresses';
import { quoteFixture } from '../support/quotes';

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = TOKENS.lowercase.USDC;
const tokenIn: Token = { chainId: 1, address: ETH, name: 'Ether', symbol: 'ETH', decimals: 18, logoURI: '' };
const tokenOut: Token = {
  chainId: 1,
  address: USDC,
  name: 'USD Coin',
  symbol: 'USDC',
  decimals: 6,
  logoURI: '',
};

const quote: Quote = quoteFixture({
  inToken: ETH,
  outToken: USDC,
  outAmount: '2500000000',
  minReceived: '2487500000',
  bestRoute: [
    {
      percent: 100,
      swaps: [{ dex: 'Uniswap V2', pool: USDC, tokenIn: ETH, tokenOut: USDC, amountIn: '1', amountOut: '1' }],
    },
  ],
  contractAddress: USDC,
  blockNumber: 1234,
});

const NOW = 1_000_000;
const state = (patch: Partial<QuoteSessionState>): QuoteSessionState => ({
  ...INITIAL_SESSION_STATE,
  ...patch,
});

function show(patch: Partial<QuoteSessionState>, figures?: QuoteFigures) {
  const onRefresh = vi.fn();
  render(
    <QuoteCard
      figures={figures}
      native={{ symbol: 'ETH', decimals: 18 }}
      state={state(patch)}
      inToken={tokenIn}
      outToken={tokenOut}
      now={NOW}
      onRefresh={onRefresh}
      symbolOf={(address) => ({ [ETH]: 'ETH', [USDC]: 'USDC' })[address.toLowerCase()]}
    />,
  );
  return onRefresh;
}

afterEach(cleanup);

describe('QuoteCard', () => {
  it('renders nothing when idle', () => {
    const { container } = render(
      <QuoteCard
        state={INITIAL_SESSION_STATE}
        inToken={null}
        outToken={null}
        now={NOW}
        onRefresh={() => {}}
      />,
    );
    expect(container.innerHTML).toBe('');
  });

  it('shows the figures, the rate both ways, the route and a countdown when ready', () => {
    const onRefresh = show({ status: 'ready', quote, nextRefreshAt: NOW + 12_400 });
    expect(screen.getByTestId('quote-min').textContent).toBe('2,487.5 USDC');
    expect(screen.getByTestId('quote-rate').textContent).toContain('1 ETH = 2,500 USDC');
    expect(screen.getByTestId('quote-card').textContent).toContain('1 USDC = 0.0004 ETH');
    // Quote age as a countdown, never a block number.
    expect(screen.getByTestId('quote-card').textContent).not.toContain('1234');
    expect(screen.getByTestId('quote-countdown').textContent).toContain('New quote in 13s');
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe('Route: 100% ETH → USDC via Uniswap V2');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh now' }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('says when auto-refresh is paused', () => {
    show({ status: 'ready', quote, nextRefreshAt: null });
    expect(screen.getByTestId('quote-countdown').textContent).toContain('Auto-refresh paused');
  });

  it('shows the error title, detail and next step, with a retry', () => {
    const onRefresh = show({
      status: 'error',
      error: { title: 'No route', detail: 'No pool trades this pair.', action: 'Try another token.' },
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('No route');
    expect(alert.textContent).toContain('No pool trades this pair.');
    expect(alert.textContent).toContain('Try another token.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('shows the stale reason and a way to get a new quote', () => {
    const onRefresh = show({ status: 'stale', quote, staleReason: 'The quote is 2 minutes old.' });
    expect(screen.getByTestId('quote-stale').textContent).toContain('The quote is 2 minutes old.');
    fireEvent.click(screen.getByRole('button', { name: 'Get a new quote' }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('shows progress while loading, busy, and keeps the old quote while refreshing', () => {
    show({ status: 'loading' });
    expect(screen.getByTestId('quote-status').textContent).toContain('Fetching the best price');
    expect(screen.getByTestId('quote-card').getAttribute('aria-busy')).toBe('true');
    cleanup();
    show({ status: 'loading', quote });
    expect(screen.getByText('Refreshing…')).toBeTruthy();
    expect(screen.getByTestId('quote-rate')).toBeTruthy();
  });

  it('says the service is busy and counts down while a 429 is waited out', () => {
    show({ status: 'loading', busyRetryAt: NOW + 2_400 });
    expect(screen.getByRole('status').textContent).toBe('The swap service is busy, retrying in 3 s');
    expect(screen.queryByTestId('quote-status')).toBeNull();
    cleanup();
    show({ status: 'loading', quote, busyRetryAt: NOW + 1_000 });
    expect(screen.getByText('The swap service is busy, retrying in 1 s')).toBeTruthy();
    expect(screen.queryByText('Refreshing…')).toBeNull();
    cleanup();
    show({ status: 'ready', quote, busyRetryAt: NOW + 1_000 }); // only while loading
    expect(screen.queryByTestId('quote-busy')).toBeNull();
  });

  it('shows the network fee in the native coin and USD, and the price impact, on the quote line', () => {
    show(
      { status: 'ready', quote, nextRefreshAt: NOW + 5_000 },
      // 150,000 gas x 2 gwei = 0.0003 ETH; ETH at $3,000.
      {
        priceImpactBps: 42,
        fee: { expected: 300_000_000_000_000n, max: 450_000_000_000_000n, approvalNeeded: true },
        nativePrice: 300_000_000_000n,
      },
    );
    expect(screen.getByText('Network fee')).toBeTruthy();
    expect(screen.getByTestId('quote-fee').textContent).toBe('0.0003 ETH ($0.90)');
    expect(screen.getByTestId('quote-fee-max').textContent).toBe('0.00045 ETH ($1.35)');
    expect(screen.getByText('Price impact')).toBeTruthy();
    expect(screen.getByTestId('quote-impact').textContent).toBe('0.42%');
    expect(screen.getByText('Included in the fee')).toBeTruthy();
    expect(screen.queryByTestId('impact-warning')).toBeNull();
  });

  it('says "about" when the fee was not simulated for this quote, and not otherwise', () => {
    const fee = { expected: 300_000_000_000_000n, max: 450_000_000_000_000n, approvalNeeded: false };
    show(
      { status: 'ready', quote, nextRefreshAt: null },
      { priceImpactBps: 0, fee: { ...fee, about: true }, nativePrice: null },
    );
    expect(screen.getByTestId('quote-fee').textContent).toBe('about 0.0003 ETH (—)');
    cleanup();
    show({ status: 'ready', quote, nextRefreshAt: null }, { priceImpactBps: 0, fee, nativePrice: null });
    expect(screen.getByTestId('quote-fee').textContent).toBe('0.0003 ETH (—)');
  });

  it('warns at 3% price impact and says what is lost at 10%', () => {
    const figures = (bps: number): QuoteFigures => ({ priceImpactBps: bps, fee: null, nativePrice: null });
    show({ status: 'ready', quote, nextRefreshAt: null }, figures(450));
    expect(screen.getByTestId('impact-warning').textContent).toContain('Price impact is 4.50%');
    expect(screen.getByTestId('quote-fee').textContent).toBe('—');
    cleanup();
    show({ status: 'ready', quote, nextRefreshAt: null }, figures(1953));
    expect(screen.getByTestId('impact-warning').textContent).toContain('you lose about 19.53%');
    expect(screen.getByTestId('quote-impact').className).toContain('impact-danger');
  });

  it('says "…" while fee and impact are being worked out, never a made-up figure', () => {
    show({ status: 'ready', quote, nextRefreshAt: null });
    expect(screen.getByTestId('quote-fee').textContent).toBe('…');
    expect(screen.getByTestId('quote-impact').textContent).toBe('…');
  });
});

describe('rateOf', () => {
  it('divides in bigint, exact beyond Number precision', () => {
    // 123456789012345678901234567 / 1 would lose digits through Number.
    expect(rateOf(10n ** 18n, 18, 123456789012345678901234567n, 18)).toBe('123,456,789.01');
    expect(rateOf(3n, 0, 1n, 0)).toBe('0.333333');
    expect(rateOf(0n, 18, 5n, 6)).toBe('—');
  });
});
