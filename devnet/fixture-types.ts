// The shapes of the devnet's token and pool fixtures, apart from the data (fixtures.ts) so the
// long-tail generator can build them without importing the module that calls it.
import type { Address } from 'viem';

export type DexName = 'uniswap-v2' | 'sushiswap';

/** Which runtime code sits at the token's address. */
export type TokenKind = 'erc20' | 'tether' | 'weth';

export interface TokenFixture {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
  kind: TokenKind;
  /** Reference price in micro-USD (6 decimals); sets the pools' ratios. */
  priceMicroUsd: bigint;
  /** Balance every funded test account receives, in the smallest unit. */
  fundAmount: bigint;
}

export interface PoolFixture {
  dex: DexName;
  tokenA: Address;
  tokenB: Address;
  /** Initial liquidity, in each token's smallest unit. */
  amountA: bigint;
  amountB: bigint;
}
