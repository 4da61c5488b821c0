// The devnet's service configuration: the same file format a real deployment uses (service/config.ts),
// written next to a token list per chain. The service then finds the devnet's pools from the
// factories' events, as it would on any chain.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { keccak256 } from 'viem';
import { type ChainConfig, type LimitsConfig, readServiceConfig } from '../service/config';
import { writeChainConfig } from '../service/deploy';
import { loadUniswapV2 } from './artifacts.ts';
import type { DevnetManifest } from './manifest.ts';
import { DEFAULT_MANIFEST_PATH } from './start.ts';
import { V3_POOL_INIT_CODE_HASH } from './v3-pools.ts';

/**
 * The devnet's rate limits: it serves one developer, whose tests and end-to-end runs all come from
 * 127.0.0.1 in parallel, so its buckets (and its open connections) are far larger than a public
 * deployment's defaults.
 */
export const DEVNET_LIMITS: LimitsConfig = {
  rateLimits: {
    quote: { burst: 600, perSecond: 300 },
    build: { burst: 200, perSecond: 100 },
    read: { burst: 2_000, perSecond: 1_000 },
  },
  connections: { maxPerClient: 512 },
};

/** Where `npm run service` and `npm run demo` keep the running devnet's configuration. */
export const DEVNET_SERVICE_CONFIG_PATH = join(dirname(DEFAULT_MANIFEST_PATH), 'service-config.json');

/** Writes `path` (and tokens-<chain>.json beside it) for a running devnet; returns the path. */
export function writeDevnetServiceConfig(manifest: DevnetManifest, path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  const pairHash = keccak256(loadUniswapV2().pair.bytecode);
  for (const chain of manifest.chains) {
    const listFile = `tokens-${chain.chainName}.json`;
    const list = {
      name: `Swaplane devnet (${chain.chainName})`,
      tokens: chain.tokens.map(({ address, name, symbol, decimals }) => ({
        chainId: chain.chainId,
        address,
        name,
        symbol,
        decimals,
      })),
    };
    writeFileSync(join(dirname(path), listFile), `${JSON.stringify(list)}\n`);
    const config: ChainConfig = {
      chainId: chain.chainId,
      name: chain.chainName,
      nativeSymbol: chain.nativeSymbol,
      rpcUrl: chain.rpcUrl,
      weth: chain.weth,
      multicall3: chain.multicall3,
      router: chain.router,
      executor: chain.executor,
      factories: chain.factories.map((factory) =>
        factory.dex === 'uniswap-v3'
          ? {
              protocol: 'uniswap-v3' as const,
              dex: factory.dex,
              address: factory.address,
              initCodeHash: V3_POOL_INIT_CODE_HASH,
              feeTiers: [500, 3000, 10000],
            }
          : {
              protocol: 'uniswap-v2' as const,
              dex: factory.dex,
              address: factory.address,
              initCodeHash: pairHash,
            },
      ),
      hubs: chain.hubs,
      tokenList: { file: listFile },
      discovery: { fromBlock: 0, chunkBlocks: 10_000 },
    };
    writeChainConfig(path, config);
  }
  const written = readServiceConfig(path);
  writeFileSync(path, `${JSON.stringify({ ...written, limits: DEVNET_LIMITS }, null, 2)}\n`);
  return path;
}
