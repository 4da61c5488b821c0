import { describe, expect, it } from 'vitest';
import { CHAIN_FIXTURES } from '../../devnet/fixtures.ts';
import { tokenLogoSvg } from '../../service/logos.ts';

const ethereum = CHAIN_FIXTURES.ethereum.tokens;
const base = CHAIN_FIXTURES.base.tokens;
const bySymbol = (tokens: typeof ethereum, symbol: string) => {
  const found = tokens.find((token) => token.symbol === symbol);
  if (!found) throw new Error(`no ${symbol} in the fixture`);
  return found;
};

describe('token logos', () => {
  it('draws one logo for an asset listed on two chains (USDC on Ethereum and Base), at two addresses', () => {
    const usdcEthereum = bySymbol(ethereum, 'USDC');
    const usdcBase = bySymbol(base, 'USDC');
    expect(usdcEthereum.address).not.toBe(usdcBase.address);
    expect(tokenLogoSvg(usdcEthereum)).toBe(tokenLogoSvg(usdcBase));
    // Every asset both lists share (same symbol and name) looks the same on both.
    const shared = ethereum.filter((token) =>
      base.some((other) => other.symbol === token.symbol && other.name === token.name),
    );
    expect(shared.map((token) => token.symbol)).toEqual(expect.arrayContaining(['USDC', 'WETH', 'DAI']));
    for (const token of shared) {
      const other = bySymbol(base, token.symbol);
      expect(tokenLogoSvg(token), token.symbol).toBe(tokenLogoSvg(other));
    }
  });

  it('keeps different assets apart: USDC and USDbC (bridged) on Base do not share a colour', () => {
    const fill = (svg: string) => /fill="(hsl\([^)]+\))"/.exec(svg)?.[1];
    const usdc = tokenLogoSvg(bySymbol(base, 'USDC'));
    const bridged = tokenLogoSvg(bySymbol(base, 'USDbC'));
    expect(fill(usdc)).toBeDefined();
    expect(fill(usdc)).not.toBe(fill(bridged));
  });
});
