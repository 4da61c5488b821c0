// Devnet fixtures: real metadata, the liquidity shape routing tests rely on, a deterministic long
// tail, test accounts that really come from the mnemonic, and Solidity's string storage encoding.
import { hexToBytes, hexToString, keccak256, numberToHex, parseUnits } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEPLOYER, FUNDED_ACCOUNTS, TEST_MNEMONIC } from '../../devnet/accounts.ts';
import { CHAIN_FIXTURES, type ChainFixture, type PoolFixture } from '../../devnet/fixtures.ts';
import { generateLongTail } from '../../devnet/longtail.ts';
import { stringWrites, tokenInitWrites, word } from '../../devnet/token-storage.ts';

const bySymbol = (chain: ChainFixture, symbol: string) => {
  const token = [...chain.tokens, ...chain.longTail].find((t) => t.symbol === symbol);
  if (!token) throw new Error(`no ${symbol}`);
  return token;
};

const poolsOf = (chain: ChainFixture, a: string, b: string): PoolFixture[] => {
  const [x, y] = [bySymbol(chain, a).address, bySymbol(chain, b).address];
  return chain.pools.filter((p) => (p.tokenA === x && p.tokenB === y) || (p.tokenA === y && p.tokenB === x));
};

/** Price of A in B (B units per A unit, decimals applied) as a float, for shape checks only. */
const price = (pool: PoolFixture, chain: ChainFixture) => {
  const [a, b] = [pool.tokenA, pool.tokenB].map((x) =>
    [...chain.tokens, ...chain.longTail].find((t) => t.address === x),
  );
  return Number(pool.amountB) / 10 ** (b?.decimals ?? 0) / (Number(pool.amountA) / 10 ** (a?.decimals ?? 0));
};

describe('chain fixtures', () => {
  const eth = CHAIN_FIXTURES.ethereum;
  const base = CHAIN_FIXTURES.base;

  it('uses real chain ids, addresses and metadata', () => {
    expect(eth.chainId).toBe(1);
    expect(base.chainId).toBe(8453);
    expect(bySymbol(eth, 'USDT')).toMatchObject({
      address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      decimals: 6,
      kind: 'tether',
      name: 'Tether USD',
    });
    expect(bySymbol(eth, 'WBTC').decimals).toBe(8);
    expect(bySymbol(eth, 'DAI').address).toBe('0x6B175474E89094C44Da98b954EedeAC495271d0F');
    expect(bySymbol(base, 'USDC')).toMatchObject({
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      decimals: 6,
    });
    expect(base.weth).toBe('0x4200000000000000000000000000000000000006');
    expect(
      eth.hubs.map((h) => bySymbol(eth, [...eth.tokens].find((t) => t.address === h)?.symbol ?? '').symbol),
    ).toEqual(['WETH', 'USDC', 'USDT', 'DAI']);
  });

  it('lists main pairs on both dexes, sushiswap 30-60% as deep and 0.1-0.5% off in price', () => {
    for (const [chain, a, b] of [
      [eth, 'WETH', 'USDC'],
      [eth, 'WETH', 'USDT'],
      [eth, 'WBTC', 'WETH'],
      [base, 'WETH', 'USDC'],
      [base, 'cbETH', 'WETH'],
    ] as const) {
      const [uni, sushi] = ['uniswap-v2', 'sushiswap'].map((dex) =>
        poolsOf(chain, a, b).find((p) => p.dex === dex),
      );
      if (!uni || !sushi) throw new Error(`${a}/${b} not on both dexes`);
      const depth = Number(sushi.amountA) / Number(uni.amountA);
      expect(depth).toBeGreaterThanOrEqual(0.3);
      expect(depth).toBeLessThanOrEqual(0.6);
      const gap = Math.abs(price(sushi, chain) / price(uni, chain) - 1);
      expect(gap).toBeGreaterThanOrEqual(0.001);
      expect(gap).toBeLessThanOrEqual(0.005);
    }
  });

  it('prices tokens realistically', () => {
    const uni = (chain: ChainFixture, a: string, b: string) =>
      price(poolsOf(chain, a, b).find((p) => p.dex === 'uniswap-v2') as PoolFixture, chain);
    expect(uni(eth, 'WETH', 'USDC')).toBeCloseTo(3000, 0);
    expect(uni(eth, 'WBTC', 'WETH')).toBeCloseTo(20, 3);
    expect(uni(eth, 'LINK', 'WETH') * 3000).toBeCloseTo(15, 3);
    expect(uni(base, 'cbETH', 'WETH')).toBeCloseTo(1.05, 6);
  });

  it('needs two hops for tokens paired with hubs only', () => {
    expect(poolsOf(eth, 'LINK', 'UNI')).toEqual([]);
    expect(poolsOf(base, 'cbETH', 'USDC')).toEqual([]);
    expect(poolsOf(eth, 'LINK', 'WETH').length).toBe(2);
  });

  it('pools only tokens it declares, never a token with itself', () => {
    for (const chain of [eth, base]) {
      const known = new Set([...chain.tokens, ...chain.longTail].map((t) => t.address));
      for (const pool of chain.pools) {
        expect(known.has(pool.tokenA) && known.has(pool.tokenB)).toBe(true);
        expect(pool.tokenA).not.toBe(pool.tokenB);
        expect(pool.amountA).toBeGreaterThan(0n);
        expect(pool.amountB).toBeGreaterThan(0n);
      }
    }
  });
});

