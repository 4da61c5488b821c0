// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuoteFigures } from '@/components/QuoteCard';
import { approvalWords, ReviewSheet, type ReviewSheetProps } from '@/components/ReviewSheet';
import type { Quote, Token } from '@/lib/api/schema';
import type { SwapPreview } from '@/lib/swap/preview';
import { QUOTE_LIFETIME_MS } from '@/lib/swap/review';

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ROUTER = '0x1111111111111111111111111111111111111111';
const eth: Token = { chainId: 1, address: ETH, name: 'Ether', symbol: 'ETH', decimals: 18, logoURI: '' };
const usdc: Token = { chainId: 1, address: USDC, name: 'USD Coin', symbol: 'USDC', decimals: 6, logoURI: '' };
const NOW = 1_000_000;

const quote = (outAmount = '2500000000', minReceived = '2487500000'): Quote => ({
  chainId: 1,
  inToken: ETH,
  inDecimals: 18,
  inAmount: '1000000000000000000',
  outToken: USDC,
  outDecimals: 6,
  outAmount,
  slippage: 0.5,
  minReceived,
  bestRoute: [{ percent: 100, swaps: [{ dex: 'Uniswap V2' }] }],
  contractAddress: ROUTER,
  contractMethod: 'swap',
  blockNumber: 8,
});

const fee = {
  gasLimit: '150000',
  maxFeePerGas: '3000000000',
  maxPriorityFeePerGas: '1000000000',
  capped: false,
};
const preview = (patch: Partial<SwapPreview> = {}): SwapPreview => ({
  quote: quote(),
  digest: '0xabcdef',
  reviewedAt: NOW,
  expiresAt: NOW + 25_000,
  transaction: { to: ROUTER, data: '0x1234', value: '1000000000000000000' },
  approval: null,
  fees: {
    swap: { ...fee, expected: '300000000000000', max: '450000000000000' },
    approval: null,
    totalExpected: '300000000000000',
    totalMax: '450000000000000',
  },
  balanceChanges: [
    { token: ETH, symbol: 'ETH', decimals: 18, delta: '-1000000000000000000' },
    { token: USDC, symbol: 'USDC', decimals: 6, delta: '2500000000' },
  ],
  approvalsGranted: [],
  simulation: { kind: 'assets', missing: [] },
  calldata: { readable: true, family: 'swaplane-router' },
  warnings: [],
  ...patch,
});

const figures = (bps: number | null): QuoteFigures => ({
  priceImpactBps: bps,
  fee: { expected: 280_000_000_000_000n, max: 400_000_000_000_000n, approvalNeeded: false },
  nativePrice: 300_000_000_000n,
});

function show(
  patch: Partial<ReviewSheetProps> = {},
  loaded: Promise<SwapPreview> = Promise.resolve(preview()),
) {
  const props: ReviewSheetProps = {
    quote: quote(),
    receivedAt: NOW,
    from: eth,
    to: usdc,
    native: { symbol: 'ETH', decimals: 18 },
    figures: figures(12),
    prices: { in: 300_000_000_000n, out: 100_000_000n },
    now: NOW,
    loadPreview: vi.fn(() => loaded),
    onRefresh: vi.fn(),
    onConfirm: vi.fn(),
    onClose: vi.fn(),
    error: null,
    ...patch,
  };
  const view = render(<ReviewSheet {...props} />);
  return { props, view };
}

const settle = () => act(async () => {});
const confirm = () => screen.getByRole('button', { name: 'Confirm swap' }) as HTMLButtonElement;

afterEach(cleanup);

