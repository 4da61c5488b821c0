// The service's view of the manifest: per chain, the whitelisted tokens (native first), the pool
// graph, and the contracts. Built once at startup; lookups are by lowercase address.
import { getAddress } from 'viem';
import { NATIVE_TOKEN_ADDRESS } from '../lib/api/schema';
import type { ServiceManifest, ServiceManifestChain } from './manifest';
import { PoolGraph } from './routing/graph';

/** A chain's name in the API's paths, from the configuration (the devnet's: ethereum, base). */
export type ChainName = string;

export interface TokenRecord {
  readonly address: `0x${string}`; // EIP-55
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly native: boolean;
}

export interface ChainContext {
  readonly chainId: number;
  readonly name: ChainName;
  readonly nativeSymbol: string;
  readonly weth: `0x${string}`;
  readonly router: `0x${string}`;
  readonly executor: `0x${string}`;
  readonly multicall3: `0x${string}`;
  readonly rpcUrl: string;
  readonly dexes: ReadonlySet<string>;
  readonly graph: PoolGraph;
  /** EIP-55 forms precomputed at startup: checksumming is a keccak, too slow per quote. */
  readonly poolAddresses: readonly `0x${string}`[];
  readonly checksum: (lowercase: string) => `0x${string}`;
  /** Native pseudo-token first, then the manifest's tokens in manifest order. */
  readonly tokens: readonly TokenRecord[];
  readonly tokensByAddress: ReadonlyMap<string, TokenRecord>;
}

export interface ChainRegistry {
  readonly chains: readonly ChainContext[];
  byName(name: string): ChainContext | undefined;
  byId(chainId: number): ChainContext | undefined;
}

export function buildChainContext(chain: ServiceManifestChain): ChainContext {
  const native: TokenRecord = {
    address: NATIVE_TOKEN_ADDRESS,
    name: chain.nativeSymbol === 'ETH' ? 'Ether' : chain.nativeSymbol,
    symbol: chain.nativeSymbol,
    decimals: 18,
    native: true,
  };
  const tokens: TokenRecord[] = [native];
  const tokensByAddress = new Map<string, TokenRecord>([[NATIVE_TOKEN_ADDRESS.toLowerCase(), native]]);
  for (const token of chain.tokens) {
    const key = token.address.toLowerCase();
    if (tokensByAddress.has(key)) continue; // a duplicate would make the list ambiguous
    const record: TokenRecord = {
      address: getAddress(token.address),
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      native: false,
    };
    tokens.push(record);
    tokensByAddress.set(key, record);
  }
  const graph = new PoolGraph(chain.pools, chain.hubs);
  const checksums = new Map<string, `0x${string}`>();
  for (const pool of chain.pools) {
    for (const token of [pool.token0, pool.token1]) checksums.set(token.toLowerCase(), getAddress(token));
  }
  const weth = getAddress(chain.weth);
  checksums.set(weth.toLowerCase(), weth);
  return {
    chainId: chain.chainId,
    name: chain.chainName,
    nativeSymbol: chain.nativeSymbol,
    weth,
    router: getAddress(chain.router),
    executor: getAddress(chain.executor),
    multicall3: getAddress(chain.multicall3),
    rpcUrl: chain.rpcUrl,
    dexes: new Set(chain.factories.map((factory) => factory.dex)),
    graph,
    poolAddresses: chain.pools.map((pool) => getAddress(pool.address)),
    checksum: (lowercase) => checksums.get(lowercase) ?? getAddress(lowercase),
    tokens,
    tokensByAddress,
  };
}

export function buildChainRegistry(manifest: ServiceManifest): ChainRegistry {
  const chains = manifest.chains.map(buildChainContext);
  const byName = new Map(chains.map((chain) => [chain.name as string, chain]));
  const byId = new Map(chains.map((chain) => [chain.chainId, chain]));
  return {
    chains,
    byName: (name) => byName.get(name),
    byId: (chainId) => byId.get(chainId),
  };
}
