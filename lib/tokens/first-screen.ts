// The few tokens the popup's first frame shows by name, so it can open without the whole list: the
// quote session's pair, the hops of its quote's route and a swap under way. The full list (thousands
// of tokens, ~400 kB) reaches the popup after its first frame, for the pickers (docs/PERFORMANCE.md).
import { AddressSchema, type Token } from '@/lib/api/schema';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { QuoteSessionState } from '@/lib/state/session-state';

function addressesOfRoute(route: readonly { swaps: readonly Record<string, unknown>[] }[]): string[] {
  const found: string[] = [];
  for (const share of route) {
    for (const swap of share.swaps) {
      for (const value of [swap.tokenIn, swap.tokenOut]) {
        if (typeof value === 'string' && AddressSchema.safeParse(value).success) found.push(value);
      }
    }
  }
  return found;
}

/** The chain and addresses the first screen names, or null when it names none (no input yet). */
export function firstScreenAddresses(
  session: QuoteSessionState,
  swap: SwapState | null,
): { chainId: number; addresses: string[] } | null {
  const chainId = session.input?.chainId ?? swap?.chainId;
  if (chainId === undefined) return null;
  const addresses: string[] = [];
  if (session.input) addresses.push(session.input.inToken, session.input.outToken);
  if (session.quote?.chainId === chainId) addresses.push(...addressesOfRoute(session.quote.bestRoute));
  if (swap?.chainId === chainId) addresses.push(swap.request.inToken, swap.request.outToken);
  const unique = [...new Set(addresses.map((address) => address.toLowerCase()))];
  return unique.length > 0 ? { chainId, addresses: unique } : null;
}

/** The listed tokens among `addresses` (any case), in list order; unknown addresses are left out. */
export function pickTokens(tokens: readonly Token[], addresses: readonly string[]): Token[] {
  const wanted = new Set(addresses.map((address) => address.toLowerCase()));
  return tokens.filter((token) => wanted.has(token.address.toLowerCase()));
}
