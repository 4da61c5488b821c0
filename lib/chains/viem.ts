// The viem chain object a client is created with, built from our own registry. viem's definitions
// (`viem/chains`) would bring the OP-stack block/transaction formatters and serializers (~6 kB
// minified) into the background for Base and Optimism; Swaplane reads receipts, nonces and fees and
// signs plain EIP-1559 transactions, none of which those formatters change.
import type { Chain } from 'viem';
import { requireChain } from './index';

const VIEM_CHAINS = new Map<number, Chain>();

export function viemChainFor(chainId: number): Chain {
  let chain = VIEM_CHAINS.get(chainId);
  if (!chain) {
    const info = requireChain(chainId); // throws UnknownChainError outside the registry
    chain = Object.freeze({
      id: info.chainId,
      name: info.name,
      nativeCurrency: { name: info.nativeName, symbol: info.nativeSymbol, decimals: info.nativeDecimals },
      rpcUrls: { default: { http: [info.defaultRpcUrl] } },
    });
    VIEM_CHAINS.set(chainId, chain);
  }
  return chain;
}
