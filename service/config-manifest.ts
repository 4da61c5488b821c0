// From a configuration file to what the service routes over: per chain, the listed tokens and the
// pools discovered from the factories' events up to the chain head. Run once at startup (and by
// the primary of a cluster, which hands the result to its workers).
import type { Address } from 'viem';
import { type ChainConfig, ConfigError, loadTokenList, readServiceConfig } from './config';
import { discoverPools } from './discovery';
import type { ServiceManifest, ServiceManifestChain } from './manifest';
import { policyFromConfig, type ServicePolicy } from './policy';
import { createJsonRpcClient } from './rpc-client';

export interface LoadedConfig {
  manifest: ServiceManifest;
  /** One line per chain: tokens listed, pools found, blocks scanned. */
  summary: string[];
  /** The file's public URL and limits, as policy overrides (absent fields keep the defaults). */
  policy: Partial<ServicePolicy>;
}

export async function loadServiceManifest(
  configPath: string,
  fetchImpl: typeof fetch = fetch,
): Promise<LoadedConfig> {
  const config = readServiceConfig(configPath);
  const summary: string[] = [];
  const chains: ServiceManifestChain[] = [];
  for (const chain of config.chains) {
    const loaded = await loadChain(chain, configPath, fetchImpl);
    chains.push(loaded.chain);
    summary.push(loaded.summary);
  }
  return { manifest: { version: 1, chains }, summary, policy: policyFromConfig(config) };
}

async function loadChain(
  chain: ChainConfig,
  configPath: string,
  fetchImpl: typeof fetch,
): Promise<{ chain: ServiceManifestChain; summary: string }> {
  if (!chain.router || !chain.executor) {
    throw new ConfigError(
      `${chain.name}: no router/executor in the configuration; deploy them with \`npm run deploy -- --config ${configPath} --chain ${chain.name} --key <deployer key>\``,
    );
  }
  const tokens = await loadTokenList(chain, configPath, fetchImpl);
  const client = createJsonRpcClient(chain.rpcUrl, 30_000);
  try {
    const remoteId = Number(await client.call<string>('eth_chainId', []));
    if (remoteId !== chain.chainId) {
      throw new ConfigError(
        `${chain.name}: the RPC ${chain.rpcUrl} serves chain ${remoteId}, not ${chain.chainId}`,
      );
    }
    const head = BigInt(await client.call<string>('eth_blockNumber', []));
    const pools = await discoverPools(client, chain.factories, {
      fromBlock: BigInt(chain.discovery.fromBlock),
      toBlock: head,
      chunkBlocks: chain.discovery.chunkBlocks,
      tokens: new Set(tokens.map((token) => token.address.toLowerCase())),
    });
    const pooled = new Set(pools.flatMap((pool) => [pool.token0.toLowerCase(), pool.token1.toLowerCase()]));
    return {
      chain: {
        chainId: chain.chainId,
        chainName: chain.name,
        rpcUrl: chain.rpcUrl,
        nativeSymbol: chain.nativeSymbol,
        weth: chain.weth,
        multicall3: chain.multicall3,
        router: chain.router,
        executor: chain.executor,
        factories: chain.factories.map((factory) => ({ dex: factory.dex, address: factory.address })),
        hubs: chain.hubs,
        tokens: tokens.map(({ address, name, symbol, decimals }) => ({
          address: address as Address,
          name,
          symbol,
          decimals,
          pooled: pooled.has(address.toLowerCase()),
        })),
        pools,
      },
      summary: `${chain.name}: ${tokens.length} listed tokens, ${pools.length} pools found in blocks ${chain.discovery.fromBlock}..${head}`,
    };
  } finally {
    client.close();
  }
}
