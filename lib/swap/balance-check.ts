// Checks before the review: the amount must fit the balance, and native coin must be left for the
// network fee. Inline errors that disable "Review swap", worded as the user reads them.

export interface BalanceCheckInput {
  amount: bigint;
  /** Balance of the token paid; undefined while unknown (then nothing is refused). */
  balance: bigint | undefined;
  payingNative: boolean;
  /** Native coin balance; undefined while unknown. */
  nativeBalance: bigint | undefined;
  /** Expected network fee in native wei; undefined while unknown. */
  fee: bigint | undefined;
  symbol: string;
  nativeSymbol: string;
}

export function balanceError(input: BalanceCheckInput): string | null {
  const { amount, balance, fee, nativeBalance } = input;
  if (balance !== undefined && amount > balance) return `Insufficient ${input.symbol} balance`;
  if (fee === undefined || nativeBalance === undefined) return null;
  const nativeLeft = input.payingNative ? nativeBalance - amount : nativeBalance;
  if (nativeLeft < fee) return `Not enough ${input.nativeSymbol} left for the network fee`;
  return null;
}

/** Max for the token paid: the whole balance, or for the native coin the balance minus the fee. */
export function maxSpendable(balance: bigint, payingNative: boolean, fee: bigint | undefined): bigint {
  if (!payingNative) return balance;
  const keep = fee ?? 0n;
  return balance > keep ? balance - keep : 0n;
}
