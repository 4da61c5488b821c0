// The one-chain manifest the service's app tests run on: WETH and USDC with a V2 pool on each of two
// factories; a test adds its own tokens and pools.
import type { ServiceManifest } from '../../service/manifest';
import { USDC, WETH } from './addresses';

type Chain = ServiceManifest['chains'][number];

export function ethereumManifest(
  extra: { tokens?: Chain['tokens']; pools?: Chain['pools'] } = {},
): ServiceManifest {
  return {
    version: 1,
    chains: [
      {
        chainId: 1,
        chainName: 'ethereum',
        rpcUrl: 'http://127.0.0.1:1',
        nativeSymbol: 'ETH',
        weth: WETH,
        multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
        router: `0x${'1'.repeat(40)}`,
        executor: `0x${'2'.repeat(40)}`,
        factories: [
          { dex: 'uniswap-v2', address: `0x${'3'.repeat(40)}` },
          { dex: 'sushiswap', address: `0x${'4'.repeat(40)}` },
        ],
        hubs: [WETH, USDC],
        tokens: [
          { address: WETH, name: 'Wrapped Ether', symbol: 'WETH', decimals: 18, pooled: true },
          { address: USDC, name: 'USD Coin', symbol: 'USDC', decimals: 6, pooled: true },
          ...(extra.tokens ?? []),
        ],
        pools: [
          { dex: 'uniswap-v2', address: `0x${'a'.repeat(40)}`, token0: USDC, token1: WETH },
          { dex: 'sushiswap', address: `0x${'b'.repeat(40)}`, token0: USDC, token1: WETH },
          ...(extra.pools ?? []),
        ],
      },
    ],
  };
}
