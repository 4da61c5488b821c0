import { describe, expect, it } from 'vitest';
import type { Token } from '@/lib/api/schema';
import { networkStatus, probe } from '@/lib/chains/served';
import { createPriceCache } from '@/lib/prices/cache';
import { formatUsd, mainStablecoin, priceFromQuote, usdValue } from '@/lib/prices/usd';
import { grantedApprovals, isGranted } from '@/lib/swap/approvals-list';
import { balanceError, maxSpendable } from '@/lib/swap/balance-check';
import {
  formatImpact,
  impactLevel,
  PRICE_IMPACT_HIGH,
  priceImpactBps,
  priceImpactWarning,
  referenceInAmount,
} from '@/lib/swap/price-impact';
import { relativeTime, shortHash } from '@/lib/time/relative';

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
const token = (symbol: string, decimals = 18): Token => ({
  chainId: 1,
  address: `0x${symbol
    .padEnd(40, '1')
    .slice(0, 40)
    .replace(/[^0-9a-f]/gi, 'a')}`,
  name: symbol,
  symbol,
  decimals,
  logoURI: '',
});

describe('USD prices', () => {
  it('prices a token from a quote of one whole token into the stablecoin', () => {
    // 1 ETH -> 2,996.5 USDC: $2,996.50 per ETH, scaled by 1e8.
    const price = priceFromQuote(E18, 18, 2_996_500_000n, 6);
    expect(price).toBe(299_650_000_000n);
    expect(formatUsd(usdValue(3n * E18, 18, price))).toBe('$8,989.50');
  });
  it('says "—" when unknown and "<$0.01" for dust, never a float', () => {
    expect(formatUsd(null)).toBe('—');
    expect(formatUsd(usdValue(10n ** 12n, 18, 299_650_000_000n))).toBe('<$0.01');
    expect(usdValue(E18, 18, null)).toBeNull();
    expect(formatUsd(123_456_789_012_345n)).toBe('$1,234,567.89');
  });
  it('picks USDC over USDT and DAI as the main stablecoin, and null without one', () => {
    const list = [token('DAI'), token('WETH'), token('USDT', 6), token('USDC', 6)];
    expect(mainStablecoin(list)?.symbol).toBe('USDC');
    expect(mainStablecoin([token('WETH')])).toBeNull();
  });
  it('keeps prices briefly, then forgets them', () => {
    let now = 0;
    const cache = createPriceCache(() => now, 1_000);
    cache.set(1, '0xAbC', 5n);
    expect(cache.get(1, '0xabc')).toBe(5n);
    expect(cache.get(2, '0xabc')).toBeUndefined();
    now = 1_000;
    expect(cache.get(1, '0xabc')).toBeUndefined();
  });
});

describe('price impact', () => {
  it('measures the quote against a small reference quote of the same pair', () => {
    // 3,000 ETH -> 7,233,000 USDC (2,411/ETH) against 3 ETH -> 8,988 USDC (2,996/ETH): 19.53% lost.
    const bps = priceImpactBps(3000n * E18, 7_233_000n * E6, 3n * E18, 8_988n * E6);
    expect(bps).toBe(1953);
    expect(formatImpact(bps)).toBe('19.53%');
    expect(impactLevel(bps)).toBe('danger');
  });
  it('uses a thousandth of the trade, at least one unit, as the reference', () => {
    expect(referenceInAmount(3000n * E18)).toBe(3n * E18);
    expect(referenceInAmount(10n)).toBe(1n);
  });
  it('warns at 3% and asks for an acknowledgement at 10%', () => {
    expect(priceImpactWarning(299)).toBeNull();
    expect(priceImpactWarning(300)).toMatchObject({ code: PRICE_IMPACT_HIGH, needsAcknowledgement: false });
    const high = priceImpactWarning(1953);
    expect(high).toMatchObject({ code: PRICE_IMPACT_HIGH, needsAcknowledgement: true, level: 'danger' });
    expect(high?.message).toContain('I understand I lose about 20%');
  });
  it('is unknown without a reference, and never negative on screen', () => {
    expect(priceImpactBps(E18, E18, E18, 0n)).toBeNull();
    expect(formatImpact(null)).toBe('—');
    expect(formatImpact(priceImpactBps(E18, 2n * E18, E18, E18))).toBe('<0.01%');
  });
});

