// viem chain objects for a running devnet chain (real chain id, local RPC, Multicall3 known).
import { type Chain, defineChain } from 'viem';
import type { ManifestChain } from './manifest.ts';

export function devnetViemChain(chain: ManifestChain): Chain {
  return defineChain({
    id: chain.chainId,
    name: `${chain.chainName} (devnet)`,
    nativeCurrency: { name: 'Ether', symbol: chain.nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
    contracts: { multicall3: { address: chain.multicall3 } },
    testnet: true,
  });
}
