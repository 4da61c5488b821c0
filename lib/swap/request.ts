// The ONE way a QuoteRequest is made from what the user asked (the quote session, the swap machine
// and the explorer card's one-click quote all use it), so every path asks the service the same.
import type { QuoteRequest } from '@/lib/api/schema';
import type { QuoteInput } from '@/lib/state/session-state';

export function requestFor(input: QuoteInput, refCode?: number): QuoteRequest {
  const request: QuoteRequest = {
    chainId: input.chainId,
    inToken: input.inToken,
    outToken: input.outToken,
    inAmount: input.inAmount,
    slippage: input.slippage,
  };
  if (refCode !== undefined) request.refCode = refCode;
  return request;
}