describe('long tail', () => {
  for (const chain of Object.values(CHAIN_FIXTURES)) {
    it(`${chain.chainName}: 2,000 unique tokens, varied decimals, about ten pooled against WETH`, () => {
      expect(chain.longTail.length).toBe(2000);
      const all = [...chain.tokens, ...chain.longTail];
      expect(new Set(all.map((t) => t.address.toLowerCase())).size).toBe(all.length);
      expect(new Set(all.map((t) => t.symbol)).size).toBe(all.length);
      expect(new Set(chain.longTail.map((t) => t.decimals))).toEqual(new Set([0, 2, 4, 6, 8, 9, 12, 18]));
      const pooled = chain.longTail.filter((t) => t.pools.length > 0);
      expect(pooled.length).toBe(10);
      for (const token of pooled) {
        expect(token.pools.every((p) => p.tokenB === chain.weth)).toBe(true);
      }
      for (const token of chain.longTail) expect(token.name.length).toBeGreaterThan(0);
    });
  }

  it('is deterministic', () => {
    const again = generateLongTail(
      1,
      bySymbol(CHAIN_FIXTURES.ethereum, 'WETH'),
      new Set(CHAIN_FIXTURES.ethereum.tokens.map((t) => t.address.toLowerCase())),
    );
    expect(again).toEqual(CHAIN_FIXTURES.ethereum.longTail);
    // Pinned, so a generator change that moves every address is noticed.
    expect(CHAIN_FIXTURES.ethereum.longTail[0]).toMatchObject({
      address: '0x0126a45A92B21eDfA26e430Ef3e4dFaDcC23C185',
      name: 'Lydexquin AI',
      symbol: 'LYD',
      decimals: 18,
    });
  });
});

describe('test accounts', () => {
  it('come from the well-known mnemonic', () => {
    FUNDED_ACCOUNTS.forEach((address, i) => {
      expect(mnemonicToAccount(TEST_MNEMONIC, { addressIndex: i }).address).toBe(address);
    });
    expect(mnemonicToAccount(TEST_MNEMONIC, { addressIndex: 9 }).address).toBe(DEPLOYER);
  });

  it('get generous balances', () => {
    expect(bySymbol(CHAIN_FIXTURES.ethereum, 'USDC').fundAmount).toBe(parseUnits('1000000', 6));
    expect(bySymbol(CHAIN_FIXTURES.ethereum, 'WBTC').fundAmount).toBe(parseUnits('100', 8));
  });
});

describe('token storage encoding', () => {
  it('stores short strings inline with length * 2 in the last byte', () => {
    const [[slot, value]] = stringWrites(0n, 'USD Coin') as [[string, `0x${string}`]];
    expect(slot).toBe(word(0n));
    const bytes = hexToBytes(value);
    expect(bytes[31]).toBe(16);
    expect(hexToString(value.slice(0, 18) as `0x${string}`)).toBe('USD Coin');
  });

  it('stores 32+ byte strings at keccak256(slot)', () => {
    const text = 'A token name that is longer than thirty-two bytes';
    const writes = stringWrites(1n, text);
    expect(writes[0]).toEqual([word(1n), numberToHex(BigInt(text.length * 2 + 1), { size: 32 })]);
    expect(writes[1]?.[0]).toBe(keccak256(word(1n)));
    expect(writes.length).toBe(1 + Math.ceil(text.length / 32));
  });

  it('packs decimals and minter into one slot', () => {
    const writes = tokenInitWrites({ name: 'X', symbol: 'X', decimals: 6, minter: DEPLOYER });
    expect(writes[2]?.[1]).toBe(`0x0000000000000000000000${DEPLOYER.slice(2).toLowerCase()}06`);
  });
});
