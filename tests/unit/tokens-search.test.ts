import { describe, expect, it } from 'vitest';
import { buildTokenSearchIndex } from '@/lib/tokens/search';
import { syntheticTokens } from '../support/tokens';

const core = [
  { address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', symbol: 'WETH', name: 'Wrapped Ether' },
  { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', name: 'USD Coin' },
  { address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', symbol: 'USDT', name: 'Tether USD' },
  { address: '0x6B175474E89094C44Da98b954EedeAC495271d0F', symbol: 'DAI', name: 'Dai Stablecoin' },
  { address: '0x1111111111111111111111111111111111111111', symbol: 'USDCX', name: 'Bridged USDC' },
  { address: '0x2222222222222222222222222222222222222222', symbol: 'ETHX', name: 'Stader ETHx' },
  { address: '0x3333333333333333333333333333333333333333', symbol: 'STETH', name: 'Liquid staked Ether 2.0' },
];

describe('token search index', () => {
  const index = buildTokenSearchIndex(core);
  const symbolsOf = (query: string) => index.search(query).map((i) => core[i]?.symbol);

  it('returns every token in list order for an empty query', () => {
    expect(index.search('   ')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(index.search('', 2)).toEqual([0, 1]);
  });

  it('puts an exact address match first, in any case, and nothing else', () => {
    expect(index.search('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).toEqual([1]);
    expect(index.search(' 0xA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48 ')).toEqual([1]);
    expect(index.search('0x0000000000000000000000000000000000000001')).toEqual([]);
    expect(index.byAddress('0XDAC17F958D2EE523A2206206994597C13D831EC7'.replace('0X', '0x'))).toBe(2);
  });

  it('ranks exact symbol, then symbol prefix, then name prefix, then name word, then substring', () => {
    // USDCX's name also contains "usdc", but a token is listed once, in its best bucket.
    expect(symbolsOf('usdc')).toEqual(['USDC', 'USDCX']);
    expect(symbolsOf('usd')).toEqual(['USDC', 'USDT', 'USDCX']);
    // ETHX by symbol prefix, then WETH and STETH because a word of their names starts with "eth".
    // USDT last: "tether" contains "eth" only as a substring.
    expect(symbolsOf('eth')).toEqual(['ETHX', 'WETH', 'STETH', 'USDT']);
    // Substring matches come last and need three characters.
    expect(symbolsOf('coin')).toEqual(['USDC', 'DAI']); // word of "USD Coin", then substring of "Stablecoin"
    expect(symbolsOf('tablec')).toEqual(['DAI']);
    expect(symbolsOf('oi')).toEqual([]);
  });

  it('matches names by prefix and by word', () => {
    expect(symbolsOf('wrapped')).toEqual(['WETH']);
    expect(symbolsOf('ether')).toEqual(['WETH', 'STETH', 'USDT']);
    expect(symbolsOf('stable')).toEqual(['DAI']);
  });

  it('matches several words as a phrase at the start of the name, then inside it', () => {
    expect(symbolsOf('usd coin')).toEqual(['USDC']);
    expect(symbolsOf('staked  ether')).toEqual(['STETH']);
    expect(symbolsOf('ether 2.0')).toEqual(['STETH']);
  });

  it('cuts at the limit without reordering the ranks', () => {
    expect(index.search('eth', 2).map((i) => core[i]?.symbol)).toEqual(['ETHX', 'WETH']);
    expect(index.search('usd', 1).map((i) => core[i]?.symbol)).toEqual(['USDC']);
  });

  it('matches an address prefix', () => {
    expect(symbolsOf('0x1111')).toEqual(['USDCX']);
  });

  it('searches 10,000 tokens', () => {
    const tokens = syntheticTokens(10_000);
    const big = buildTokenSearchIndex(tokens);
    const target = tokens[7_777];
    if (!target) throw new Error('fixture too small');
    expect(big.search(target.address)).toEqual([7_777]);
    const hits = big.search(target.symbol);
    expect(tokens[hits[0] as number]?.symbol).toBe(target.symbol);
    expect(big.search('zzzzzzzz')).toEqual([]);
  });
});
