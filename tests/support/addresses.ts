// Real Ethereum mainnet token addresses (EIP-55), the same on the devnet replica: one place for the
// tests and benchmarks instead of a literal in each file.
import type { Address } from '@/lib/api/schema';

export const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' as Address;
export const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' as Address;
export const DAI = '0x6B175474E89094C44Da98b954EedeAC495271d0F' as Address;
export const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7' as Address;

/** The same addresses in lower case, as pages and test ids write them. */
export const lowercase = {
  USDC: USDC.toLowerCase() as Address,
  WETH: WETH.toLowerCase() as Address,
  DAI: DAI.toLowerCase() as Address,
  USDT: USDT.toLowerCase() as Address,
};
