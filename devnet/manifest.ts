// What a running devnet looks like: addresses the service, the extension and tests need.
// Written as JSON to .devnet/manifest.json by the long-running devnet (`npm run devnet`).
import { readFileSync } from 'node:fs';
import type { Address } from 'viem';
import { z } from 'zod';
import { serviceManifestChainSchema } from '../service/manifest.ts';
import type { ChainName, DexName } from './fixtures.ts';

export interface ManifestToken {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
  /** True when at least one pool trades it. */
  pooled: boolean;
}

export interface ManifestPool {
  dex: DexName | 'uniswap-v3';
  address: Address;
  token0: Address;
  token1: Address;
  /** Uniswap V3 only: the pool's fee in hundredths of a basis point (500, 3000, 10000). */
  fee?: number;
}

export interface ManifestChain {
  chainId: number;
  chainName: ChainName;
  rpcUrl: string;
  nativeSymbol: string;
  weth: Address;
  multicall3: Address;
  /** SwapRouter: the build's `to`, the spender users approve. */
  router: Address;
  /** SwapExecutor: the quote's `contractAddress`. */
  executor: Address;
  factories: { dex: DexName | 'uniswap-v3'; address: Address }[];
  hubs: Address[];
  /** Core tokens and the long tail; not the native pseudo-token. */
  tokens: ManifestToken[];
  pools: ManifestPool[];
  /** Tokens for the explorer card's safety check (devnet/safety-tokens.ts), not on the service's list. */
  safetyTokens?: { feeOnTransfer: Address; sellBlocked: Address; clean: Address };
}

export interface DevnetManifest {
  version: 1;
  chains: ManifestChain[];
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/) as unknown as z.ZodType<Address>;
const dex = z.enum(['uniswap-v2', 'sushiswap', 'uniswap-v3']);

// The service's chain schema, narrowed to the devnet's chain names and dexes, plus its safety tokens.
const manifestSchema = z.object({
  version: z.literal(1),
  chains: z.array(
    serviceManifestChainSchema.extend({
      chainName: z.enum(['ethereum', 'base']),
      factories: z.array(z.object({ dex, address })),
      pools: z.array(
        z.object({
          dex,
          address,
          token0: address,
          token1: address,
          fee: z.optional(z.number().int().positive()),
        }),
      ),
      safetyTokens: z.optional(z.object({ feeOnTransfer: address, sellBlocked: address, clean: address })),
    }),
  ),
});

/** Validates untrusted JSON (a manifest file) as a DevnetManifest. */
export function parseManifest(json: unknown): DevnetManifest {
  return manifestSchema.parse(json) as DevnetManifest;
}

export function readManifest(path: string): DevnetManifest {
  return parseManifest(JSON.parse(readFileSync(path, 'utf8')));
}

export function manifestChain(manifest: DevnetManifest, chain: ChainName | number): ManifestChain {
  const found = manifest.chains.find((c) => c.chainName === chain || c.chainId === chain);
  if (!found) throw new Error(`the devnet manifest has no chain ${chain}`);
  return found;
}
