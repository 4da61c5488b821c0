// Chain fixtures of the devnet: real token addresses and metadata, synthetic liquidity.
// Plain data plus a seeded long-tail generator, so the deploy script, the reference service and
// tests all see the same tokens and pools. Amounts are bigint in the token's smallest unit.
import { type Address, getAddress, parseUnits } from 'viem';
import type { DexName, PoolFixture, TokenFixture, TokenKind } from './fixture-types.ts';
import { poolAmounts } from './liquidity.ts';
import { generateLongTail, type LongTailToken } from './longtail.ts';

export type { DexName, PoolFixture, TokenFixture, TokenKind } from './fixture-types.ts';

export type ChainName = 'ethereum' | 'base';

export const CHAIN_NAMES: readonly ChainName[] = ['ethereum', 'base'];
export const DEXES: readonly DexName[] = ['uniswap-v2', 'sushiswap'];

export const NATIVE_TOKEN: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
export const MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

export interface ChainFixture {
  chainId: number;
  chainName: ChainName;
  nativeSymbol: string;
  weth: Address;
  /** Tokens at real addresses (WETH included; the native pseudo-token is not a token here). */
  tokens: TokenFixture[];
  /** Routing hubs: the intermediate tokens worth trying for two-hop routes. */
  hubs: Address[];
  pools: PoolFixture[];
  /** Seeded synthetic tokens at pseudo-random addresses, a few of them pooled against WETH. */
  longTail: LongTailToken[];
}

const usd = (price: string): bigint => parseUnits(price, 6);

function token(
  address: string,
  name: string,
  symbol: string,
  decimals: number,
  price: string,
  fund: string,
  kind: TokenKind = 'erc20',
): TokenFixture {
  return {
    address: getAddress(address),
    name,
    symbol,
    decimals,
    kind,
    priceMicroUsd: usd(price),
    fundAmount: parseUnits(fund, decimals),
  };
}

/**
 * A pair listed on uniswap-v2 with `depthUsd` of liquidity, and on sushiswap with `sushiPercent`
 * of that depth and a price `skewBps` basis points away (so splits across the two pay off).
 * `only` lists the pair on a single dex.
 */
interface PairSpec {
  a: string;
  b: string;
  depthUsd: number;
  sushiPercent?: number;
  skewBps?: number;
  only?: DexName;
}

function pools(tokens: TokenFixture[], specs: PairSpec[]): PoolFixture[] {
  const bySymbol = new Map(tokens.map((t) => [t.symbol, t]));
  const get = (symbol: string): TokenFixture => {
    const found = bySymbol.get(symbol);
    if (!found) throw new Error(`fixture pool names unknown token ${symbol}`);
    return found;
  };
  return specs.flatMap((spec) => {
    const a = get(spec.a);
    const b = get(spec.b);
    const uniswap = poolAmounts(a, b, BigInt(spec.depthUsd), 0);
    const sushi = poolAmounts(
      a,
      b,
      (BigInt(spec.depthUsd) * BigInt(spec.sushiPercent ?? 50)) / 100n,
      spec.skewBps ?? 0,
    );
    const out: PoolFixture[] = [];
    if (spec.only !== 'sushiswap')
      out.push({ dex: 'uniswap-v2', tokenA: a.address, tokenB: b.address, ...uniswap });
    if (spec.only !== 'uniswap-v2')
      out.push({ dex: 'sushiswap', tokenA: a.address, tokenB: b.address, ...sushi });
    return out;
  });
}