describe('balance checks before the review', () => {
  const base = { symbol: 'ETH', nativeSymbol: 'ETH', payingNative: true } as const;
  it('refuses more than the balance', () => {
    expect(
      balanceError({
        ...base,
        amount: 20_000n * E18,
        balance: 10_000n * E18,
        nativeBalance: 10_000n * E18,
        fee: 0n,
      }),
    ).toBe('Insufficient ETH balance');
  });
  it('refuses when no native coin is left for the fee', () => {
    expect(balanceError({ ...base, amount: E18, balance: E18, nativeBalance: E18, fee: 10n ** 15n })).toBe(
      'Not enough ETH left for the network fee',
    );
    expect(
      balanceError({
        ...base,
        symbol: 'USDC',
        payingNative: false,
        amount: 1n,
        balance: 5n,
        nativeBalance: 0n,
        fee: 1n,
      }),
    ).toBe('Not enough ETH left for the network fee');
  });
  it('lets a fitting amount through, and refuses nothing while balances are unknown', () => {
    expect(
      balanceError({ ...base, amount: E18, balance: 2n * E18, nativeBalance: 2n * E18, fee: 10n ** 15n }),
    ).toBeNull();
    expect(
      balanceError({ ...base, amount: E18, balance: undefined, nativeBalance: undefined, fee: undefined }),
    ).toBeNull();
  });
  it('Max keeps the estimated fee for the native coin only', () => {
    expect(maxSpendable(E18, true, 10n ** 15n)).toBe(E18 - 10n ** 15n);
    expect(maxSpendable(E18, false, 10n ** 15n)).toBe(E18);
    expect(maxSpendable(1n, true, 10n)).toBe(0n);
  });
});

describe('networks actually served', () => {
  const ok = <T>(value: T) => ({ ok: true as const, value });
  const failed = (error: unknown) => ({ ok: false as const, error });
  const isUnsupported = (error: unknown) => error === 'unsupported';
  it('offers a network only when the service lists tokens and the RPC is that chain', () => {
    expect(networkStatus(1, ok({ count: 3 }), ok(1), isUnsupported)).toEqual({
      chainId: 1,
      served: true,
      reason: null,
    });
    expect(networkStatus(56, failed('unsupported'), ok(56), isUnsupported).reason).toBe(
      'Not offered by this swap service',
    );
    expect(networkStatus(56, failed('timeout'), ok(56), isUnsupported).reason).toBe(
      'The swap service did not answer for this network',
    );
    expect(networkStatus(10, ok({ count: 0 }), ok(10), isUnsupported).served).toBe(false);
    expect(networkStatus(10, ok({ count: 2 }), failed('down'), isUnsupported).reason).toBe(
      'This network’s RPC did not answer',
    );
    expect(networkStatus(10, ok({ count: 2 }), ok(1), isUnsupported).reason).toBe(
      'The RPC serves another network (id 1)',
    );
  });
  it('probe turns a throw into a failed probe', async () => {
    expect(await probe(async () => 5)).toEqual({ ok: true, value: 5 });
    expect((await probe(() => Promise.reject(new Error('x')))).ok).toBe(false);
  });
});

describe('activity wording', () => {
  it('says times relative to now and shortens hashes to one line', () => {
    const now = 1_000_000_000;
    expect(relativeTime(now - 10_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(now - 26 * 3_600_000, now)).toBe('yesterday');
    expect(relativeTime(now - 3 * 86_400_000, now)).toBe('3 days ago');
    expect(shortHash(`0x${'ab'.repeat(32)}`)).toBe('0xabababab…abababab');
  });
});

describe('approvals Swaplane granted', () => {
  const base = {
    chainId: 1,
    account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    hash: null,
    explorerUrl: null,
    gasPaid: null,
    failure: null,
    createdAt: 1,
    updatedAt: 1,
    kind: 'approval' as const,
    swapId: 's',
    amount: '5',
    unlimited: false,
    reset: false,
  };
  const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
  const ROUTER = '0x1111111111111111111111111111111111111111';
  it('lists each (network, token, spender) once, for the active account, skipping failed and reset steps', () => {
    const history = [
      { ...base, id: 'a', status: 'confirmed' as const, token: DAI, spender: ROUTER },
      {
        ...base,
        id: 'b',
        status: 'confirmed' as const,
        token: DAI.toUpperCase().replace('0X', '0x'),
        spender: ROUTER,
      },
      { ...base, id: 'c', status: 'failed' as const, token: ROUTER, spender: ROUTER },
      { ...base, id: 'd', status: 'confirmed' as const, token: ROUTER, spender: DAI, reset: true },
      { ...base, id: 'e', status: 'confirmed' as const, token: ROUTER, spender: DAI, account: ROUTER },
    ];
    const granted = grantedApprovals(history, base.account);
    expect(granted).toEqual([{ chainId: 1, token: DAI, spender: ROUTER }]);
    expect(isGranted(granted, { chainId: 1, token: DAI, spender: ROUTER })).toBe(true);
    expect(isGranted(granted, { chainId: 8453, token: DAI, spender: ROUTER })).toBe(false);
  });
});
