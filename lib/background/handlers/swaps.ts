// Swaps: preview, start, follow, dismiss; balances and history for the popup.
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

// previewSwap and startSwap: handlers/trust.ts.
type SwapRequest = 'dismissSwap' | 'replaceSwap' | 'getBalances' | 'getHistory';

export function swapHandlers(services: BackgroundServices): Pick<Handlers, SwapRequest> {
  return {
    dismissSwap: async () => {
      services.swaps.dismiss();
      return null;
    },
    replaceSwap: ({ kind }) => services.swaps.replace(kind),
    getBalances: ({ chainId, tokens }) => services.swaps.balances(chainId, tokens),
    getHistory: () => services.swaps.history(),
  };
}
