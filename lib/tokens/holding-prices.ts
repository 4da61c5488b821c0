// Pricing the home's holdings: each price costs the service a reference quote (the background's
// budget lets 10 through at once, then 2 a second), so one 20-token request answered only when its
// slowest price was in, and a first popup read "—" for 5-10 s. Here the held rows are priced in small
// batches, a few in flight, the native coin and the stablecoin (free: a dollar) first, and the screen
// takes each batch as it lands. Until a row's fresh price is in, the price the last popup showed
// stays, with the time it was read, so the screen can say "as of". These prices are for display
// only: nothing signed reads them (the swap's own figures come from the background).
import { isNativeToken } from '@/lib/api/schema';
import { mainStablecoin, priceOf } from '@/lib/prices/usd';
import type { HoldingRow } from './holdings';

/** Tokens per getPrices request: small, so the first figures land after one quote, not twenty. */
export const PRICE_BATCH = 4;
/** getPrices requests in flight at once: the background's budget orders the rest anyway. */
export const PRICE_CONCURRENCY = 3;

/**
 * Held rows in the order their prices are asked: the native coin, the held stablecoin most likely
 * to be the one prices are quoted into (a dollar, no quote), then as listed.
 */
export function pricingOrder(rows: readonly HoldingRow[]): string[] {
  const stable = mainStablecoin(rows.filter((row) => row.balance > 0n));
  const rank = (row: HoldingRow) => (isNativeToken(row.address) ? 0 : row === stable ? 1 : 2);
  return rows
    .filter((row) => row.balance > 0n)
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank(a.row) - rank(b.row) || a.index - b.index)
    .map(({ row }) => row.address);
}

/** Fresh balances keep the prices (and their times) the previous rows showed for the same tokens. */
export function carryPrices(
  fresh: readonly HoldingRow[],
  previous: readonly HoldingRow[] | null,
): HoldingRow[] {
  const known = new Map((previous ?? []).map((row) => [row.address, row]));
  return fresh.map((row) => {
    const before = known.get(row.address);
    return before && before.price !== null
      ? { ...row, price: before.price, pricedAt: before.pricedAt ?? null }
      : { ...row, price: null, pricedAt: null };
  });
}

/**
 * Rows with the prices of one answer (read at `at`). A token the answer could not price keeps the
 * price it had, with its old time: an old figure said to be old, rather than "—".
 */
export function withPrices(
  rows: readonly HoldingRow[],
  answer: Readonly<Record<string, string | null | undefined>>,
  at: number,
): HoldingRow[] {
  return rows.map((row) => {
    if (!(row.address in answer)) return row;
    const price = priceOf(answer[row.address]);
    return price === null ? row : { ...row, price, pricedAt: at };
  });
}

/**
 * The oldest time among the held rows' prices that were not read by this popup (`since`: when it
 * started pricing), or null when every shown price is this popup's. An old price without a time
 * reads as 0 (from an earlier visit).
 */
export function pricesAsOf(rows: readonly HoldingRow[], since: number): number | null {
  let oldest: number | null = null;
  for (const row of rows) {
    if (row.balance === 0n || row.price === null) continue;
    const at = row.pricedAt ?? 0;
    if (at >= since) continue;
    oldest = oldest === null ? at : Math.min(oldest, at);
  }
  return oldest;
}

/**
 * Asks the prices of `addresses` in batches of `batch`, at most `concurrency` at a time, in order,
 * handing each answer to `onAnswer` as it lands; a failed batch is an empty answer (its rows keep
 * what they show). Stops asking once `cancelled()` says so.
 */
export async function priceInBatches(
  addresses: readonly string[],
  ask: (tokens: string[]) => Promise<Record<string, string | null>>,
  onAnswer: (answer: Record<string, string | null>) => void,
  cancelled: () => boolean,
  { batch = PRICE_BATCH, concurrency = PRICE_CONCURRENCY } = {},
): Promise<void> {
  const batches: string[][] = [];
  for (let i = 0; i < addresses.length; i += batch) batches.push(addresses.slice(i, i + batch));
  let next = 0;
  const lane = async () => {
    while (next < batches.length && !cancelled()) {
      const tokens = batches[next++] as string[];
      const answer = await ask(tokens).catch(() => ({}));
      if (cancelled()) return;
      onAnswer(answer);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, lane));
}
