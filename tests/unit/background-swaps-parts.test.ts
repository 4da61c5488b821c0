// The swap service's pieces that are plain functions (lib/background/swaps-review.ts and
// swaps-network.ts), tested without a quote session, an RPC or a swap machine.
import type { LocalAccount } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import { activeBalances, readerFor, replaceSent } from '@/lib/background/swaps-network';
import {
  type OpenReview,
  requireIdle,
  reviewToStart,
  settlerFor,
  swapInputFor,
} from '@/lib/background/swaps-review';
import type { WalletService } from '@/lib/background/wallet';
import type { BalanceReader } from '@/lib/rpc/balances';
import { SendError } from '@/lib/rpc/transactions';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { SwapMachine } from '@/lib/swap/execute';
import { WARNING_CODES } from '@/lib/swap/preview-words';
import { ReplaceError } from '@/lib/swap/replace';

const ACCOUNT = { address: `0x${'ab'.repeat(20)}` } as unknown as LocalAccount;
const REQUEST = { chainId: 1, inToken: '0xin', outToken: '0xout' };

function reviewWith(simulation: 'assets' | 'none', warnings: unknown[] = []): OpenReview {
  return {
    preview: {
      digest: '0xD1',
      expiresAt: Date.now() + 60_000,
      warnings,
      quote: { id: 'q' },
      simulation: { kind: simulation },
    },
    approvalMode: 'exact',
    request: REQUEST,
    release: () => undefined,
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

describe('swapInputFor', () => {
  const acknowledged = [WARNING_CODES.unreadable];

  it('signs the reviewed quote with the chosen approval, and a router consent only if given', () => {
    const input = swapInputFor(reviewWith('assets'), { approvalMode: 'unlimited' }, ACCOUNT);
    expect(input).toEqual({
      chainId: 1,
      account: ACCOUNT,
      request: REQUEST,
      quote: { id: 'q' },
      approvalMode: 'unlimited',
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

describe('replaceSent', () => {
  const wallet = { activeSigner: async () => ACCOUNT } as unknown as WalletService;
  const machine = (status: string, replace: SwapMachine['replace']) =>
    ({ current: () => ({ status }), replace }) as unknown as SwapMachine;

  it('refuses when no swap waits to be mined', async () => {
    await expect(replaceSent(() => null, wallet, 'speed-up')).rejects.toMatchObject({ code: 'NOT_PENDING' });
    const done = machine('confirmed', vi.fn());
    await expect(replaceSent(() => done, wallet, 'speed-up')).rejects.toMatchObject({ code: 'NOT_PENDING' });
  });

  it('replaces with the active signer, and codes the refusals', async () => {
    const replace = vi.fn(async () => ({ status: 'sent' }) as SwapState);
    await replaceSent(() => machine('sent', replace), wallet, 'cancel');
    expect(replace).toHaveBeenCalledWith('cancel', ACCOUNT);
    const tooMany = machine('sent', () =>
      Promise.reject(new ReplaceError('TOO_MANY_REPLACEMENTS', 'enough')),
    );
    await expect(replaceSent(() => tooMany, wallet, 'speed-up')).rejects.toMatchObject({
      code: 'TOO_MANY_REPLACEMENTS',
    });
    const refused = machine('sent', () => Promise.reject(new SendError('REPLACEMENT_UNDERPRICED', 'low')));
    await expect(replaceSent(() => refused, wallet, 'speed-up')).rejects.toMatchObject({
      code: 'REPLACEMENT_FAILED',
    });
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
