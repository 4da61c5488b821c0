// The amount of the chain's native coin a one-click quote (explorer pages) prices the token against:
// one decimal amount for every chain, kept as the exact decimal string the user typed (canonical form).
import { parseAmount, toDecimalString } from '@/lib/amounts';

/** The default: 0.1 of the chain's native coin. */
export const DEFAULT_ONE_CLICK_AMOUNT = '0.1';

/** Native coins in the registry have 18 decimals; the setting must fit the coin it is spent in. */
export const ONE_CLICK_DECIMALS = 18;

export type OneClickAmountCheck = { ok: true; value: bigint; text: string } | { ok: false; message: string };

/**
 * A valid one-click amount: what parseAmount accepts for `decimals`, above zero. `text` is its
 * canonical decimal form (`.50` -> `0.5`), which is what settings store.
 */
export function checkOneClickAmount(input: string, decimals = ONE_CLICK_DECIMALS): OneClickAmountCheck {
  const parsed = parseAmount(input, decimals);
  if (!parsed.ok) return { ok: false, message: parsed.error.message };
  if (parsed.value === 0n) return { ok: false, message: 'The amount must be above 0.' };
  return { ok: true, value: parsed.value, text: toDecimalString(parsed.value, decimals) };
}

/**
 * Per-chain one-click amounts a fresh install starts with: about the same value in each chain's own
 * coin (0.1 ETH is not 0.1 POL). Chains not named here use the settings' `oneClickAmount`.
 */
export const DEFAULT_ONE_CLICK_AMOUNTS: Readonly<Record<string, string>> = Object.freeze({
  '56': '0.5',
  '137': '1000',
  '43114': '10',
  '250': '500',
});

/** The one-click amount for `chainId`: its own entry, else the amount for every other chain. */
export function oneClickAmountFor(
  settings: { oneClickAmount: string; oneClickAmounts?: Readonly<Record<string, string>> },
  chainId: number,
): string {
  return settings.oneClickAmounts?.[String(chainId)] ?? settings.oneClickAmount;
}

/**
 * Settings v3 -> v4: adds the per-chain amounts. Someone who kept the default amount gets the
 * per-coin defaults; someone who chose their own amount keeps it on every chain, as before.
 */
export function migrateOneClickAmounts(previous: unknown): unknown {
  const v3 = (typeof previous === 'object' && previous !== null ? previous : {}) as Record<string, unknown>;
  const kept = v3.oneClickAmount === undefined || v3.oneClickAmount === DEFAULT_ONE_CLICK_AMOUNT;
  return { ...v3, oneClickAmounts: kept ? { ...DEFAULT_ONE_CLICK_AMOUNTS } : {} };
}

export type OneClickAmountsCheck =
  | { ok: true; value: Record<string, string> }
  | { ok: false; chainId: string; message: string };

/**
 * The per-chain amounts as typed (chainId -> text): blank means "use the amount for every other
 * chain" and is dropped; anything else must pass checkOneClickAmount and is stored canonical.
 */
export function checkOneClickAmounts(texts: Readonly<Record<string, string>>): OneClickAmountsCheck {
  const value: Record<string, string> = {};
  for (const [chainId, text] of Object.entries(texts)) {
    if (text.trim() === '') continue;
    const check = checkOneClickAmount(text.trim());
    if (!check.ok) return { ok: false, chainId, message: check.message };
    value[chainId] = check.text;
  }
  return { ok: true, value };
}
