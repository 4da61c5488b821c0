// viem's chain objects, kept out of lib/chains/index.ts so views that only need names and
// explorers do not bundle viem's chain formatters and serializers.
import type { Chain } from 'viem';
import { arbitrum, avalanche, base, bsc, fantom, mainnet, optimism, polygon } from 'viem/chains';
import { UnknownChainError } from './index';

const VIEM_CHAINS: ReadonlyMap<number, Chain> = new Map<number, Chain>(
  [mainnet, bsc, polygon, arbitrum, optimism, base, avalanche, fantom].map((chain) => [chain.id, chain]),
);

export function viemChainFor(chainId: number): Chain {
  const chain = VIEM_CHAINS.get(chainId);
  if (!chain) throw new UnknownChainError(chainId);
  return chain;
}
