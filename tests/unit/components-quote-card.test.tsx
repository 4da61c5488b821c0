// @vitest-environment happy-dom

import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuoteCard, rateOf } from '@/components/QuoteCard';
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

function show(patch: Partial<QuoteSessionState>) {
  const onRefresh = vi.fn();
  render(
    <QuoteCard
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
    expect(screen.getByTestId('quote-out').textContent).toBe('2,500 USDC');
    expect(screen.getByTestId('quote-min').textContent).toBe('2,487.5 USDC');
    expect(screen.getByTestId('quote-rate').textContent).toContain('1 ETH = 2,500 USDC');
    expect(screen.getByTestId('quote-rate').textContent).toContain('1 USDC = 0.0004 ETH');
    expect(screen.getByTestId('quote-block').textContent).toBe('1234');
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
    expect(screen.getByTestId('quote-out')).toBeTruthy();
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
