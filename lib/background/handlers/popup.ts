// The popup's first frame in one answer (popupStart), and the prefill an explorer page left for it.
import { prefillItem } from '@/lib/storage/items';
import { firstScreenAddresses, pickTokens } from '@/lib/tokens/first-screen';
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

/** A prefill older than this is stale: the user did not open the popup for it. */
export const PREFILL_LIFETIME_MS = 5 * 60 * 1000;

export function popupHandlers(services: BackgroundServices): Pick<Handlers, 'popupStart' | 'takePrefill'> {
  return {
    popupStart: async () => {
      // Cached tokens only: a list that must be fetched first arrives later through getTokenList.
      const session = services.session.getState();
      const swap = services.swaps.current();
      const named = firstScreenAddresses(session, swap);
      const [list, wallet] = await Promise.all([
        named ? services.tokens.cached(named.chainId) : null,
        services.wallet.state(),
      ]);
      return {
        wallet,
        settings: services.settings(),
        session,
        swap,
        tokens:
          named && list ? { chainId: named.chainId, tokens: pickTokens(list.tokens, named.addresses) } : null,
      };
    },
    takePrefill: async () => {
      const prefill = await prefillItem.get();
      if (prefill) await prefillItem.remove();
      return prefill && Date.now() - prefill.createdAt < PREFILL_LIFETIME_MS ? prefill : null;
    },
  };
}
