import { describe, expect, it } from 'vitest';
import { type HoldingRow, inShownOrder, summariseHoldings } from '@/lib/tokens/holdings';

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const row = (address: string, balance: bigint, price: bigint | null, decimals = 18): HoldingRow => ({
  address,
  symbol: address.slice(2, 6),
  decimals,
  balance,
  price,
});

describe('summariseHoldings', () => {
  it('puts the native coin first, then tokens by USD value, unpriced last', () => {
    const summary = summariseHoldings([
      row('0x1111111111111111111111111111111111111111', 10n ** 18n, null),
      row('0x2222222222222222222222222222222222222222', 5_000_000n, 10n ** 8n, 6), // $5
      row(ETH, 10n ** 18n, 3_000n * 10n ** 8n), // $3,000
      row('0x3333333333333333333333333333333333333333', 2n * 10n ** 18n, 10n * 10n ** 8n), // $20
    ]);
    expect(summary.rows.map((r) => r.address.slice(0, 4))).toEqual(['0xee', '0x33', '0x22', '0x11']);
    expect(summary.total).toBe(3_025n * 10n ** 8n);
    expect(summary.partial).toBe(true);
    expect(summary.empty).toBe(false);
  });

  it('calls a wallet with a zero native balance and no tokens empty, with a $0 total', () => {
    const summary = summariseHoldings([row(ETH, 0n, 3_000n * 10n ** 8n)]);
    expect(summary.empty).toBe(true);
    expect(summary.total).toBeNull();
    expect(summary.partial).toBe(false);
  });

  it('sums exactly in bigint, with no float rounding on large balances', () => {
    const summary = summariseHoldings([
      row('0x4444444444444444444444444444444444444444', 13_747_515_290_000n, 10n ** 8n, 6),
    ]);
    expect(summary.total).toBe(1_374_751_529n * 10n ** 6n);
  });
});

describe('inShownOrder', () => {
  const a = row('0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 10n ** 18n, null);
  const b = row('0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 10n ** 18n, null);
  const c = row('0xcccccccccccccccccccccccccccccccccccccccc', 1n, null);

  it('keeps the rows on screen where they are, whatever order they come in', () => {
    expect(inShownOrder([c, a, b], [a.address, b.address, c.address])).toEqual([a, b, c]);
  });

  it('puts rows not yet shown after them in their own order, and drops rows gone', () => {
    expect(inShownOrder([c, b], [b.address, a.address])).toEqual([b, c]);
    expect(inShownOrder([c, a, b], [])).toEqual([c, a, b]);
  });

  it('prices landing re-rank the summary, not the screen', () => {
    const unpriced = summariseHoldings([row(ETH, 1n, null), a, b]).rows;
    const shown = inShownOrder(unpriced, []).map((entry) => entry.address);
    // b is now worth more than a: the summary puts it first, the screen keeps a where it was.
    const priced = summariseHoldings([
      row(ETH, 1n, null),
      { ...a, price: 10n ** 18n },
      { ...b, price: 5n * 10n ** 18n },
    ]).rows;
    expect(priced.map((entry) => entry.address)).toEqual([ETH, b.address, a.address]);
    expect(inShownOrder(priced, shown).map((entry) => entry.address)).toEqual(shown);
  });
});
