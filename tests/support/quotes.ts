// One quote for the unit tests: 1 ETH for 3,000 USDC on Ethereum at 0.5% slippage, its
// minReceived exact for that slippage. Each test overrides only what it is about.
import { NATIVE_TOKEN_ADDRESS, type Quote, type QuoteRequest } from '@/lib/api/schema';
import { USDC } from './addresses';

/** The executor a quote names; the tests' router is a different address. */
export const EXECUTOR = '0x1111111111111111111111111111111111111111';

export function quoteFixture(overrides: Partial<Quote> = {}): Quote {
  return {
    chainId: 1,
    inToken: NATIVE_TOKEN_ADDRESS,
    inDecimals: 18,
    inAmount: '1000000000000000000',
    outToken: USDC,
    outDecimals: 6,
    outAmount: '3000000000',
    slippage: 0.5,
    minReceived: '2985000000',
    bestRoute: [{ percent: 100, swaps: [{}] }],
    contractAddress: EXECUTOR,
    contractMethod: 'swap',
    blockNumber: 10,
    ...overrides,
  };
}

/** The request `quote` answers (the fields verifyQuoteAnswersRequest compares). */
export function requestOf(quote: Quote): QuoteRequest {
  const { chainId, inToken, outToken, inAmount, slippage } = quote;
  return { chainId, inToken, outToken, inAmount, slippage };
}
