// The devnet and the reference service with a fault proxy in front of each (the service, and
// Ethereum's RPC), and fresh extension storage pointed at the proxies: what the integration tests
// that drive the background through a failing or lying service or RPC share.
import type { Address } from 'viem';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { ManifestChain } from '../../devnet/manifest';
import { clearPublicClients } from '../../lib/rpc/network';
import { DEFAULT_SETTINGS } from '../../lib/settings/settings';
import { settingsItem } from '../../lib/storage/items';
import { createRouterPins } from '../../lib/swap/router-pins';
import { type EmbeddedDefault, startEmbeddedDefault } from '../../scripts/embedded';
import { type FaultProxy, startFaultProxy } from './fault-proxy';

export interface ProxiedDevnet {
  embedded: EmbeddedDefault;
  /** The devnet's Ethereum (chain 1). */
  chain: ManifestChain;
  /** In front of the reference service. */
  service: FaultProxy;
  /** In front of Ethereum's RPC. */
  rpc: FaultProxy;
  /** The address of a token of the devnet's Ethereum, by symbol. */
  token(symbol: string): Address;
  stop(): Promise<void>;
}

export async function startProxiedDevnet(): Promise<ProxiedDevnet> {
  const embedded = await startEmbeddedDefault({ ports: { ethereum: 0, base: 0, service: 0 } });
  const chain = embedded.devnet.manifest.chains.find((c) => c.chainId === 1);
  if (!chain) throw new Error('no ethereum chain');
  const service = await startFaultProxy(embedded.service.url);
  const rpc = await startFaultProxy(chain.rpcUrl);
  clearPublicClients();
  return {
    embedded,
    chain,
    service,
    rpc,
    token(symbol) {
      const found = chain.tokens.find((t) => t.symbol === symbol);
      if (!found) throw new Error(`no ${symbol} on the devnet`);
      return found.address;
    },
    async stop() {
      await service.close();
      await rpc.close();
      await embedded.stop();
    },
  };
}

/**
 * Empty extension storage whose settings point at the proxies (no faults, no hits recorded), and
 * the devnet's router pinned on chain 1: a background created next starts from here.
 */
export async function resetToProxies(net: ProxiedDevnet): Promise<void> {
  fakeBrowser.reset();
  for (const proxy of [net.service, net.rpc]) {
    proxy.clear();
    proxy.hits.length = 0;
  }
  await settingsItem.set({
    ...DEFAULT_SETTINGS,
    serviceBaseUrl: net.service.url,
    rpcOverrides: { '1': net.rpc.url },
  });
  await createRouterPins().pin(1, net.chain.router);
}
