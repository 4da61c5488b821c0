// The home's holdings as rows: native coin first, then tokens by USD value (unpriced last), and the
// total of what has a price. Pure: the popup's hook (useHoldings) fetches, this orders and sums.
import { isNativeToken } from '@/lib/api/schema';
import { usdValue } from '@/lib/prices/usd';

export interface HoldingRow {
  /** Lowercase address (the native coin as 0xeeee…). */
  address: string;
  symbol: string;
  decimals: number;
  logoURI?: string | undefined;
  balance: bigint;
  /** USD per whole token x 10^8, null when unknown. */
  price: bigint | null;
  /** When that price was read (ms since the epoch); null or absent: unknown (an earlier visit). */
  pricedAt?: number | null;
}

export interface HoldingsSummary {
  rows: HoldingRow[];
  /** Sum of the priced rows' USD values (x 10^8), null when none has a price. */
  total: bigint | null;
  /** Some held token has no price: the total leaves it out. */
  partial: boolean;
  /** Nothing at all: no native coin and no listed token. */
  empty: boolean;
}

const usdOfRow = (row: HoldingRow) => usdValue(row.balance, row.decimals, row.price);

export function summariseHoldings(rows: readonly HoldingRow[]): HoldingsSummary {
  const sorted = [...rows].sort((a, b) => {
    if (isNativeToken(a.address) !== isNativeToken(b.address)) return isNativeToken(a.address) ? -1 : 1;
    const va = usdOfRow(a);
    const vb = usdOfRow(b);
    if (va === null || vb === null) return va === null ? (vb === null ? 0 : 1) : -1;
    return va === vb ? 0 : va > vb ? -1 : 1;
  });
  let total: bigint | null = null;
  let partial = false;
  for (const row of sorted) {
    if (row.balance === 0n) continue;
    const value = usdOfRow(row);
    if (value === null) partial = true;
    else total = (total ?? 0n) + value;
  }
  return { rows: sorted, total, partial, empty: sorted.every((row) => row.balance === 0n) };
}

/**
 * `rows` with those already on screen (`shown`, addresses in screen order) kept in that order and
 * the others after them in their own: prices landing (which re-rank the rows by value) never move a
 * row under the pointer while the popup is open; the next popup opens in value order.
 */
export function inShownOrder<Row extends { address: string }>(
  rows: readonly Row[],
  shown: readonly string[],
): Row[] {
  const rank = new Map(shown.map((address, index) => [address, index]));
  const placed = rows.filter((row) => rank.has(row.address));
  placed.sort((a, b) => (rank.get(a.address) ?? 0) - (rank.get(b.address) ?? 0));
  return [...placed, ...rows.filter((row) => !rank.has(row.address))];
}
