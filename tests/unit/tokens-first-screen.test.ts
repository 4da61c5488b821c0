import { describe, expect, it } from 'vitest';
import { NATIVE_TOKEN_ADDRESS, type Quote, type Token } from '@/lib/api/schema';
import type { SwapState } from '@/lib/state/pipeline-state';
import { INITIAL_SESSION_STATE, type QuoteSessionState } from '@/lib/state/session-state';
import { restoreForm } from '@/lib/swap/restore-form';
import { firstScreenAddresses, pickTokens } from '@/lib/tokens/first-screen';
import { syntheticTokens } from '../support/tokens';

const [USDC, DAI, WETH, OTHER] = syntheticTokens(4) as [Token, Token, Token, Token];
const input = {
  chainId: 1,
  inToken: USDC.address,
  outToken: DAI.address,
  inAmount: '1500000',
  slippage: 0.3,
};
const quote = {
  chainId: 1,
  inToken: USDC.address,
  outToken: DAI.address,
  bestRoute: [
    {
      percent: 100,
      swaps: [
        {
          dex: 'uniswap-v2',
          tokenIn: USDC.address,
          tokenOut: WETH.address.toUpperCase().replace('0X', '0x'),
        },
        { dex: 'uniswap-v2', tokenIn: WETH.address, tokenOut: DAI.address, pool: 'not an address' },
        { exchange: 'other', tokenIn: 42, tokenOut: 'WETH' },
      ],
    },
  ],
} as unknown as Quote;

function session(patch: Partial<QuoteSessionState>): QuoteSessionState {
  return { ...INITIAL_SESSION_STATE, ...patch };
}

describe('first screen tokens', () => {
  it('names nothing before the user chose anything', () => {
    expect(firstScreenAddresses(INITIAL_SESSION_STATE, null)).toBeNull();
  });

  it('names the pair and the route hops once each, lowercased, skipping what is not an address', () => {
    expect(firstScreenAddresses(session({ input, quote }), null)).toEqual({
      chainId: 1,
      addresses: [USDC.address, DAI.address, WETH.address].map((address) => address.toLowerCase()),
    });
  });

  it('names a swap under way on the session chain, and only its chain', () => {
    const swap = { chainId: 1, request: { inToken: NATIVE_TOKEN_ADDRESS, outToken: OTHER.address } };
    const named = firstScreenAddresses(session({ input }), swap as SwapState);
    expect(named?.addresses).toContain(OTHER.address.toLowerCase());
    expect(named?.addresses).toContain(NATIVE_TOKEN_ADDRESS.toLowerCase());
    const elsewhere = firstScreenAddresses(session({ input }), { ...swap, chainId: 8453 } as SwapState);
    expect(elsewhere?.addresses).not.toContain(OTHER.address.toLowerCase());
    // No session input: the swap's chain and tokens alone.
    expect(firstScreenAddresses(INITIAL_SESSION_STATE, swap as SwapState)?.chainId).toBe(1);
  });

  it('picks listed tokens in list order, in any letter case, and leaves unknown addresses out', () => {
    const list = [USDC, DAI, WETH, OTHER];
    expect(
      pickTokens(list, [
        OTHER.address.toUpperCase().replace('0X', '0x'),
        USDC.address,
        `0x${'1'.repeat(40)}`,
      ]),
    ).toEqual([USDC, OTHER]);
    expect(pickTokens(list, [])).toEqual([]);
  });
});

describe('restoring the form from the session', () => {
  const find = (tokens: Token[]) => (address: string) =>
    tokens.find((token) => token.address.toLowerCase() === address.toLowerCase());

  it('gives back the amount as typed, in the input token decimals', () => {
    const decimals6 = { ...USDC, decimals: 6 };
    expect(restoreForm(input, find([decimals6, DAI]))).toEqual({
      chainId: 1,
      from: decimals6,
      to: DAI,
      amount: '1.5',
      slippage: 0.3,
      complete: true,
    });
  });

  it('says what is missing instead of guessing', () => {
    const partial = restoreForm(input, find([DAI]));
    expect(partial).toMatchObject({ from: undefined, to: DAI, amount: '', complete: false });
  });
});
