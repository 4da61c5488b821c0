// Swaps: preview, start, follow, dismiss; balances and history for the popup.
import { HandlerError } from '../errors';
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

type SwapRequest = 'previewSwap' | 'startSwap' | 'dismissSwap' | 'getBalances' | 'getHistory';

export function swapHandlers(services: BackgroundServices): Pick<Handlers, SwapRequest> {
  return {
    previewSwap: async () => {
      // The trust-boundary work builds the preview (build, checks, simulation, fees); until then
      // the popup keeps its current review.
      throw new HandlerError('PREVIEW_UNAVAILABLE', 'A swap preview is not available yet.');
    },
    startSwap: ({ approvalMode, routerConsent }) =>
      services.swaps.start({ approvalMode, ...(routerConsent ? { routerConsent } : {}) }),
    dismissSwap: async () => {
      services.swaps.dismiss();
      return null;
    },
    getBalances: ({ chainId, tokens }) => services.swaps.balances(chainId, tokens),
    getHistory: () => services.swaps.history(),
  };
}
