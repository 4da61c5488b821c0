import { encodeAbiParameters, pad } from 'viem';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NATIVE_TOKEN_ADDRESS, type Quote } from '@/lib/api/schema';
import { assetViolations, readAssetLogs, SIM_GAS, simulationGas } from '@/lib/swap/asset-sim';
import { canonicalJson, quoteDigest } from '@/lib/swap/digest';
import { swapGasEstimate } from '@/lib/swap/network-fee';
import type { SwapPreview } from '@/lib/swap/preview';
import { previewWarnings } from '@/lib/swap/preview-words';
import { checkStart } from '@/lib/swap/review-binding';
import { createQuoteSession } from '@/lib/swap/session';
import { DAI, USDC } from '../support/addresses';
import { quoteFixture } from '../support/quotes';

const ME = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ROUTER = '0xb19b36b1456E65E3A6D514D3F715f204BD59f431';
const THIEF = '0x000000000000000000000000000000000000dEaD';

const quote = quoteFixture({
  bestRoute: [{ percent: 100, swaps: [{ pool: ROUTER, tokenIn: NATIVE_TOKEN_ADDRESS, tokenOut: USDC }] }],
  contractAddress: ROUTER,
});

describe('the quote digest', () => {
  it('is the same whatever the field order, and changes with any field', () => {
    const reordered = Object.fromEntries(Object.entries(quote).reverse()) as Quote;
    expect(quoteDigest(reordered)).toBe(quoteDigest(quote));
    expect(quoteDigest({ ...quote, minReceived: '2984999999' })).not.toBe(quoteDigest(quote));
    expect(quoteDigest({ ...quote, extra: 1 } as Quote)).not.toBe(quoteDigest(quote));
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":2,"d":1}]}');
  });
});

function preview(over: Partial<SwapPreview> = {}): SwapPreview {
  return {
    quote,
    digest: quoteDigest(quote),
    reviewedAt: 1_000,
    expiresAt: 61_000,
    transaction: { to: ROUTER, data: '0x', value: quote.inAmount },
    approval: null,
    fees: {
      swap: {
        gasLimit: '1',
        maxFeePerGas: '1',
        maxPriorityFeePerGas: '1',
        expected: '1',
        max: '1',
        capped: false,
      },
      approval: null,
      totalExpected: '1',
      totalMax: '1',
    },
    balanceChanges: [],
    approvalsGranted: [],
    simulation: { kind: 'assets', missing: [] },
    calldata: { readable: true, family: 'swaplane-router' },
    warnings: [],
    ...over,
  };
}

describe('startSwap signs the reviewed quote or nothing', () => {
  const review = { preview: preview(), approvalMode: 'exact' as const };
  const start = { quoteDigest: quoteDigest(quote), approvalMode: 'exact' as const };

  it('accepts the reviewed digest before expiry', () => {
    expect(checkStart(review, start, 2_000)).toBeNull();
  });
  it('refuses a start without a digest: a view cannot skip the review', () => {
    expect(checkStart(review, { approvalMode: 'exact' }, 2_000)?.code).toBe('REVIEW_REQUIRED');
  });
  it('refuses another quote (QUOTE_CHANGED), and any start with no review open', () => {
    const other = quoteDigest({ ...quote, minReceived: '2293000000' });
    expect(checkStart(review, { ...start, quoteDigest: other }, 2_000)?.code).toBe('QUOTE_CHANGED');
    expect(checkStart(null, start, 2_000)?.code).toBe('QUOTE_CHANGED');
  });
  it('refuses after expiry and with another approval choice', () => {
    expect(checkStart(review, start, 61_000)?.code).toBe('QUOTE_EXPIRED');
    expect(checkStart(review, { ...start, approvalMode: 'unlimited' }, 2_000)?.code).toBe('REVIEW_REQUIRED');
  });
  it('requires every warning that needs it to be acknowledged, by code', () => {
    const warned = {
      ...review,
      preview: preview({
        warnings: [
          {
            code: 'UNREADABLE_CALLDATA',
            level: 'danger',
            message: 'Unreadable.',
            needsAcknowledgement: true,
          },
          { code: 'FEE_CAPPED', level: 'info', message: 'Capped.', needsAcknowledgement: false },
        ],
      }),
    };
    expect(checkStart(warned, start, 2_000)?.code).toBe('ACKNOWLEDGEMENT_REQUIRED');
    expect(checkStart(warned, { ...start, acknowledged: ['UNREADABLE_CALLDATA'] }, 2_000)).toBeNull();
  });
});

describe('the quote session holds a quote under review', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('no automatic refresh replaces the reviewed quote until the hold ends', async () => {
    let calls = 0;
    const session = createQuoteSession({
      quote: async (request) => {
        calls++;
        return {
          quote: { ...quote, ...request, outAmount: String(3_000_000_000 - calls) } as Quote,
          timestamp: '',
        };
      },
      describeError: () => ({ title: '', detail: '', action: '' }),
      persist: async () => undefined,
      policy: { debounceMs: 10, refreshMs: 1_000, staleAfterMs: 60_000, maxRefreshes: 100 },
    });
    session.watch();
    session.setInput({
      chainId: 1,
      inToken: NATIVE_TOKEN_ADDRESS,
      outToken: USDC,
      inAmount: '1',
      slippage: 0,
    });
    await vi.advanceTimersByTimeAsync(20);
    expect(calls).toBe(1);
    const release = session.hold(Date.now() + 10_000);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(calls).toBe(1); // refreshMs passed many times over: held
    release();
    await vi.advanceTimersByTimeAsync(1_100);
    expect(calls).toBe(2);
    session.dispose();
  });
});

