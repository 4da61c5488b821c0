// @vitest-environment happy-dom

import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { SwapProgress } from '@/components/SwapProgress';
import type { SwapState, SwapStep } from '@/lib/state/pipeline-state';
import * as TOKENS from '../support/addresses';
import { swapStateFixture } from '../support/swaps';

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = TOKENS.lowercase.USDC;
const HASH = `0x${'ab'.repeat(32)}`;

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

function renderProgress(swap: SwapState) {
  render(
    <SwapProgress
      swap={swap}
      outSymbol="USDC"
      outDecimals={6}
      localChain
      onConsent={() => undefined}
      onDone={() => undefined}
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
    const tx = {
      hash: HASH,
      nonce: 1,
      raw: '0x01',
      gasLimit: '1',
      maxFeePerGas: '1',
      explorerUrl: null,
      signedAt: 1,
      sentAt: 2,
    };
    expect(renderProgress(failedAt('resume', { tx })).failed).toEqual([
      expect.stringContaining('Wait for confirmation'),
    ]);
  });
});
