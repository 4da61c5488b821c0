// The manifest shape the service reads: devnet/manifest.ts's DevnetManifest (agreed interface),
// declared structurally and a little wider (plain strings, readonly arrays) so any manifest of
// that shape, the devnet's included, can be passed in.
export interface ServiceManifest {
  readonly version: 1;
  readonly chains: readonly ServiceManifestChain[];
}

export interface ServiceManifestChain {
  readonly chainId: number;
  readonly chainName: 'ethereum' | 'base';
  readonly rpcUrl: string;
  readonly nativeSymbol: string;
  readonly weth: string;
  readonly multicall3: string;
  readonly router: string;
  readonly executor: string;
  readonly factories: readonly { readonly dex: string; readonly address: string }[];
  readonly hubs: readonly string[];
  readonly tokens: readonly {
    readonly address: string;
    readonly name: string;
    readonly symbol: string;
    readonly decimals: number;
    readonly pooled: boolean;
  }[];
  readonly pools: readonly {
    readonly dex: string;
    readonly address: string;
    readonly token0: string;
    readonly token1: string;
    /** Uniswap V3 pools only: the fee tier (500, 3000, 10000). */
    readonly fee?: number | undefined;
  }[];
}