describe('asset-change rules', () => {
  const transfer = (token: string, from: string, to: string, value: bigint) => ({
    address: token,
    topics: [
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      pad(from as `0x${string}`),
      pad(to as `0x${string}`),
    ] as `0x${string}`[],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  });
  const approval = (token: string, owner: string, spender: string, value: bigint) => ({
    ...transfer(token, owner, spender, value),
    topics: [
      '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
      pad(owner as `0x${string}`),
      pad(spender as `0x${string}`),
    ] as `0x${string}`[],
  });
  const rules = (logs: ReturnType<typeof transfer>[]) => {
    const { deltas, granted } = readAssetLogs(logs, ME);
    return assetViolations({
      deltas,
      granted,
      inToken: NATIVE_TOKEN_ADDRESS,
      outToken: USDC,
      inAmount: 100n,
      minReceived: 50n,
      router: ROUTER,
    }).map((v) => v.code);
  };

  it('the honest swap passes', () => {
    expect(
      rules([transfer(NATIVE_TOKEN_ADDRESS, ME, ROUTER, 100n), transfer(USDC, ROUTER, ME, 60n)]),
    ).toEqual([]);
  });
  it('output sent to another address reads as nothing received', () => {
    expect(
      rules([transfer(NATIVE_TOKEN_ADDRESS, ME, ROUTER, 100n), transfer(USDC, ROUTER, THIEF, 60n)]),
    ).toEqual(['OUTPUT_LOW']);
  });
  it('more input than quoted, another asset taken, an approval to someone else', () => {
    expect(
      rules([
        transfer(NATIVE_TOKEN_ADDRESS, ME, ROUTER, 101n),
        transfer(USDC, ROUTER, ME, 60n),
        transfer(DAI, ME, THIEF, 1n),
        approval(DAI, ME, THIEF, 5n),
      ]),
    ).toEqual(['INPUT_OVERSPENT', 'OTHER_ASSET_DECREASE', 'FOREIGN_APPROVAL']);
  });
});

describe('the simulated swap gas', () => {
  it('grows with the route (a split over many pools would run out of a fixed limit), never below SIM_GAS', () => {
    const share = (pools: number) => ({ percent: 10, swaps: Array.from({ length: pools }, () => ({})) });
    expect(simulationGas([share(1)])).toBe(SIM_GAS);
    const wide = Array.from({ length: 10 }, () => share(3));
    expect(simulationGas(wide)).toBe(swapGasEstimate(wide) * 2n);
    expect(simulationGas(wide)).toBeGreaterThan(SIM_GAS);
  });
});

const ROUTER_SHOWN = '0x6615Ca81178Eb7846b6235485021636365048154';

describe('a slippage above 5% needs a tick in the review', () => {
  const base = { readable: true, missing: [], highFee: false, feeCapped: false, consent: null, router: '0x' };
  it('asks for an acknowledgement above 5%, not at 5%', () => {
    expect(previewWarnings({ ...base, slippage: 5 })).toEqual([]);
    expect(previewWarnings({ ...base, slippage: 12 })).toEqual([
      expect.objectContaining({ code: 'HIGH_SLIPPAGE', needsAcknowledgement: true, level: 'danger' }),
    ]);
    expect(previewWarnings({ ...base, slippage: 12 })[0]?.message).toContain('12%');
  });
});

describe('trusting a router is a tick in the review, never a question after Confirm', () => {
  const base = { readable: true, missing: [], highFee: false, feeCapped: false, router: ROUTER_SHOWN };
  it('a first router and a changed one each need their own acknowledgement, naming the address', () => {
    for (const consent of ['ROUTER_UNPINNED', 'ROUTER_CHANGED'] as const) {
      const [warning] = previewWarnings({ ...base, consent });
      expect(warning).toMatchObject({ code: consent, needsAcknowledgement: true });
      expect(warning?.message).toContain(ROUTER_SHOWN);
    }
    expect(previewWarnings({ ...base, consent: null })).toEqual([]);
  });
  it('startSwap refuses a review that asked for the trust without the tick: nothing is signed', () => {
    const [warning] = previewWarnings({ ...base, consent: 'ROUTER_UNPINNED' });
    const review = {
      preview: { digest: '0xd1', expiresAt: 2_000, warnings: [warning] } as unknown as SwapPreview,
      approvalMode: 'exact' as const,
    };
    const start = { quoteDigest: '0xd1', approvalMode: 'exact' as const };
    expect(checkStart(review, start, 1_000)?.code).toBe('ACKNOWLEDGEMENT_REQUIRED');
    expect(checkStart(review, { ...start, acknowledged: ['ROUTER_UNPINNED'] }, 1_000)).toBeNull();
  });
});