// --- Ethereum (chain id 1) ---
const ethereumTokens: TokenFixture[] = [
  token('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 'Wrapped Ether', 'WETH', 18, '3000', '1000', 'weth'),
  token('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'USD Coin', 'USDC', 6, '1', '1000000'),
  token('0xdAC17F958D2ee523a2206206994597C13D831ec7', 'Tether USD', 'USDT', 6, '1', '1000000', 'tether'),
  token('0x6B175474E89094C44Da98b954EedeAC495271d0F', 'Dai Stablecoin', 'DAI', 18, '1', '1000000'),
  token('0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', 'Wrapped BTC', 'WBTC', 8, '60000', '100'),
  token('0x514910771AF9Ca656af840dff83E8264EcF986CA', 'ChainLink Token', 'LINK', 18, '15', '100000'),
  token('0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984', 'Uniswap', 'UNI', 18, '8', '100000'),
  token('0x7Fc66500c84A76Ad7e9c93437bFc5Ac33E2DDaE9', 'Aave Token', 'AAVE', 18, '100', '10000'),
  token('0x9f8F72aA9304c8B593d555F12eF6589cC3A579A2', 'Maker', 'MKR', 18, '1500', '1000'),
];

const ethereumPools = pools(ethereumTokens, [
  { a: 'WETH', b: 'USDC', depthUsd: 40_000_000, sushiPercent: 45, skewBps: 20 },
  { a: 'WETH', b: 'USDT', depthUsd: 24_000_000, sushiPercent: 50, skewBps: -30 },
  { a: 'WETH', b: 'DAI', depthUsd: 12_000_000, sushiPercent: 40, skewBps: 15 },
  { a: 'USDC', b: 'USDT', depthUsd: 10_000_000, sushiPercent: 35, skewBps: 10 },
  { a: 'USDC', b: 'DAI', depthUsd: 8_000_000, sushiPercent: 55, skewBps: -12 },
  { a: 'USDT', b: 'DAI', depthUsd: 3_000_000, sushiPercent: 60, skewBps: 25 },
  { a: 'WBTC', b: 'WETH', depthUsd: 16_000_000, sushiPercent: 40, skewBps: -25 },
  { a: 'WBTC', b: 'USDC', depthUsd: 4_000_000, only: 'uniswap-v2' },
  // LINK, UNI, AAVE and MKR trade against hubs only: LINK -> UNI takes two hops.
  { a: 'LINK', b: 'WETH', depthUsd: 6_000_000, sushiPercent: 50, skewBps: 35 },
  { a: 'LINK', b: 'USDC', depthUsd: 1_000_000, only: 'sushiswap' },
  { a: 'UNI', b: 'WETH', depthUsd: 5_000_000, sushiPercent: 45, skewBps: -40 },
  { a: 'UNI', b: 'USDT', depthUsd: 800_000, only: 'uniswap-v2' },
  { a: 'AAVE', b: 'WETH', depthUsd: 3_000_000, sushiPercent: 30, skewBps: 50 },
  { a: 'MKR', b: 'WETH', depthUsd: 2_000_000, only: 'sushiswap' },
  { a: 'MKR', b: 'DAI', depthUsd: 1_000_000, only: 'uniswap-v2' },
]);

// --- Base (chain id 8453) ---
const baseTokens: TokenFixture[] = [
  token('0x4200000000000000000000000000000000000006', 'Wrapped Ether', 'WETH', 18, '3000', '1000', 'weth'),
  token('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USD Coin', 'USDC', 6, '1', '1000000'),
  token('0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb', 'Dai Stablecoin', 'DAI', 18, '1', '1000000'),
  token(
    '0x2Ae3F1Ec7F1F5012CFEab0185bfc7aa3cf0DEc22',
    'Coinbase Wrapped Staked ETH',
    'cbETH',
    18,
    '3150',
    '1000',
  ),
  token('0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA', 'USD Base Coin', 'USDbC', 6, '1', '1000000'),
  token('0x940181a94A35A4569E4529A3CDfB74e38FD98631', 'Aerodrome', 'AERO', 18, '1', '1000000'),
];

const basePools = pools(baseTokens, [
  { a: 'WETH', b: 'USDC', depthUsd: 30_000_000, sushiPercent: 40, skewBps: 18 },
  { a: 'WETH', b: 'DAI', depthUsd: 2_000_000, sushiPercent: 50, skewBps: -22 },
  { a: 'USDC', b: 'DAI', depthUsd: 3_000_000, sushiPercent: 35, skewBps: 12 },
  { a: 'USDC', b: 'USDbC', depthUsd: 6_000_000, sushiPercent: 60, skewBps: -10 },
  { a: 'WETH', b: 'USDbC', depthUsd: 4_000_000, sushiPercent: 30, skewBps: 30 },
  // cbETH trades against WETH only: cbETH -> USDC takes two hops.
  { a: 'cbETH', b: 'WETH', depthUsd: 8_000_000, sushiPercent: 45, skewBps: -20 },
  { a: 'AERO', b: 'WETH', depthUsd: 3_000_000, sushiPercent: 50, skewBps: 40 },
  { a: 'AERO', b: 'USDC', depthUsd: 2_000_000, only: 'uniswap-v2' },
]);

function chain(
  chainId: number,
  chainName: ChainName,
  tokens: TokenFixture[],
  hubSymbols: string[],
  corePools: PoolFixture[],
): ChainFixture {
  const weth = tokens.find((t) => t.kind === 'weth');
  if (!weth) throw new Error(`${chainName} fixture has no WETH`);
  const hubs = hubSymbols.map((symbol) => {
    const hub = tokens.find((t) => t.symbol === symbol);
    if (!hub) throw new Error(`${chainName} hub ${symbol} is not a fixture token`);
    return hub.address;
  });
  const longTail = generateLongTail(chainId, weth, new Set(tokens.map((t) => t.address.toLowerCase())));
  const longTailPools = longTail.flatMap((t) => t.pools);
  return {
    chainId,
    chainName,
    nativeSymbol: 'ETH',
    weth: weth.address,
    tokens,
    hubs,
    pools: [...corePools, ...longTailPools],
    longTail,
  };
}

export const CHAIN_FIXTURES: Readonly<Record<ChainName, ChainFixture>> = {
  ethereum: chain(1, 'ethereum', ethereumTokens, ['WETH', 'USDC', 'USDT', 'DAI'], ethereumPools),
  base: chain(8453, 'base', baseTokens, ['WETH', 'USDC', 'DAI'], basePools),
};

export function chainFixture(chain: ChainName | number): ChainFixture {
  const found = Object.values(CHAIN_FIXTURES).find((c) => c.chainName === chain || c.chainId === chain);
  if (!found) throw new Error(`no devnet fixture for chain ${chain}`);
  return found;
}
