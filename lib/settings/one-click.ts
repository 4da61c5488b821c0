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
