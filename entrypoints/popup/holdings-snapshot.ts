// The home's last known holdings, kept in the popup page's own localStorage so the next popup paints
// them in its first frame (synchronously, no message round trip) and refreshes them after. It holds
// balances and prices (with when each was read) only: nothing secret and nothing a signature depends
// on (the swap's own figures come from the background, never from here). Parsed on read like
// any storage: a snapshot that does not parse is ignored.
import * as z from 'zod/mini';
import type { HoldingRow } from '@/lib/tokens/holdings';

// v2: each price carries the time it was read (the next popup says "as of"); v1 had none.
const KEY = 'swaplane.holdings.v2';
const OLD_KEY = 'swaplane.holdings.v1';
const Digits = z.string().check(z.regex(/^\d{1,80}$/));

const SnapshotSchema = z.object({
  account: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
  chainId: z.int(),
  rows: z
    .array(
      z.object({
        address: z.string().check(z.regex(/^0x[0-9a-f]{40}$/)),
        symbol: z.string().check(z.maxLength(32)),
        decimals: z.int().check(z.minimum(0), z.maximum(36)),
        logoURI: z.optional(z.string().check(z.maxLength(2_000))),
        balance: Digits,
        price: z.nullable(Digits),
        pricedAt: z.nullable(z.int().check(z.minimum(0))),
      }),
    )
    .check(z.maxLength(500)),
});

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The snapshot of `account` on `chainId`, or null (none, another account's, or unreadable). */
export function readHoldingsSnapshot(account: string | null, chainId: number): HoldingRow[] | null {
  if (!account) return null;
  const raw = storage()?.getItem(`${KEY}:${chainId}`);
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  const snapshot = SnapshotSchema.safeParse(parsed);
  if (!snapshot.success || snapshot.data.account.toLowerCase() !== account.toLowerCase()) return null;
  return snapshot.data.rows.map((row) => ({
    ...row,
    balance: BigInt(row.balance),
    price: row.price === null ? null : BigInt(row.price),
  }));
}

export function writeHoldingsSnapshot(account: string, chainId: number, rows: readonly HoldingRow[]): void {
  const snapshot = {
    account,
    chainId,
    rows: rows.slice(0, 500).map((row) => ({
      ...row,
      balance: row.balance.toString(),
      price: row.price === null ? null : row.price.toString(),
      pricedAt: row.price === null ? null : (row.pricedAt ?? null),
    })),
  };
  try {
    storage()?.setItem(`${KEY}:${chainId}`, JSON.stringify(snapshot));
    storage()?.removeItem(`${OLD_KEY}:${chainId}`);
  } catch {
    // A full or disabled localStorage only costs the next popup its instant first paint.
  }
}
