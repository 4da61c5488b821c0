// The manifest shape the service reads: what service/config-manifest.ts makes of a configuration
// file (and the devnet's DevnetManifest, which has the same shape), declared structurally and a
// little wider (plain strings, readonly arrays) so either can be passed in.
import { z } from 'zod';

export interface ServiceManifest {
  readonly version: 1;
  readonly chains: readonly ServiceManifestChain[];
}

export interface ServiceManifestChain {
  readonly chainId: number;
  /** The chain's name in the API's paths. */
  readonly chainName: string;
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

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
/** One chain of a manifest (devnet/manifest.ts narrows it to the devnet's names and dexes). */
export const serviceManifestChainSchema = z.object({
  chainId: z.number().int().positive(),
  chainName: z.string().regex(/^[a-z0-9-]+$/),
  rpcUrl: z.url(),
  nativeSymbol: z.string(),
  weth: address,
  multicall3: address,
  router: address,
  executor: address,
  factories: z.array(z.object({ dex: z.string(), address })),
  hubs: z.array(address),
  tokens: z.array(
    z.object({
      address,
      name: z.string(),
      symbol: z.string(),
      decimals: z.number().int(),
      pooled: z.boolean(),
    }),
  ),
  pools: z.array(
    z.object({
      dex: z.string(),
      address,
      token0: address,
      token1: address,
      fee: z.optional(z.number().int()),
    }),
  ),
});

const serviceManifestSchema = z.object({
  version: z.literal(1),
  chains: z.array(serviceManifestChainSchema),
});

/** Validates a manifest that crossed a process boundary (a cluster worker's start message). */
export function parseServiceManifest(json: unknown): ServiceManifest {
  return serviceManifestSchema.parse(json);
}
