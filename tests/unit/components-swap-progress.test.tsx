// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leftApproval, type ReplaceActions, SwapProgress } from '@/components/SwapProgress';
import type { SwapState, SwapStep } from '@/lib/state/pipeline-state';
import * as TOKENS from '../support/addresses';
import { sentTxFixture, swapStateFixture } from '../support/swaps';

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = TOKENS.lowercase.USDC;
const HASH = `0x${'ab'.repeat(32)}`;
/** A revoke's or replacement's fee as the background reviews it: about 0.001, at most 0.003 ETH. */
const FEE = {
  gasLimit: '60000',
  maxFeePerGas: '50000000000',
  maxPriorityFeePerGas: '1000000000',
  expected: '1000000000000000',
  max: '3000000000000000',
  capped: false,
};

const base: SwapState = swapStateFixture({
  status: 'failed',
  request: { chainId: 1, inToken: ETH, outToken: USDC, inAmount: '1', slippage: 0.5 },
});

function failedAt(step: SwapStep, patch: Partial<SwapState> = {}): SwapState {
  return {
    ...base,
    ...patch,
    failure: {
      step,
      code: 'UNEXPECTED',
      message: { title: 'Something went wrong', detail: 'Nothing was sent.', action: 'Try again.' },
      anythingSent: false,
    },
  };
}

/** SwapProgress for `swap` on a local chain; `props` overrides its callbacks. */
function renderProgress(swap: SwapState, props: Partial<Parameters<typeof SwapProgress>[0]> = {}) {
  render(
    <SwapProgress
      swap={swap}
      outSymbol="USDC"
      outDecimals={6}
      localChain
      onConsent={() => undefined}
      onDone={() => undefined}
      native={{ symbol: 'ETH', decimals: 18 }}
      {...props}
    />,
  );
  const steps = screen.getAllByRole('listitem');
  const labelled = (state: string) =>
    steps.filter((li) => li.classList.contains(`step-${state}`)).map((li) => li.textContent ?? '');
  return { failed: labelled('failed'), done: labelled('done'), active: labelled('active') };
}

afterEach(cleanup);

describe('SwapProgress marks the step a swap failed at', () => {
  it.each([
    ['build', 'Build the transaction', 0],
    ['quote', 'Build the transaction', 0],
    ['check', 'Check the build, balances and simulation', 1],
    ['preflight', 'Check the build, balances and simulation', 1],
    ['simulate', 'Simulate the swap', 2],
    ['send', 'Sign and send', 3],
  ] as const)('failure at %s marks "%s" failed', (step, label, doneBefore) => {
    const { failed, done, active } = renderProgress(failedAt(step));
    expect(failed).toEqual([expect.stringContaining(label)]);
    expect(done).toHaveLength(doneBefore);
    expect(active).toEqual([]);
  });

  it('a restart before anything was built fails the build step; after the send, the wait', () => {
    expect(renderProgress(failedAt('resume')).failed).toEqual([
      expect.stringContaining('Build the transaction'),
    ]);
    cleanup();
    const tx = sentTxFixture({ hash: HASH });
    expect(renderProgress(failedAt('resume', { tx })).failed).toEqual([
      expect.stringContaining('Wait for confirmation'),
    ]);
  });
});

describe('SwapProgress after a failed swap that left its approval', () => {
  const approvalTx = {
    ...sentTxFixture({ hash: HASH, nonce: 3, gasLimit: '60000', sentAt: 1 }),
    step: 'approve' as const,
    amount: '1000000',
    status: 'confirmed' as const,
    gasPaid: '1',
  };
  const approval = (status: 'confirmed' | 'failed') => ({
    token: USDC,
    spender: ETH,
    plan: 'approve' as const,
    unlimited: false,
    allowance: '0',
    required: '1000000',
    txs: [{ ...approvalTx, status }],
  });

  it('offers to revoke the approval, shows its network fee first, and says what happened', async () => {
    const preview = vi.fn(async () => ({ reviewId: 'r1', fee: FEE }));
    const confirm = vi.fn(() => Promise.resolve('Revoked.'));
    renderProgress(failedAt('send', { approval: approval('confirmed') }), { revoke: { preview, confirm } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Revoke the approval' }));
    });
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.getByTestId('fee-review-fee').textContent).toContain('at most 0.003 ETH');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm revoke' }));
    });
    expect(confirm).toHaveBeenCalledExactlyOnceWith('r1');
    expect((await screen.findByRole('status')).textContent).toBe('Revoked.');
    // One Confirm per review: the button is gone once clicked.
    expect(screen.queryByRole('button', { name: 'Confirm revoke' })).toBeNull();
  });

  it('offers nothing when the approval itself failed or there was none', () => {
    expect(leftApproval(failedAt('send', { approval: approval('failed') }))).toBe(false);
    expect(leftApproval(failedAt('send'))).toBe(false);
    expect(leftApproval(failedAt('send', { approval: approval('confirmed') }))).toBe(true);
  });
});

