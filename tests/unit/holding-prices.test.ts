// Pricing the home's holdings (lib/tokens/holding-prices.ts): the order prices are asked in, the
// last popup's prices kept (with their time) until fresh ones land, batches handed over as they land
// with a bounded number in flight; and the background's one reference quote per token in flight
// (lib/background/handlers/insights.ts), which the home and the pickers' shortlist both ask.
import { describe, expect, it } from 'vitest';
import type { QuoteRequest, Token } from '@/lib/api/schema';
import { createInsightHandlers } from '@/lib/background/handlers/insights';
import type { BackgroundServices } from '@/lib/background/services';
import { createReferenceBudget } from '@/lib/prices/reference-budget';
import {
  carryPrices,
  priceInBatches,
  pricesAsOf,
  pricingOrder,
  withPrices,
} from '@/lib/tokens/holding-prices';
import type { HoldingRow } from '@/lib/tokens/holdings';
import { quoteFor } from '../support/test-service';

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WBTC = '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599';
const LINK = '0x514910771af9ca656af840dff83e8264ecf986ca';

const row = (
  address: string,
  symbol: string,
  balance: bigint,
  price: bigint | null = null,
  pricedAt?: number,
) => ({
  address,
  symbol,
  decimals: 18,
  balance,
  price,
  ...(pricedAt === undefined ? {} : { pricedAt }),
});

describe('pricingOrder', () => {
  it('asks the native coin, then the stablecoin (a dollar), then the rest as listed; nothing not held', () => {
    const rows: HoldingRow[] = [
      row(WBTC, 'WBTC', 1n),
      row(LINK, 'LINK', 0n),
      row(USDC, 'USDC', 5n),
      row(ETH, 'ETH', 2n),
      row('0x1f9840a85d5af5bf1d1762f925bdaddc4201f984', 'UNI', 3n),
    ];
    expect(pricingOrder(rows)).toEqual([ETH, USDC, WBTC, '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984']);
  });
});

describe('carryPrices and withPrices', () => {
  const hourAgo = 1_700_000_000_000;

  it('fresh balances keep the last popup price and its time; a token new since has none', () => {
    const previous = [row(ETH, 'ETH', 1n, 3_000n, hourAgo), row(WBTC, 'WBTC', 1n, null)];
    const carried = carryPrices(
      [row(ETH, 'ETH', 9n), row(WBTC, 'WBTC', 2n), row(LINK, 'LINK', 4n)],
      previous,
    );
    expect(carried.map((r) => [r.balance, r.price, r.pricedAt])).toEqual([
      [9n, 3_000n, hourAgo],
      [2n, null, null],
      [4n, null, null],
    ]);
  });

  it('a fresh price replaces the old with its time; one the answer could not price keeps the old, still old', () => {
    const rows = [
      row(ETH, 'ETH', 1n, 3_000n, hourAgo),
      row(WBTC, 'WBTC', 1n, 60_000n, hourAgo),
      row(LINK, 'LINK', 1n),
    ];
    const now = hourAgo + 3_600_000;
    const next = withPrices(rows, { [ETH]: '3100', [WBTC]: null }, now);
    expect(next.map((r) => [r.price, r.pricedAt ?? null])).toEqual([
      [3_100n, now],
      [60_000n, hourAgo],
      [null, null],
    ]);
    expect(pricesAsOf(next, now), 'the WBTC price on screen is an hour old').toBe(hourAgo);
    expect(pricesAsOf(withPrices(next, { [WBTC]: '61000' }, now), now)).toBeNull();
  });

  it('a price with no time (an earlier visit) is old; unheld or unpriced rows say nothing', () => {
    expect(pricesAsOf([row(ETH, 'ETH', 1n, 3_000n)], 10)).toBe(0);
    expect(pricesAsOf([row(ETH, 'ETH', 0n, 3_000n, 1), row(WBTC, 'WBTC', 1n, null, 1)], 10)).toBeNull();
  });
});

describe('priceInBatches', () => {
  it('hands each batch over as it lands, at most `concurrency` in flight, and the first before the last is asked', async () => {
    const addresses = Array.from({ length: 10 }, (_, i) => `0x${String(i).padStart(40, '0')}`);
    const asked: string[][] = [];
    const answered: string[] = [];
    let inFlight = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const done = priceInBatches(
      addresses,
      async (tokens) => {
        asked.push(tokens);
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight--;
        return Object.fromEntries(tokens.map((token) => [token, '1']));
      },
      (answer) => answered.push(...Object.keys(answer)),
      () => false,
      { batch: 4, concurrency: 2 },
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toEqual([addresses.slice(0, 4), addresses.slice(4, 8)]);
    releases.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(answered, "the first batch's prices are on screen while the rest load").toEqual(
      addresses.slice(0, 4),
    );
    expect(asked).toHaveLength(3);
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await done;
    expect(answered.sort()).toEqual([...addresses].sort());
    expect(most).toBe(2);
  });

  it('a failed batch is an empty answer, and a cancelled pass asks nothing more', async () => {
    const answers: Record<string, string | null>[] = [];
    let cancelled = false;
    let asks = 0;
    await priceInBatches(
      [ETH, USDC, WBTC],
      async () => {
        asks++;
        if (asks === 1) throw new Error('the background is gone');
        cancelled = true;
        return { [WBTC]: '1' };
      },
      (answer) => answers.push(answer),
      () => cancelled,
      { batch: 1, concurrency: 1 },
    );
    expect(answers).toEqual([{}]);
    expect(asks).toBe(2);
  });
});

describe('getPrices in the background', () => {
  const token = (address: string, symbol: string, decimals = 18): Token =>
    ({ chainId: 1, address, symbol, name: symbol, decimals }) as Token;

  it('one reference quote per token in flight: the home and the shortlist asking at once share it', async () => {
    const quotes: QuoteRequest[] = [];
    const services = {
      indexFor: async () => ({
        view: { tokens: [token(USDC, 'USDC', 6), token(WBTC, 'WBTC', 8), token(LINK, 'LINK')] },
      }),
      api: () => ({
        quote: async (request: QuoteRequest) => {
          quotes.push(request);
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { quote: quoteFor(request), timestamp: new Date().toISOString() };
        },
      }),
    } as unknown as BackgroundServices;
    const handlers = createInsightHandlers(services, undefined, createReferenceBudget({ burst: 10 }));
    const [home, shortlist] = await Promise.all([
      handlers.getPrices({ type: 'getPrices', chainId: 1, tokens: [WBTC, LINK, USDC] }),
      handlers.getPrices({ type: 'getPrices', chainId: 1, tokens: [LINK, WBTC] }),
    ]);
    expect(quotes.map((q) => q.inToken).sort()).toEqual([LINK, WBTC].sort());
    expect(shortlist[WBTC]).toBe(home[WBTC]);
    expect(home[WBTC]).not.toBeNull();
    expect(home[USDC], 'the stablecoin is a dollar, no quote').toBe(String(10n ** 8n));
  });
});
