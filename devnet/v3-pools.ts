// Uniswap V3 on the devnet: the factory exactly as published in @uniswap/v3-core, pools at several
// fee tiers with positions over real tick ranges (a narrow and a wide one, so larger trades cross
// ticks), beside the V2 pools. Some pairs are deepest on V3 (WETH/USDC, USDC/USDT), some have no V3
// pool (LINK/USDC, MKR/DAI...), so routes mix protocols and hops. Deployed after the rest of a chain
// by an account of its own, so every earlier address stays where it was; deterministic.
import { type Address, encodeFunctionData, getAddress, getContractAddress, type Hex, parseAbi } from 'viem';
import {
  encodeSqrtRatioX96,
  FEE_TICK_SPACING,
  getTickAtSqrtRatio,
  liquidityForAmounts,
  MAX_TICK,
  MIN_TICK,
} from '../service/pool-math/v3.ts';
import { tokenAbi, weth9Abi } from './abi.ts';
import { DEPLOYER } from './accounts.ts';
import { loadArtifact, loadUniswapV3 } from './artifacts.ts';
import type { ChainFixture, TokenFixture } from './fixtures.ts';
import { poolAmounts } from './liquidity.ts';
import type { ManifestPool } from './manifest.ts';
import { RpcClient } from './rpc.ts';

/** Anvil's account 8: deploys the V3 factory (its nonce 0) and the liquidity helper (nonce 1). */
export const V3_DEPLOYER: Address = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f';
export const V3_FACTORY: Address = getContractAddress({ from: V3_DEPLOYER, nonce: 0n });
const V3_LIQUIDITY: Address = getContractAddress({ from: V3_DEPLOYER, nonce: 1n });
/** keccak256 of UniswapV3Pool's creation code in @uniswap/v3-core 1.0.1 (as on mainnet). */
export const V3_POOL_INIT_CODE_HASH: Hex =
  '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54';

const factoryAbi = parseAbi([
  'function createPool(address tokenA, address tokenB, uint24 fee) returns (address pool)',
  'function getPool(address, address, uint24) view returns (address)',
]);
const poolAbi = parseAbi(['function initialize(uint160 sqrtPriceX96)']);
const liquidityAbi = parseAbi([
  'function mint(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity)',
]);

/** A position: `widthBps` either side of the price, holding about `depthUsd` at the price. */
interface PositionSpec {
  widthBps: number;
  depthUsd: number;
}

interface V3PoolSpec {
  a: string;
  b: string;
  fee: 500 | 3000 | 10000;
  positions: PositionSpec[];
}

const V3_SPECS: Readonly<Record<string, V3PoolSpec[]>> = {
  ethereum: [
    // Deepest near the price: a 2% band, a 15% band and a wide one.
    { a: 'WETH', b: 'USDC', fee: 500, positions: [band(200, 6e6), band(1500, 20e6), band(9000, 10e6)] },
    { a: 'WETH', b: 'USDC', fee: 3000, positions: [band(3000, 8e6)] },
    { a: 'WETH', b: 'USDT', fee: 3000, positions: [band(1000, 6e6), band(8000, 4e6)] },
    { a: 'USDC', b: 'USDT', fee: 500, positions: [band(50, 8e6), band(500, 4e6)] },
    { a: 'WBTC', b: 'WETH', fee: 3000, positions: [band(500, 4e6), band(5000, 6e6)] },
    { a: 'LINK', b: 'WETH', fee: 10000, positions: [band(5000, 2e6)] },
    { a: 'UNI', b: 'WETH', fee: 3000, positions: [band(2000, 1e6)] },
  ],
  base: [
    { a: 'WETH', b: 'USDC', fee: 500, positions: [band(200, 5e6), band(2000, 15e6)] },
    { a: 'WETH', b: 'USDC', fee: 3000, positions: [band(6000, 5e6)] },
    { a: 'cbETH', b: 'WETH', fee: 500, positions: [band(100, 4e6), band(1000, 3e6)] },
    { a: 'AERO', b: 'WETH', fee: 10000, positions: [band(6000, 1.5e6)] },
  ],
};

function band(widthBps: number, depthUsd: number): PositionSpec {
  return { widthBps, depthUsd };
}

