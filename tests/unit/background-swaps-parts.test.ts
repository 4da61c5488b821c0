// The swap service's pieces that are plain functions (lib/background/swaps-review.ts and
// swaps-network.ts), tested without a quote session, an RPC or a swap machine.
import type { LocalAccount } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import { createSigning } from '@/lib/background/signing';
import {
  activeBalances,
  previewReplacement,
  readerFor,
  sendReviewedReplacement,
} from '@/lib/background/swaps-network';
import {
  type OpenReview,
  requireIdle,
  reviewExpiry,
  reviewToStart,
  settlerFor,
  swapInputFor,
} from '@/lib/background/swaps-review';
import type { WalletService } from '@/lib/background/wallet';
import type { BalanceReader } from '@/lib/rpc/balances';
import { feeEstimate } from '@/lib/rpc/fees';
import { StoredTxError } from '@/lib/rpc/stored-tx';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { SwapMachine } from '@/lib/swap/execute';
import type { TransactionPlan } from '@/lib/swap/funnel';
import { WARNING_CODES } from '@/lib/swap/preview-words';
import { ReplaceError } from '@/lib/swap/replace';
import { QUOTE_LIFETIME_MS } from '@/lib/swap/review';
import { DEFAULT_QUOTE_POLICY } from '@/lib/swap/session';

const ACCOUNT = { address: `0x${'ab'.repeat(20)}` } as unknown as LocalAccount;
const REQUEST = { chainId: 1, inToken: '0xin', outToken: '0xout' };

const TX = { to: `0x${'cd'.repeat(20)}`, data: '0x1234', value: '0' };
const PREPARED = { id: 'prepared-1', build: { to: TX.to, transaction: TX.data, value: TX.value } };