describe('SwapProgress › a failure a new quote mends', () => {
  it('says the reason with "Get a new quote" in the sheet; other failures go back to the quote', () => {
    const onNewQuote = vi.fn();
    const outdated = failedAt('quote');
    if (outdated.failure) outdated.failure = { ...outdated.failure, code: 'QUOTE_OUTDATED' };
    renderProgress(outdated, { onNewQuote });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Something went wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Get a new quote' }));
    expect(onNewQuote).toHaveBeenCalledOnce();
    cleanup();
    renderProgress(failedAt('send'), { onNewQuote });
    expect(screen.queryByRole('button', { name: 'Get a new quote' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Back to the quote' })).toBeTruthy();
  });
});

describe('SwapProgress › trusting a router', () => {
  const NEW_ROUTER = '0x1111111111111111111111111111111111111111';
  const OLD_ROUTER = '0x2222222222222222222222222222222222222222';

  const renderConsent = (consent: SwapState['consent'], onConsent: (router: string) => void) =>
    renderProgress({ ...base, status: 'needs-consent', failure: null, consent }, { onConsent });

  it('asks plainly on a first swap with a service', () => {
    const onConsent = vi.fn();
    renderConsent({ kind: 'ROUTER_UNPINNED', router: NEW_ROUTER, pinned: null }, onConsent);
    fireEvent.click(screen.getByRole('button', { name: 'Trust this router and swap' }));
    expect(onConsent).toHaveBeenCalledWith(NEW_ROUTER);
  });

  it('makes trusting a changed router a deliberate step that says what a changed contract means', () => {
    const onConsent = vi.fn();
    renderConsent({ kind: 'ROUTER_CHANGED', router: NEW_ROUTER, pinned: OLD_ROUTER }, onConsent);
    const alert = screen.getByTestId('swap-consent');
    expect(alert.textContent).toContain("This swap service's contract is not the one you trusted");
    expect(alert.textContent).toContain('take them');
    expect(alert.textContent).toContain(OLD_ROUTER);
    const trust = screen.getByRole('button', { name: 'Trust the new router and swap' });
    expect((trust as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(trust);
    expect(onConsent).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('checkbox', { name: /I trust the new one/ }));
    fireEvent.click(trust);
    expect(onConsent).toHaveBeenCalledWith(NEW_ROUTER);
  });
});

describe('SwapProgress › a swap waiting to be mined', () => {
  const sent = swapStateFixture({
    status: 'sent',
    request: { chainId: 1, inToken: ETH, outToken: USDC, inAmount: '1', slippage: 0.5 },
    tx: {
      hash: HASH,
      nonce: 7,
      raw: '0x02',
      gasLimit: '300000',
      maxFeePerGas: '1000000000',
      explorerUrl: null,
      signedAt: 1,
      sentAt: 1,
    },
  });

  const renderPending = (swap: SwapState, confirm: ReplaceActions['confirm']) =>
    renderProgress(swap, { replace: { preview: async () => ({ reviewId: 'r1', fee: FEE }), confirm } });

  it('offers Speed up and Cancel transaction, shows the new fee, and confirms once', async () => {
    const confirm = vi.fn(async () => 'Sped up.');
    renderPending(sent, confirm);
    expect(screen.getByTestId('pending-actions').textContent).toContain('Pending: waiting for the network');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Speed up' }));
    });
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.getByTestId('fee-review-fee').textContent).toContain('Network fee: about');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm speed up' }));
    });
    expect(confirm).toHaveBeenCalledExactlyOnceWith('speed-up', 'r1');
    cleanup();
    renderPending(
      {
        ...sent,
        replacements: [{ kind: 'cancel', replacedHash: HASH, hash: `0x${'cd'.repeat(32)}`, at: 2 }],
      },
      confirm,
    );
    expect(screen.getByTestId('pending-actions').textContent).toContain('Cancel sent (replaced 1×)');
  });

  it('shows why a replacement was refused', async () => {
    renderPending(sent, async () => {
      throw new Error('The network refused the replacement: replacement transaction underpriced');
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel transaction' }));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm cancel' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('underpriced'));
  });
});
