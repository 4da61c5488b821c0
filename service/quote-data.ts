// What /v1/quote answers, apart from quote.ts so the wrap route (wrap.ts), which quote.ts calls,
// can name its shape without importing it back.
import type { ReferenceSwap } from '../lib/api/schema';

/** A quote's bestRoute: shares of the input, each a chain of swaps. */
export type BestRouteJson = { percent: number; swaps: ReferenceSwap[] }[];

export interface QuoteData {
  chainId: number;
  inToken: string;
  inDecimals: number;
  inAmount: string;
  outToken: string;
  outDecimals: number;
  outAmount: string;
  slippage: number;
  minReceived: string;
  bestRoute: BestRouteJson;
  contractAddress: string;
  contractMethod: 'swap';
  blockNumber: number;
  /** Not in the contract: the request's referral code, carried to /build (0 when absent). */
  refCode: number;
}