/** Factory, liquidity helper, pools and positions; returns the pools for the manifest. */
export async function deployV3Pools(
  rpcUrl: string,
  fixture: ChainFixture,
): Promise<{ factory: Address; pools: ManifestPool[] }> {
  const rpc = new RpcClient(rpcUrl);
  const specs = V3_SPECS[fixture.chainName] ?? [];
  const bySymbol = new Map(fixture.tokens.map((t) => [t.symbol, t]));
  const token = (symbol: string): TokenFixture => {
    const found = bySymbol.get(symbol);
    if (!found) throw new Error(`V3 pool names unknown token ${symbol}`);
    return found;
  };
  const send = async (from: Address, to: Address | null, data: Hex, value = 0n) => {
    const hash = await rpc.request<Hex>('eth_sendTransaction', [
      {
        from,
        data,
        gas: '0x1c9c380', // 30M: the factory deployment is large
        ...(to ? { to } : {}),
        ...(value ? { value: `0x${value.toString(16)}` } : {}),
      },
    ]);
    let receipt = await rpc.request<{ status: Hex } | null>('eth_getTransactionReceipt', [hash]);
    if (!receipt) {
      await rpc.request('evm_mine');
      receipt = await rpc.request<{ status: Hex } | null>('eth_getTransactionReceipt', [hash]);
    }
    if (receipt?.status !== '0x1') throw new Error(`V3 deploy transaction failed (${data.slice(0, 10)})`);
  };

  const nonce = Number(await rpc.request<Hex>('eth_getTransactionCount', [V3_DEPLOYER, 'latest']));
  if (nonce !== 0) throw new Error(`V3 deploy needs a fresh V3 deployer (nonce ${nonce})`);
  await rpc.request('anvil_setBalance', [V3_DEPLOYER, '0x33b2e3c9fd0803ce8000000']); // 1e27 wei
  await send(V3_DEPLOYER, null, loadUniswapV3().factory.bytecode);
  await send(V3_DEPLOYER, null, loadArtifact('V3Liquidity').bytecode);

  const pools: ManifestPool[] = [];
  const planned: { pool: Address; lower: number; upper: number; liquidity: bigint }[] = [];
  const needs = new Map<Address, bigint>();
  for (const spec of specs) {
    const [t0, t1] = sortByAddress(token(spec.a), token(spec.b));
    const spacing = FEE_TICK_SPACING[spec.fee] as number;
    // Equal USD value of each side: their ratio is the reference price.
    const ref = poolAmounts(t0, t1, 1_000_000n);
    const sqrtPrice = encodeSqrtRatioX96(ref.amountB, ref.amountA);
    const tick = getTickAtSqrtRatio(sqrtPrice);
    await send(
      V3_DEPLOYER,
      V3_FACTORY,
      encodeFunctionData({
        abi: factoryAbi,
        functionName: 'createPool',
        args: [t0.address, t1.address, spec.fee],
      }),
    );
    const pool = await readPool(rpc, t0.address, t1.address, spec.fee);
    await send(
      V3_DEPLOYER,
      pool,
      encodeFunctionData({ abi: poolAbi, functionName: 'initialize', args: [sqrtPrice] }),
    );
    for (const position of spec.positions) {
      const delta = Math.round(Math.log(1 + position.widthBps / 10_000) / Math.log(1.0001));
      const lower = Math.max(Math.ceil(MIN_TICK / spacing), Math.floor((tick - delta) / spacing)) * spacing;
      const upper = Math.min(Math.floor(MAX_TICK / spacing), Math.ceil((tick + delta) / spacing)) * spacing;
      const amounts = poolAmounts(t0, t1, BigInt(position.depthUsd));
      const liquidity = liquidityForAmounts(sqrtPrice, lower, upper, amounts.amountA, amounts.amountB);
      planned.push({ pool, lower, upper, liquidity });
      // The mint takes at most these amounts; twice covers rounding with room to spare.
      needs.set(t0.address, (needs.get(t0.address) ?? 0n) + 2n * amounts.amountA);
      needs.set(t1.address, (needs.get(t1.address) ?? 0n) + 2n * amounts.amountB);
    }
    pools.push({ dex: 'uniswap-v3', address: pool, token0: t0.address, token1: t1.address, fee: spec.fee });
  }

  for (const [address, amount] of needs) {
    if (address === fixture.weth) {
      await send(
        V3_DEPLOYER,
        fixture.weth,
        encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }),
        amount,
      );
      await send(
        V3_DEPLOYER,
        fixture.weth,
        encodeFunctionData({ abi: weth9Abi, functionName: 'transfer', args: [V3_LIQUIDITY, amount] }),
      );
    } else {
      // Every devnet token's minter is the main deployer.
      await send(
        DEPLOYER,
        address,
        encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [V3_LIQUIDITY, amount] }),
      );
    }
  }
  for (const { pool, lower, upper, liquidity } of planned) {
    await send(
      V3_DEPLOYER,
      V3_LIQUIDITY,
      encodeFunctionData({ abi: liquidityAbi, functionName: 'mint', args: [pool, lower, upper, liquidity] }),
    );
  }
  return { factory: V3_FACTORY, pools };
}

async function readPool(rpc: RpcClient, token0: Address, token1: Address, fee: number): Promise<Address> {
  const data = encodeFunctionData({ abi: factoryAbi, functionName: 'getPool', args: [token0, token1, fee] });
  const word = await rpc.request<Hex>('eth_call', [{ to: V3_FACTORY, data }, 'latest']);
  return getAddress(`0x${word.slice(26)}`);
}

function sortByAddress(a: TokenFixture, b: TokenFixture): [TokenFixture, TokenFixture] {
  return a.address.toLowerCase() < b.address.toLowerCase() ? [a, b] : [b, a];
}