function reviewWith(
  simulation: 'assets' | 'none',
  warnings: unknown[] = [],
  routerTrust?: { status: string; pinned: string | null },
): OpenReview {
  return {
    preview: {
      ...(routerTrust ? { routerTrust } : {}),
      digest: '0xD1',
      expiresAt: Date.now() + 60_000,
      warnings,
      quote: { id: 'q' },
      simulation: { kind: simulation },
      transaction: TX,
    },
    approvalMode: 'exact',
    request: REQUEST,
    release: () => undefined,
    prepared: PREPARED,
  } as unknown as OpenReview;
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('requireIdle and reviewToStart', () => {
  it('refuses while a swap runs', () => {
    expect(codeOf(() => requireIdle(true))).toBe('SWAP_IN_PROGRESS');
    expect(codeOf(() => requireIdle(false))).toBeUndefined();
  });

  it('gives the reviewed quote only for its digest, and nothing without a review', () => {
    const review = reviewWith('assets');
    expect(reviewToStart(review, { approvalMode: 'exact', quoteDigest: '0xd1' })).toBe(review);
    expect(codeOf(() => reviewToStart(review, { approvalMode: 'exact' }))).toBe('REVIEW_REQUIRED');
    expect(codeOf(() => reviewToStart(review, { approvalMode: 'exact', quoteDigest: '0xd2' }))).toBe(
      'QUOTE_CHANGED',
    );
    expect(codeOf(() => reviewToStart(null, { approvalMode: 'exact', quoteDigest: '0xd1' }))).toBe(
      'QUOTE_CHANGED',
    );
  });
});

describe('the router trusted inside the review', () => {
  const firstSwap = {
    code: WARNING_CODES.routerNew,
    level: 'warning',
    message: 'first swap',
    needsAcknowledgement: true,
  };
  const review = () => reviewWith('assets', [firstSwap], { status: 'new', pinned: null });
  const start = { approvalMode: 'exact' as const, quoteDigest: '0xd1' };

  it('refuses a start to a router never trusted without the review tick: nothing is signed', () => {
    expect(codeOf(() => reviewToStart(review(), start))).toBe('ACKNOWLEDGEMENT_REQUIRED');
    expect(swapInputFor(review(), start, ACCOUNT).routerConsent).toBeUndefined();
  });

  it("with the tick, the swap trusts the reviewed router (the build's address, not one the view names)", () => {
    const ticked = { ...start, acknowledged: [WARNING_CODES.routerNew] };
    expect(reviewToStart(review(), ticked)).toBeTruthy();
    expect(swapInputFor(review(), ticked, ACCOUNT).routerConsent).toBe(TX.to);
    // A tick for a review that asked no trust gives none.
    expect(swapInputFor(reviewWith('assets'), ticked, ACCOUNT).routerConsent).toBeUndefined();
  });

  it('a changed router needs its own tick: the first-swap tick does not trust it', () => {
    const changed = reviewWith('assets', [{ ...firstSwap, code: WARNING_CODES.routerChanged }], {
      status: 'changed',
      pinned: `0x${'ee'.repeat(20)}`,
    });
    const wrongTick = { ...start, acknowledged: [WARNING_CODES.routerNew] };
    expect(codeOf(() => reviewToStart(changed, wrongTick))).toBe('ACKNOWLEDGEMENT_REQUIRED');
    expect(swapInputFor(changed, wrongTick, ACCOUNT).routerConsent).toBeUndefined();
    const ticked = { ...start, acknowledged: [WARNING_CODES.routerChanged] };
    expect(swapInputFor(changed, ticked, ACCOUNT).routerConsent).toBe(TX.to);
  });
});

describe('reviewExpiry', () => {
  it("never outlives the quote: capped at the quote's lifetime from when it arrived", () => {
    expect(reviewExpiry(1_000_000, 990_000, 30_000)).toBe(1_020_000);
    expect(reviewExpiry(1_000_000, 1_000_000, 300_000)).toBe(1_060_000);
    expect(reviewExpiry(1_000_000, null, 30_000)).toBe(1_060_000);
  });

  it("ends when the session calls the quote too old, and the popup's countdown never shows later", () => {
    // One figure: the session's staleness is the quote lifetime the review and its countdown use.
    expect(DEFAULT_QUOTE_POLICY.staleAfterMs).toBe(QUOTE_LIFETIME_MS);
    const receivedAt = 5_000_000;
    for (let opened = receivedAt; opened <= receivedAt + QUOTE_LIFETIME_MS; opened += 1_000) {
      const ends = reviewExpiry(opened, receivedAt, DEFAULT_QUOTE_POLICY.staleAfterMs);
      expect(ends).toBeLessThanOrEqual(receivedAt + QUOTE_LIFETIME_MS);
      expect(ends).toBeGreaterThanOrEqual(opened);
    }
  });
});

describe('swapInputFor', () => {
  const acknowledged = [WARNING_CODES.unreadable];

  it('signs the reviewed quote and its prepared swap, with the chosen approval, and a router consent only if given', () => {
    const input = swapInputFor(reviewWith('assets'), { approvalMode: 'exact' }, ACCOUNT);
    // The prepared swap (its build, its simulation) is what is signed: no second build.
    expect(input).toEqual({
      chainId: 1,
      account: ACCOUNT,
      request: REQUEST,
      quote: { id: 'q' },
      prepared: PREPARED,
      approvalMode: 'exact',
      unreadable: 'refuse',
    });
    const consented = swapInputFor(
      reviewWith('assets'),
      { approvalMode: 'exact', routerConsent: '0xr' },
      ACCOUNT,
    );
    expect(consented.routerConsent).toBe('0xr');
  });

  it('allows unreadable calldata only when acknowledged and the simulation proved the outcome', () => {
    expect(
      swapInputFor(reviewWith('assets'), { approvalMode: 'exact', acknowledged }, ACCOUNT).unreadable,
    ).toBe('allow');
    expect(
      swapInputFor(reviewWith('none'), { approvalMode: 'exact', acknowledged }, ACCOUNT).unreadable,
    ).toBe('refuse');
  });
});

describe('settlerFor', () => {
  function settleWith(state: Partial<SwapState>) {
    const notify = vi.fn();
    const markOutdated = vi.fn();
    const deps = { notify, session: { markOutdated } } as never;
    settlerFor(deps)(state as SwapState);
    return { notify, markOutdated };
  }

  it('notifies a confirmed swap, and a failed one only if something was sent', () => {
    expect(settleWith({ status: 'confirmed', failure: null }).notify).toHaveBeenCalledWith(
      'Swap confirmed',
      expect.any(String),
    );
    const sent = { code: 'REVERTED', anythingSent: true, message: { title: 'It reverted' } };
    expect(settleWith({ status: 'failed', failure: sent } as never).notify).toHaveBeenCalledWith(
      'Swap failed',
      'It reverted',
    );
    const unsent = { code: 'REVERTED', anythingSent: false, message: { title: 'x' } };
    expect(settleWith({ status: 'failed', failure: unsent } as never).notify).not.toHaveBeenCalled();
  });

  it('has a moved price quoted again', () => {
    const moved = { code: 'PRICE_CHANGED', anythingSent: false, message: { title: 'x' } };
    expect(settleWith({ status: 'failed', failure: moved } as never).markOutdated).toHaveBeenCalled();
  });
});

describe('previewReplacement and sendReviewedReplacement', () => {
  const wallet = { activeSigner: async () => ACCOUNT } as unknown as WalletService;
  const PLAN: TransactionPlan = {
    kind: 'cancel',
    chainId: 1,
    from: ACCOUNT.address,
    to: ACCOUNT.address,
    value: 0n,
    data: '0x',
    gasUsed: 21_000n,
    gas: 21_000n,
    fees: { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n },
    nonce: 7,
  };
  const FEE = feeEstimate(21_000n, 21_000n, { ...PLAN.fees, baseFee: 10n ** 9n, capped: false });
  const machine = (status: string, planReplace: SwapMachine['planReplace']) =>
    ({ current: () => ({ status, chainId: 1 }), planReplace }) as unknown as SwapMachine;
  const depsWith = () => ({
    wallet,
    signing: createSigning(() => DEFAULT_SETTINGS),
    settings: () => DEFAULT_SETTINGS,
  });

  it('refuses when no swap waits to be mined', async () => {
    const deps = depsWith();
    await expect(previewReplacement(() => null, deps, 'speed-up')).rejects.toMatchObject({
      code: 'NOT_PENDING',
    });
    const done = machine('confirmed', vi.fn());
    await expect(previewReplacement(() => done, deps, 'speed-up')).rejects.toMatchObject({
      code: 'NOT_PENDING',
    });
  });

  it('plans with the active account, records the review in the funnel, and codes the refusals', async () => {
    const deps = depsWith();
    const planReplace = vi.fn(async () => ({ plan: PLAN, fee: FEE }));
    const reviewed = await previewReplacement(() => machine('sent', planReplace), deps, 'cancel');
    expect(planReplace).toHaveBeenCalledWith('cancel', ACCOUNT.address, deps.signing.ceilingFor(1));
    expect(reviewed.fee).toEqual(FEE);
    // The review is the funnel's: taken once, for its kind only.
    expect(() => deps.signing.funnel.take(reviewed.reviewId, 'speed-up')).toThrow(
      /already confirmed or closed/,
    );
    const tooMany = machine('sent', () =>
      Promise.reject(new ReplaceError('TOO_MANY_REPLACEMENTS', 'enough')),
    );
    await expect(previewReplacement(() => tooMany, deps, 'speed-up')).rejects.toMatchObject({
      code: 'TOO_MANY_REPLACEMENTS',
    });
    const forged = machine('sent', () => Promise.reject(new StoredTxError('forged')));
    await expect(previewReplacement(() => forged, deps, 'speed-up')).rejects.toMatchObject({
      code: 'STORED_TX_FORGED',
    });
  });

  it('signs nothing without a review, nor twice with one', async () => {
    const deps = depsWith();
    const sendReplacement = vi.fn();
    const sent = {
      current: () => ({ status: 'sent', chainId: 1 }),
      sendReplacement,
    } as unknown as SwapMachine;
    await expect(sendReviewedReplacement(() => sent, deps, 'cancel', 'made-up')).rejects.toMatchObject({
      code: 'REVIEW_USED',
    });
    expect(sendReplacement).not.toHaveBeenCalled();
  });
});

describe('activeBalances and readerFor', () => {
  it('reads the active account’s balances, keyed by lowercase token; none without an account', async () => {
    const read = vi.fn(async () => ({ balances: new Map([['0xt', 5n]]) }));
    const reader = { read } as unknown as BalanceReader;
    const wallet = (activeId: string | null) =>
      ({
        state: async () => ({ accounts: [{ id: 'a', address: '0xA' }], activeId }),
      }) as unknown as WalletService;
    expect(await activeBalances(wallet(null), () => reader, ['0xT'])).toEqual({});
    expect(read).not.toHaveBeenCalled();
    expect(await activeBalances(wallet('a'), () => reader, ['0xT', '0xU'])).toEqual({ '0xt': '5' });
    expect(read).toHaveBeenCalledWith('0xA', ['0xT', '0xU']);
  });

  it('keeps one reader per chain and RPC', () => {
    const readers = new Map<string, BalanceReader>();
    const first = readerFor(readers, DEFAULT_SETTINGS, 1);
    expect(readerFor(readers, DEFAULT_SETTINGS, 1)).toBe(first);
    expect(readers.size).toBe(1);
  });
});
