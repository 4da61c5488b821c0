// The prepared swap (lib/swap/prepare.ts, lib/state/prepared-swap.ts) as a value: its stored form
// read back (bigints through storage.session's JSON), the review's words derived from it, and its
// plan for the real signing funnel. prepareSwap itself runs against the devnet and the service in
// tests/integration/signing-funnel.test.ts.
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { feeCeilingFor } from '@/lib/rpc/fee-ceiling';
import { type PreparedSwap, preparedSwapOf, storedPreparedSwap } from '@/lib/state/prepared-swap';
import { preparedSwapItem } from '@/lib/storage/items';
import { createSigningFunnel } from '@/lib/swap/funnel';
import { previewOf, swapPlanOf } from '@/lib/swap/prepare';
import { USDC } from '../support/addresses';
import { requestOf } from '../support/quotes';
import { ROUTER, USDC_DAI_BUILD, USDC_DAI_QUOTE } from '../support/swaps';

const ME = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d').address;
const GWEI = 10n ** 9n;

function prepared(over: Partial<PreparedSwap> = {}): PreparedSwap {
  const fees = { maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI, baseFee: GWEI, capped: false };
  return {
    id: 'prepared-1',
    chainId: 1,
    from: ME,
    request: requestOf(USDC_DAI_QUOTE),
    quote: USDC_DAI_QUOTE,
    digest: '0xd1',
    approvalMode: 'exact',
    unreadable: 'refuse',
    build: USDC_DAI_BUILD,
    call: { to: ROUTER, data: USDC_DAI_BUILD.transaction, value: 0n },
    calldata: { readable: true, family: 'swaplane-router' },
    consent: null,
    pinned: null,
    allowance: { plan: 'approve', allowance: 0n, amount: 100_000_000n, unlimited: false },
    approvals: [{ step: 'approve', to: USDC, data: '0x095ea7b3', amount: 100_000_000n }],
    fees,
    nonce: 4,
    simulation: {
      status: 'passed',
      deltas: [{ token: USDC.toLowerCase(), delta: -100_000_000n }],
      granted: [],
      gasUsed: [46_000n, 120_000n],
      violations: [],
    },
    coverage: { kind: 'assets', missing: [], swapGas: 120_000n, approvalGas: [46_000n] },
    shownFees: {
      swap: {
        gasLimit: '150000',
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
        expected: (120_000n * 2n * GWEI).toString(),
        max: (150_000n * 3n * GWEI).toString(),
        capped: false,
      },
      approval: {
        gasLimit: '57500',
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
        expected: (46_000n * 2n * GWEI).toString(),
        max: (57_500n * 3n * GWEI).toString(),
        capped: false,
      },
    },
    balanceChanges: [{ token: USDC, symbol: 'USDC', decimals: 6, delta: '-100000000' }],
    reviewedAt: 1_000,
    expiresAt: 61_000,
    ...over,
  };
}

describe('the prepared swap in storage.session', () => {
  it('reads back equal, bigints included, through the storage item', async () => {
    fakeBrowser.reset();
    const value = prepared();
    await preparedSwapItem.set(storedPreparedSwap(value));
    const read = await preparedSwapItem.read();
    expect(read.ok).toBe(true);
    const back = preparedSwapOf(read.ok ? read.value : null);
    expect(back).toEqual(value);
    expect(typeof back.call.value).toBe('bigint');
  });

  it('refuses a stored value that is not a prepared swap (a negative amount, a bad address)', () => {
    const stored = storedPreparedSwap(prepared());
    expect(() => preparedSwapOf({ ...stored, call: { ...stored.call, value: '-1' } })).toThrow();
    expect(() => preparedSwapOf({ ...stored, from: '0xdead' })).toThrow();
    expect(() =>
      preparedSwapOf({ ...stored, simulation: { ...stored.simulation, violations: [{}] } }),
    ).toThrow();
  });
});

describe('previewOf: the review’s words from the prepared swap', () => {
  it('shows the checked call, the approval, and the fees summed over both transactions', () => {
    const preview = previewOf(prepared());
    expect(preview.transaction).toEqual({ to: ROUTER, data: USDC_DAI_BUILD.transaction, value: '0' });
    expect(preview.approval).toMatchObject({
      token: USDC,
      spender: ROUTER,
      amount: '100000000',
      resetFirst: false,
    });
    expect(BigInt(preview.fees.totalMax)).toBe((150_000n + 57_500n) * 3n * GWEI);
    expect(preview.simulation).toEqual({ kind: 'assets', missing: [] });
    expect(preview.warnings).toEqual([]);
  });

  it('asks for consent to a new router and shows no approval when none is needed', () => {
    const preview = previewOf(
      prepared({
        consent: 'ROUTER_UNPINNED',
        allowance: { plan: 'none', allowance: 10n ** 9n, amount: 0n, unlimited: false },
        shownFees: { ...prepared().shownFees, approval: null },
      }),
    );
    expect(preview.approval).toBeNull();
    expect(preview.fees.totalMax).toBe(preview.fees.swap.max);
    expect(preview.warnings.map((w) => w.code)).toContain('ROUTER_UNPINNED');
  });
});

describe('swapPlanOf: the review’s plan in the real funnel', () => {
  it('passes the funnel with the fee the review shows, and is refused above the ceiling', () => {
    const value = prepared();
    const funnel = createSigningFunnel({ ceilingFor: (chainId) => feeCeilingFor(chainId), now: () => 1_000 });
    const ticket = funnel.review(swapPlanOf(value), {
      shownFee: value.shownFees.swap,
      expiresAt: value.expiresAt,
    });
    expect(ticket.plan).toMatchObject({ kind: 'swap', to: ROUTER, gas: 150_000n, gasUsed: 120_000n });
    const low = createSigningFunnel({
      ceilingFor: () => ({ maxFeePerGas: GWEI, maxPriorityFeePerGas: GWEI }),
    });
    expect(() => low.review(swapPlanOf(value), { shownFee: value.shownFees.swap })).toThrow(
      expect.objectContaining({ code: 'FEE_ABOVE_CEILING' }),
    );
  });
});
