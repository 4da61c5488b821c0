// The swap form as the quote session left it: reopening the popup shows what the user was doing.
import { formatAmountExact } from '@/lib/amounts';
import type { Token } from '@/lib/api/schema';
import type { QuoteInput } from '@/lib/state/session-state';

export interface RestoredForm {
  chainId: number;
  from: Token | undefined;
  to: Token | undefined;
  /** The amount as the user would have typed it ('' when the input token is unknown). */
  amount: string;
  slippage: number;
  /** Both tokens were found: nothing is left to wait for. */
  complete: boolean;
}

export function restoreForm(
  input: QuoteInput,
  findToken: (address: string) => Token | undefined,
): RestoredForm {
  const from = findToken(input.inToken);
  const to = findToken(input.outToken);
  return {
    chainId: input.chainId,
    from,
    to,
    amount: from ? formatAmountExact(BigInt(input.inAmount), from.decimals) : '',
    slippage: input.slippage,
    complete: from !== undefined && to !== undefined,
  };
}
