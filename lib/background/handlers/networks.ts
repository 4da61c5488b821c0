// Which networks the popup offers: asked of the configured service (its token list per chain) and
// of each RPC (its chain id). Kept a minute per configuration, so opening the popup costs nothing.
import { SwapApiError } from '@/lib/api/errors';
import { CHAINS } from '@/lib/chains';
import { type NetworkStatus, networkStatus, probe } from '@/lib/chains/served';
import { publicClientFor } from '@/lib/rpc/network';
import type { BackgroundServices } from '../services';

const TTL_MS = 60_000;
const RPC_TIMEOUT_MS = 4_000;

/** The service does not serve this chain (as opposed to not answering at all). */
function unsupported(error: unknown): boolean {
  if (!(error instanceof SwapApiError)) return false;
  return error.kind === 'unsupported-chain' || error.status === 404 || error.status === 400;
}

export function createNetworkHandlers(services: BackgroundServices, now: () => number = Date.now) {
  let cached: { key: string; at: number; statuses: Promise<NetworkStatus[]> } | null = null;

  async function check(): Promise<NetworkStatus[]> {
    const settings = services.settings();
    return Promise.all(
      CHAINS.map(async (chain) => {
        const [tokens, rpc] = await Promise.all([
          probe(async () => ({ count: (await services.tokens.get(chain.chainId)).tokens.length })),
          probe(() =>
            publicClientFor(chain.chainId, settings, {
              timeoutMs: RPC_TIMEOUT_MS,
              retryCount: 0,
            }).getChainId(),
          ),
        ]);
        return networkStatus(chain.chainId, tokens, rpc, unsupported);
      }),
    );
  }

  return {
    servedNetworks: async () => {
      const settings = services.settings();
      const key = `${settings.serviceBaseUrl} ${JSON.stringify(settings.rpcOverrides)} ${JSON.stringify(settings.chainNameOverrides)}`;
      if (!cached || cached.key !== key || now() - cached.at >= TTL_MS) {
        cached = { key, at: now(), statuses: check() };
      }
      return cached.statuses;
    },
  };
}
