// Swaps: preview, start, follow, dismiss; balances and history for the popup.

import { recentTokensItem } from '@/lib/storage/items';
import { heldCandidates } from '@/lib/tokens/recent';
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

// previewSwap and startSwap: handlers/trust.ts.
type SwapRequest =
  | 'dismissSwap'
  | 'previewReplace'
  | 'replaceSwap'
  | 'pickerTokens'
  | 'getBalances'
  | 'getHistory'
  | 'holdings';

export function swapHandlers(services: BackgroundServices): Pick<Handlers, SwapRequest> {
  return {
    dismissSwap: async () => {
      services.swaps.dismiss();
      return null;
    },
    previewReplace: ({ kind }) => services.swaps.previewReplace(kind),
    replaceSwap: ({ kind, reviewId }) => services.swaps.replace(kind, reviewId),
    pickerTokens: async ({ chainId }) => {
      const recent = (await recentTokensItem.get())[String(chainId)] ?? [];
      const { view } = await services.indexFor(chainId);
      const candidates = heldCandidates(
        recent,
        view.tokens.map((token) => token.address),
      );
      const balances = await services.swaps.balances(chainId, candidates);
      const held: Record<string, string> = {};
      for (const address of candidates) {
        const balance = balances[address];
        if (balance !== undefined && balance !== '0') held[address] = balance;
      }
      return { held, recent };
    },
    getBalances: ({ chainId, tokens }) => services.swaps.balances(chainId, tokens),
    getHistory: () => services.swaps.history(),
    holdings: async ({ chainId }) => {
      const { view } = await services.indexFor(chainId);
      return services.swaps.holdings(
        chainId,
        view.tokens.map((token) => token.address),
      );
    },
  };
}
