import { formatAmount, formatAmountExact, type parseAmount } from '@/lib/amounts';
import { isNativeToken, NATIVE_TOKEN_ADDRESS, type Token } from '@/lib/api/schema';
import { balanceError, maxSpendable } from '@/lib/swap/balance-check';

export interface PayChecks {
  /** The inline error that disables "Review swap", or null. */
  refusal: string | null;
  /** What Max puts in the field (exact text), or null while the balance is unknown. */
  maxText: string | null;
  /** Says that Max kept the network fee, when the field holds the native coin's Max. */
  maxNote: string | undefined;
}

/** The "You pay" side's checks: balance, fee left in the native coin, and what Max means. */
export function payChecks(input: {
  from: Token | undefined;
  amountText: string;
  parsed: ReturnType<typeof parseAmount> | null;
  balanceOf: (token: string | undefined) => bigint | undefined;
  fee: bigint | undefined;
  native: { symbol: string; decimals: number };
}): PayChecks {
  const { from, parsed, balanceOf, fee, native } = input;
  if (!from) return { refusal: null, maxText: null, maxNote: undefined };
  const payingNative = isNativeToken(from.address);
  const balance = balanceOf(from.address);
  const refusal =
    parsed?.ok && parsed.value > 0n
      ? balanceError({
          amount: parsed.value,
          balance,
          payingNative,
          nativeBalance: balanceOf(NATIVE_TOKEN_ADDRESS),
          fee,
          symbol: from.symbol,
          nativeSymbol: native.symbol,
        })
      : null;
  const maxText =
    balance === undefined ? null : formatAmountExact(maxSpendable(balance, payingNative, fee), from.decimals);
  const maxNote =
    payingNative && fee !== undefined && maxText !== null && input.amountText === maxText
      ? `Max keeps ${formatAmount(fee, native.decimals, { maxSignificant: 3 })} ${native.symbol} for the network fee`
      : undefined;
  return { refusal, maxText, maxNote };
}

/**
 * What the swap button says: "Review swap" when it can open the review, otherwise why it cannot
 * (the first reason the user can act on), so a disabled button is never mute.
 */
export function reviewLabel(
  form: {
    from: unknown;
    to: unknown;
    amount: string;
    parsed: ReturnType<typeof parseAmount> | null;
    session: { status: string } | null;
  },
  refusal: string | null,
  quoteFits: boolean,
): { label: string; enabled: boolean } {
  const { parsed } = form;
  const sessionStatus = form.session?.status;
  if (!(form.from && form.to)) return { label: 'Choose the tokens to swap', enabled: false };
  if (form.amount.trim() === '' || (parsed?.ok && parsed.value === 0n))
    return { label: 'Enter an amount', enabled: false };
  if (parsed && !parsed.ok) return { label: 'Enter a valid amount', enabled: false };
  if (refusal) return { label: refusal, enabled: false };
  if (sessionStatus === 'ready' && quoteFits) return { label: 'Review swap', enabled: true };
  if (sessionStatus === 'error') return { label: 'No quote to review', enabled: false };
  if (sessionStatus === 'stale') return { label: 'Quote expired: get a new one', enabled: false };
  return { label: 'Getting a quote…', enabled: false };
}
