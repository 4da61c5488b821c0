// Token lists, look-ups and the content script's whitelist batches, all answered from the cache.
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

export function tokenHandlers(
  services: BackgroundServices,
): Pick<Handlers, 'getTokenList' | 'lookupToken' | 'whitelistedTokens'> {
  return {
    getTokenList: async ({ chainId }) => services.tokens.get(chainId),
    lookupToken: async ({ chainId, address }) => services.lookupToken(chainId, address),
    whitelistedTokens: async ({ chainId, addresses }) => {
      const { index } = await services.indexFor(chainId);
      return addresses.filter((address) => index.byAddress(address) !== undefined);
    },
  };
}