describe('ReviewSheet', () => {
  it('is a dialog named "Review swap" with the frozen quote, fee, balance changes and countdown', async () => {
    const { props } = show();
    await settle();
    expect(screen.getByRole('dialog', { name: 'Review swap' })).toBeTruthy();
    expect(screen.getByText('You pay').nextElementSibling?.textContent).toContain('1 ETH $3,000.00');
    expect(screen.getByTestId('review-out').textContent).toContain('2,500 USDC $2,500.00');
    expect(screen.getByText('You receive at least')).toBeTruthy();
    expect(screen.getByTestId('review-min').textContent).toBe('2,487.5 USDC');
    // The preview's fee (built and simulated), not the quote line's estimate.
    expect(screen.getByTestId('review-fee').textContent).toBe('0.0003 ETH ($0.90)');
    expect(screen.getByRole('region', { name: 'Balance changes' }).textContent).toContain('−1 ETH');
    expect(screen.getByRole('region', { name: 'Balance changes' }).textContent).toContain('+2,500 USDC');
    expect(screen.getByTestId('review-countdown').textContent).toBe('Quote valid for 25s');
    expect(props.loadPreview).toHaveBeenCalledWith('exact');
  });

  it('Confirm sends the preview digest and the approval mode', async () => {
    const { props } = show();
    await settle();
    fireEvent.click(confirm());
    expect(props.onConfirm).toHaveBeenCalledWith({
      approvalMode: 'exact',
      quoteDigest: '0xabcdef',
      acknowledged: [],
    });
  });

  it('keeps the frozen quote when the session quote changes underneath', async () => {
    const { props, view } = show({}, Promise.reject(new Error('The swap service is unavailable.')));
    await settle();
    view.rerender(
      <ReviewSheet {...props} quote={quote('2400000000', '2388000000')} receivedAt={NOW + 15_000} />,
    );
    expect(screen.getByTestId('review-out').textContent).toContain('2,500 USDC');
  });

  it('a price impact of 10% or more needs the acknowledgement, whose code Confirm sends', async () => {
    const { props } = show({ figures: figures(1953) });
    await settle();
    expect(confirm().disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /I understand I lose about 20%/ }));
    expect(confirm().disabled).toBe(false);
    fireEvent.click(confirm());
    expect(props.onConfirm).toHaveBeenCalledWith(
      expect.objectContaining({ acknowledged: ['PRICE_IMPACT_HIGH'], quoteDigest: '0xabcdef' }),
    );
  });

  it('every warning that needs acknowledging gets a checkbox; unreadable calldata and simulation gaps are said', async () => {
    show(
      { figures: figures(10) },
      Promise.resolve(
        preview({
          calldata: { readable: false, family: null },
          simulation: { kind: 'call', missing: ['what the swap does to your balances'] },
          warnings: [
            {
              code: 'FEE_CAPPED',
              level: 'warning',
              message: 'The fee was capped.',
              needsAcknowledgement: false,
            },
          ],
        }),
      ),
    );
    await settle();
    expect(screen.getByText('The fee was capped.')).toBeTruthy();
    expect(screen.getByText(/Not checked with this network's RPC/)).toBeTruthy();
    expect(screen.getByText('what the swap does to your balances')).toBeTruthy();
    expect(confirm().disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /could not read what this transaction does/ }));
    expect(confirm().disabled).toBe(false);
  });

  it('after the countdown, "Get a new quote" takes the next quote and highlights what changed', async () => {
    const { props, view } = show({ now: NOW + 26_000 });
    await settle();
    expect(screen.getByTestId('review-countdown').textContent).toBe('Quote expired');
    expect(screen.queryByRole('button', { name: 'Confirm swap' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Get a new quote' }));
    expect(props.onRefresh).toHaveBeenCalledOnce();
    const next = quote('2400000000', '2388000000');
    (props.loadPreview as ReturnType<typeof vi.fn>).mockImplementation(() =>
      Promise.resolve(preview({ quote: next, expiresAt: NOW + 56_000, digest: '0x0102' })),
    );
    view.rerender(<ReviewSheet {...props} now={NOW + 27_000} quote={next} receivedAt={NOW + 26_500} />);
    await settle();
    expect(screen.getByText(/The quote changed/)).toBeTruthy();
    expect(screen.getByTestId('review-out').className).toContain('changed');
    expect(screen.getByTestId('review-out').textContent).toContain('2,400 USDC');
    fireEvent.click(confirm());
    expect(props.onConfirm).toHaveBeenCalledWith(expect.objectContaining({ quoteDigest: '0x0102' }));
  });

  it('without a preview there is nothing to confirm: the failure is said beside "Get a new quote"', async () => {
    const { props } = show({}, Promise.reject(new Error('The RPC is down.')));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('could not prepare this swap for review');
    expect(screen.queryByRole('button', { name: 'Confirm swap' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Get a new quote' }));
    expect(props.onRefresh).toHaveBeenCalledOnce();
  });

  it('a disabled Confirm says why: the check running, then the tick it waits for', async () => {
    let resolve: (value: SwapPreview) => void = () => undefined;
    show({ figures: figures(1953) }, new Promise((done) => (resolve = done)));
    await settle();
    expect(confirm().disabled).toBe(true);
    expect(screen.getByTestId('review-why').textContent).toMatch(/waits for the check and simulation/);
    expect(confirm().getAttribute('aria-describedby')).toBe('review-why');
    resolve(preview());
    await settle();
    expect(screen.getByTestId('review-why').textContent).toMatch(/tick each warning/);
  });

  it('a first swap with the service: trusting its router is one tick in the review, sent with Confirm', async () => {
    const trustWarning = {
      code: 'ROUTER_UNPINNED',
      level: 'warning' as const,
      message: `This is the first swap with this service on this network. Its router contract ${ROUTER} …`,
      needsAcknowledgement: true,
    };
    const { props } = show(
      {},
      Promise.resolve(preview({ warnings: [trustWarning], routerTrust: { status: 'new', pinned: null } })),
    );
    await settle();
    const trust = screen.getByRole('region', { name: 'Trust this swap router?' });
    expect(trust.textContent).toContain(ROUTER);
    // Said once, in the trust section, not again in the warnings list.
    expect(screen.queryByRole('list', { name: 'Warnings' })).toBeNull();
    expect(confirm().disabled).toBe(true);
    expect(screen.getByTestId('review-why').textContent).toBe(
      'To confirm, tick that you trust the router above.',
    );
    fireEvent.click(
      screen.getByRole('checkbox', { name: 'I trust this router with my swaps on this service' }),
    );
    expect(confirm().disabled).toBe(false);
    fireEvent.click(confirm());
    expect(props.onConfirm).toHaveBeenCalledWith(
      expect.objectContaining({ acknowledged: ['ROUTER_UNPINNED'] }),
    );
  });

  it('the router trust comes first in the body, and "Go to the tick" brings the tick Confirm waits for into focus', async () => {
    const trustWarning = {
      code: 'ROUTER_UNPINNED',
      level: 'warning' as const,
      message: 'first swap',
      needsAcknowledgement: true,
    };
    show(
      { figures: figures(1953) },
      Promise.resolve(preview({ warnings: [trustWarning], routerTrust: { status: 'new', pinned: null } })),
    );
    await settle();
    const trust = screen.getByRole('region', { name: 'Trust this swap router?' });
    const body = trust.parentElement as HTMLElement;
    // Before the figures: on a short window its tick is in view without scrolling.
    expect(body.firstElementChild).toBe(trust);
    const tick = screen.getByRole('checkbox', { name: 'I trust this router with my swaps on this service' });
    fireEvent.click(screen.getByRole('button', { name: 'Go to the tick' }));
    expect(document.activeElement).toBe(tick);
    fireEvent.click(tick);
    // Then the price impact's tick (10% or more) is the one Confirm waits for, and the button goes there.
    expect(screen.getByTestId('review-why').textContent).toMatch(/tick each warning/);
    fireEvent.click(screen.getByRole('button', { name: 'Go to the tick' }));
    const impactTick = document.activeElement as HTMLInputElement;
    expect(impactTick.type).toBe('checkbox');
    expect(impactTick).not.toBe(tick);
    expect(impactTick.checked).toBe(false);
    fireEvent.click(impactTick);
    expect(confirm().disabled).toBe(false);
    expect(screen.queryByRole('button', { name: 'Go to the tick' })).toBeNull();
  });

  it('a changed router shows the one trusted before and asks the deliberate tick', async () => {
    const OLD = '0x2222222222222222222222222222222222222222';
    const changed = {
      code: 'ROUTER_CHANGED',
      level: 'danger' as const,
      message: 'changed',
      needsAcknowledgement: true,
    };
    show(
      {},
      Promise.resolve(preview({ warnings: [changed], routerTrust: { status: 'changed', pinned: OLD } })),
    );
    await settle();
    const trust = screen.getByRole('region', { name: 'The swap router changed' });
    expect(trust.textContent).toContain(`Trusted until now: ${OLD}`);
    fireEvent.click(screen.getByRole('checkbox', { name: /operator told me the router changed/ }));
    expect(confirm().disabled).toBe(false);
  });

  it('the countdown never goes up for the same quote, and never past the quote the preview capped', async () => {
    const { props, view } = show({}, Promise.resolve(preview({ expiresAt: NOW + 20_000 })));
    await settle();
    expect(screen.getByTestId('review-countdown').textContent).toBe('Quote valid for 20s');
    // A re-check (another approval choice) answers a later expiry for the same quote: not shown.
    (props.loadPreview as ReturnType<typeof vi.fn>).mockImplementation(() =>
      Promise.resolve(preview({ expiresAt: NOW + 50_000 })),
    );
    view.rerender(<ReviewSheet {...props} now={NOW + 1_000} />);
    await settle();
    expect(screen.getByTestId('review-countdown').textContent).toBe('Quote valid for 19s');
  });

  it('a Confirm refused (the quote expired in the background) is said beside "Get a new quote"', async () => {
    const { props } = show({ error: 'The reviewed quote expired. Nothing was signed: get a new quote.' });
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('The reviewed quote expired');
    fireEvent.click(screen.getByRole('button', { name: 'Get a new quote' }));
    expect(props.onRefresh).toHaveBeenCalledOnce();
  });

  it('"Get a new quote" that brings none says why and is offered again', async () => {
    const { props, view } = show({ now: NOW + 26_000 });
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Get a new quote' }));
    expect((screen.getByRole('button', { name: 'Getting a new quote…' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    view.rerender(
      <ReviewSheet {...props} now={NOW + 29_000} quoteProblem="The swap service is unavailable." />,
    );
    await settle();
    expect(screen.getByRole('alert').textContent).toContain(
      'Swaplane could not get a new quote: The swap service is unavailable.',
    );
    expect((screen.getByRole('button', { name: 'Get a new quote' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it("while a re-check loads (another approval choice), the countdown keeps the earlier preview's end", async () => {
    const token = {
      ...usdc,
      address: '0x6b175474e89094c44da98b954eedeac495271d0f',
      symbol: 'DAI',
      decimals: 18,
    };
    const { props, view } = show({ from: token }, Promise.resolve(preview({ expiresAt: NOW + 20_000 })));
    await settle();
    expect(screen.getByTestId('review-countdown').textContent).toBe('Quote valid for 20s');
    (props.loadPreview as ReturnType<typeof vi.fn>).mockImplementation(() => new Promise(() => undefined));
    fireEvent.click(screen.getByLabelText('Unlimited'));
    view.rerender(<ReviewSheet {...props} now={NOW + 1_000} />);
    await settle();
    expect(screen.getByTestId('review-countdown').textContent, 'never back up to the fallback').toBe(
      'Quote valid for 19s',
    );
  });

  it('a quote with no arrival time counts down from the review opening, not from each render', async () => {
    const { props, view } = show({ receivedAt: null }, new Promise(() => undefined));
    await settle();
    expect(screen.getByTestId('review-countdown').textContent).toBe(
      `Quote valid for ${QUOTE_LIFETIME_MS / 1000}s`,
    );
    view.rerender(<ReviewSheet {...props} now={NOW + 5_000} />);
    await settle();
    expect(screen.getByTestId('review-countdown').textContent).toBe(
      `Quote valid for ${QUOTE_LIFETIME_MS / 1000 - 5}s`,
    );
  });

  it('asks for a new preview when the approval mode changes, and closes on Cancel', async () => {
    const token = {
      ...usdc,
      address: '0x6b175474e89094c44da98b954eedeac495271d0f',
      symbol: 'DAI',
      decimals: 18,
    };
    const { props } = show({ from: token });
    await settle();
    fireEvent.click(screen.getByLabelText('Unlimited'));
    await settle();
    expect(props.loadPreview).toHaveBeenLastCalledWith('unlimited');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(props.onClose).toHaveBeenCalledOnce();
  });
});

describe('approvalWords', () => {
  const approval = { token: `0x${'a0'.repeat(20)}`, spender: `0x${'b1'.repeat(20)}`, resetFirst: false };
  it('says the approval in token units and the future tense', () => {
    const usdc = { symbol: 'USDC', decimals: 6 };
    expect(approvalWords({ ...approval, amount: '500000000', unlimited: false }, usdc)).toBe(
      'Swaplane will ask you to approve exactly 500 USDC for the router.',
    );
    expect(approvalWords({ ...approval, amount: '0', unlimited: true, resetFirst: true }, usdc)).toBe(
      'Swaplane will ask you to approve unlimited USDC for the router (after setting its allowance to 0).',
    );
  });
});
