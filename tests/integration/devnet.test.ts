// The devnet against a real anvil: tokens at real addresses, USDT quirks, Multicall3, and swaps
// through the router that deliver exactly what the off-chain V2 math predicts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  parseEventLogs,
  parseUnits,
  type WalletClient,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  multicall3Abi,
  swapExecutorAbi,
  swapRouterAbi,
  tetherTokenAbi,
  uniswapV2PairAbi,
} from '../../devnet/abi.ts';
import { FUNDED_ACCOUNTS } from '../../devnet/accounts.ts';
import { loadUniswapV3 } from '../../devnet/artifacts.ts';
import { nextBaseFee, QUIET_BASE_FEE } from '../../devnet/base-fee.ts';
import { CHAIN_FIXTURES, NATIVE_TOKEN } from '../../devnet/fixtures.ts';
import type { ManifestChain } from '../../devnet/manifest.ts';
import { RpcClient } from '../../devnet/rpc.ts';
import { type Devnet, startDevnet } from '../../devnet/start.ts';
import { devnetViemChain } from '../../devnet/viem.ts';
import { type PoolReserves, type RouteShare, simulateRoute } from '../../service/pool-math/v2.ts';
import { USDC } from '../support/addresses';

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: { ethereum: 0, base: 0 } });
});

afterAll(async () => {
  await devnet?.stop();
});

interface Clients {
  chain: ManifestChain;
  client: PublicClient;
  wallet: (account: Address) => WalletClient;
  token: (symbol: string) => Address;
  pool: (dex: string, a: string, b: string) => Address;
}

function clients(chainName: 'ethereum' | 'base'): Clients {
  const chain = devnet.manifest.chains.find((c) => c.chainName === chainName) as ManifestChain;
  const viemChain = devnetViemChain(chain);
  const transport = http(chain.rpcUrl);
  const token = (symbol: string) => {
    const found = chain.tokens.find((t) => t.symbol === symbol);
    if (!found) throw new Error(`no token ${symbol}`);
    return found.address;
  };
  return {
    chain,
    client: createPublicClient({ chain: viemChain, transport, pollingInterval: 50 }) as PublicClient,
    wallet: (account) => createWalletClient({ account, chain: viemChain, transport }),
    token,
    pool: (dex, a, b) => {
      const [x, y] = [token(a).toLowerCase(), token(b).toLowerCase()];
      const found = chain.pools.find(
        (p) =>
          p.dex === dex &&
          [p.token0.toLowerCase(), p.token1.toLowerCase()].sort().join() === [x, y].sort().join(),
      );
      if (!found) throw new Error(`no ${dex} pool ${a}/${b}`);
      return found.address;
    },
  };
}

async function readReserves(c: Clients, route: RouteShare[]): Promise<Map<string, PoolReserves>> {
  const pools = [...new Set(route.flatMap((s) => s.hops.map((h) => h.pool.toLowerCase())))];
  const reserves = new Map<string, PoolReserves>();
  for (const pool of pools) {
    const meta = c.chain.pools.find((p) => p.address.toLowerCase() === pool);
    if (!meta) throw new Error(`unknown pool ${pool}`);
    const [reserve0, reserve1] = await c.client.readContract({
      address: meta.address,
      abi: uniswapV2PairAbi,
      functionName: 'getReserves',
    });
    reserves.set(pool, { token0: meta.token0, token1: meta.token1, reserve0, reserve1 });
  }
  return reserves;
}

async function balanceOf(c: Clients, token: Address, owner: Address): Promise<bigint> {
  if (token === NATIVE_TOKEN) return c.client.getBalance({ address: owner });
  return c.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

function toContractRoute(route: RouteShare[]) {
  return route.map((s) => ({
    percent: s.percent,
    hops: s.hops.map((h) => ({
      pool: h.pool as Address,
      tokenIn: h.tokenIn as Address,
      tokenOut: h.tokenOut as Address,
    })),
  }));
}

interface SwapCase {
  from: Address;
  recipient?: Address;
  inToken: Address;
  outToken: Address;
  inAmount: bigint;
  route: RouteShare[];
}

/** Predicts off-chain, swaps on-chain, and checks the recipient got exactly the prediction. */
async function swapExactly(c: Clients, s: SwapCase) {
  const predicted = simulateRoute(s.inAmount, s.route, await readReserves(c, s.route)).outAmount;
  expect(predicted).toBeGreaterThan(0n);
  const wallet = c.wallet(s.from);
  if (s.inToken !== NATIVE_TOKEN) {
    const approve = await wallet.writeContract({
      address: s.inToken,
      abi: erc20Abi,
      functionName: 'approve',
      args: [c.chain.router, s.inAmount],
      account: s.from,
      chain: wallet.chain,
    });
    await c.client.waitForTransactionReceipt({ hash: approve });
  }
  const recipient = s.recipient ?? s.from;
  const before = await balanceOf(c, s.outToken, recipient);
  const inBefore = await balanceOf(c, s.inToken, s.from);
  const request = {
    address: c.chain.router,
    abi: swapRouterAbi,
    functionName: 'swap',
    args: [s.inToken, s.outToken, s.inAmount, predicted, toContractRoute(s.route), s.recipient ?? ZERO, 42n],
    value: s.inToken === NATIVE_TOKEN ? s.inAmount : 0n,
    account: s.from,
  } as const;
  // A fixed limit: anvil's own gas fill was seen to fall short on freshly deployed pools (the
  // mined block, a second later, writes the pools' price accumulators). Wallets add a margin.
  const hash = await wallet.writeContract({ ...request, gas: 3_000_000n, chain: wallet.chain });
  const receipt = await c.client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');

  expect((await balanceOf(c, s.outToken, recipient)) - before).toBe(predicted);
  const gas = s.inToken === NATIVE_TOKEN ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
  expect(inBefore - (await balanceOf(c, s.inToken, s.from))).toBe(s.inAmount + gas);

  const [event] = parseEventLogs({ abi: swapRouterAbi, logs: receipt.logs, eventName: 'Swapped' });
  expect(event?.args).toEqual({
    sender: s.from,
    recipient,
    inToken: s.inToken,
    outToken: s.outToken,
    inAmount: s.inAmount,
    outAmount: predicted,
    refCode: 42n,
  });
  await expectNothingLeft(c, [
    s.inToken,
    s.outToken,
    ...s.route.flatMap((r) => r.hops.map((h) => h.tokenOut as Address)),
  ]);
  return predicted;
}

async function expectNothingLeft(c: Clients, tokens: Address[]) {
  for (const holder of [c.chain.router, c.chain.executor]) {
    expect(await c.client.getBalance({ address: holder })).toBe(0n);
    for (const token of new Set([...tokens, c.chain.weth])) {
      if (token !== NATIVE_TOKEN) expect(await balanceOf(c, token, holder)).toBe(0n);
    }
  }
}

function revertOf(error: unknown): { errorName?: string; args?: readonly unknown[]; raw?: Hex } {
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      return { errorName: reverted.data?.errorName, args: reverted.data?.args, raw: reverted.raw };
    }
  }
  throw error;
}

const ZERO: Address = '0x0000000000000000000000000000000000000000';
const [alice, bob, carol] = FUNDED_ACCOUNTS as [Address, Address, Address];

describe('devnet chains', () => {
  it('runs both chains with their real chain ids and the router wired to WETH and its executor', async () => {
    for (const name of ['ethereum', 'base'] as const) {
      const c = clients(name);
      expect(await c.client.getChainId()).toBe(CHAIN_FIXTURES[name].chainId);
      expect(
        await c.client.readContract({ address: c.chain.router, abi: swapRouterAbi, functionName: 'weth' }),
      ).toBe(c.chain.weth);
      expect(
        await c.client.readContract({
          address: c.chain.executor,
          abi: swapExecutorAbi,
          functionName: 'router',
        }),
      ).toBe(c.chain.router);
      expect(c.chain.tokens.length).toBeGreaterThanOrEqual(2000 + CHAIN_FIXTURES[name].tokens.length);
      expect(c.chain.tokens.filter((t) => t.pooled).length).toBeGreaterThanOrEqual(15);
      // Funded accounts start untouched: nonce 0, 10,000 ETH.
      expect(await c.client.getBalance({ address: carol })).toBe(parseUnits('10000', 18));
    }
  });

  it("starts with a quiet chain's base fee, not the one the deploy left behind", async () => {
    for (const chainName of ['ethereum', 'base'] as const) {
      const { chain } = clients(chainName);
      const next = await nextBaseFee(new RpcClient(chain.rpcUrl));
      expect(next, chainName).toBeLessThanOrEqual(QUIET_BASE_FEE[chainName]);
      expect(next, chainName).toBeGreaterThan(0n);
    }
  });

  it('serves every token at its address with the fixture name, symbol and decimals', async () => {
    for (const name of ['ethereum', 'base'] as const) {
      const c = clients(name);
      const calls = c.chain.tokens.flatMap((t) =>
        (['name', 'symbol', 'decimals'] as const).map((functionName) => ({
          address: t.address,
          abi: erc20Abi,
          functionName,
        })),
      );
      const results = await c.client.multicall({ contracts: calls, allowFailure: false, batchSize: 8192 });
      const seen = c.chain.tokens.map((_, i) => ({
        name: results[i * 3],
        symbol: results[i * 3 + 1],
        decimals: Number(results[i * 3 + 2]),
      }));
      expect(seen).toEqual(c.chain.tokens.map(({ name, symbol, decimals }) => ({ name, symbol, decimals })));
    }
    const eth = clients('ethereum');
    const usdc = await eth.client.readContract({
      address: eth.token('USDC'),
      abi: erc20Abi,
      functionName: 'decimals',
    });
    expect(eth.token('USDC')).toBe(USDC);
    expect(usdc).toBe(6);
    expect(eth.chain.tokens.find((t) => t.symbol === 'WBTC')?.decimals).toBe(8);
  });

  it('funds the first three accounts with every pooled core token', async () => {
    const c = clients('ethereum');
    for (const account of FUNDED_ACCOUNTS) {
      expect(await balanceOf(c, c.token('USDC'), account)).toBeGreaterThanOrEqual(parseUnits('900000', 6));
      expect(await balanceOf(c, c.token('WBTC'), account)).toBeGreaterThanOrEqual(parseUnits('90', 8));
      expect(await balanceOf(c, c.token('WETH'), account)).toBeGreaterThanOrEqual(parseUnits('900', 18));
    }
  });

  it('makes USDT behave like mainnet USDT: no return data, no non-zero to non-zero approve', async () => {
    const c = clients('ethereum');
    const usdt = c.token('USDT');
    const wallet = c.wallet(carol);
    const approve = (amount: bigint) =>
      wallet.writeContract({
        address: usdt,
        abi: tetherTokenAbi,
        functionName: 'approve',
        args: [bob, amount],
        account: carol,
        chain: wallet.chain,
      });
    const data = (amount: bigint) =>
      c.client.call({
        account: carol,
        to: usdt,
        data: encodeApprove(amount),
      });

    expect((await data(100n)).data).toBeUndefined(); // success, and nothing returned
    await c.client.waitForTransactionReceipt({ hash: await approve(100n) });
    // Non-zero to non-zero: reverts with empty revert data, in a call and in a mined transaction.
    const failure = await data(200n).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BaseError);
    const withData = (failure as BaseError).walk((e) => typeof (e as { data?: unknown }).data === 'string');
    expect((withData as { data?: Hex } | null)?.data).toBe('0x');
    const reverted = await wallet.writeContract({
      address: usdt,
      abi: tetherTokenAbi,
      functionName: 'approve',
      args: [bob, 200n],
      account: carol,
      chain: wallet.chain,
      gas: 100_000n,
    });
    expect((await c.client.waitForTransactionReceipt({ hash: reverted })).status).toBe('reverted');
    expect(
      await c.client.readContract({
        address: usdt,
        abi: tetherTokenAbi,
        functionName: 'allowance',
        args: [carol, bob],
      }),
    ).toBe(100n);
    // Reset to zero first, then the new value goes through.
    await c.client.waitForTransactionReceipt({ hash: await approve(0n) });
    await c.client.waitForTransactionReceipt({ hash: await approve(200n) });
    expect(
      await c.client.readContract({
        address: usdt,
        abi: tetherTokenAbi,
        functionName: 'allowance',
        args: [carol, bob],
      }),
    ).toBe(200n);
  });

  it('answers Multicall3 at the canonical address', async () => {
    const c = clients('base');
    const [balance, block, symbol] = await c.client.multicall({
      allowFailure: false,
      contracts: [
        { address: c.chain.multicall3, abi: multicall3Abi, functionName: 'getEthBalance', args: [alice] },
        { address: c.chain.multicall3, abi: multicall3Abi, functionName: 'getBlockNumber' },
        { address: c.token('USDC'), abi: erc20Abi, functionName: 'symbol' },
      ],
    });
    expect(balance).toBe(await c.client.getBalance({ address: alice }));
    expect(block).toBe(await c.client.getBlockNumber());
    expect(symbol).toBe('USDC');
    const { result } = await c.client.simulateContract({
      address: c.chain.multicall3,
      abi: multicall3Abi,
      functionName: 'aggregate',
      args: [[{ target: c.chain.multicall3, callData: '0x42cbb15c' }]], // getBlockNumber()
    });
    const [blockNumber, [returned]] = result;
    expect(BigInt(returned as Hex)).toBe(blockNumber);
  });
});

describe('router swaps deliver exactly the predicted output', () => {
  it('direct: USDC -> WETH on uniswap-v2', async () => {
    const c = clients('ethereum');
    await swapExactly(c, {
      from: alice,
      inToken: c.token('USDC'),
      outToken: c.token('WETH'),
      inAmount: parseUnits('25000', 6),
      route: [{ percent: 100, hops: [hop(c, 'uniswap-v2', 'USDC', 'WETH')] }],
    });
  });

  it('two hops: LINK -> WETH -> UNI (no direct pool)', async () => {
    const c = clients('ethereum');
    expect(() => c.pool('uniswap-v2', 'LINK', 'UNI')).toThrow();
    await swapExactly(c, {
      from: alice,
      inToken: c.token('LINK'),
      outToken: c.token('UNI'),
      inAmount: parseUnits('1234.5678', 18),
      route: [
        { percent: 100, hops: [hop(c, 'uniswap-v2', 'LINK', 'WETH'), hop(c, 'sushiswap', 'WETH', 'UNI')] },
      ],
    });
  });

  it('split over two pools: WETH -> USDC 60% uniswap-v2, 40% sushiswap', async () => {
    const c = clients('ethereum');
    await swapExactly(c, {
      from: alice,
      inToken: c.token('WETH'),
      outToken: c.token('USDC'),
      inAmount: 10n ** 19n + 7n, // odd amount: the last share takes the rounding
      route: [
        { percent: 60, hops: [hop(c, 'uniswap-v2', 'WETH', 'USDC')] },
        { percent: 40, hops: [hop(c, 'sushiswap', 'WETH', 'USDC')] },
      ],
    });
  });

  it('split whose shares cross the same pool, three shares, USDT in', async () => {
    const c = clients('ethereum');
    await swapExactly(c, {
      from: bob,
      inToken: c.token('USDT'),
      outToken: c.token('USDC'),
      inAmount: parseUnits('50000.000001', 6),
      route: [
        { percent: 33, hops: [hop(c, 'uniswap-v2', 'USDT', 'USDC')] },
        { percent: 33, hops: [hop(c, 'uniswap-v2', 'USDT', 'WETH'), hop(c, 'uniswap-v2', 'WETH', 'USDC')] },
        {
          percent: 34,
          hops: [
            hop(c, 'uniswap-v2', 'USDT', 'DAI'),
            hop(c, 'uniswap-v2', 'DAI', 'WETH'),
            hop(c, 'uniswap-v2', 'WETH', 'USDC'),
          ],
        },
      ],
    });
  });

  it('native in: ETH -> USDC, wrapped by the router', async () => {
    const c = clients('ethereum');
    await swapExactly(c, {
      from: alice,
      inToken: NATIVE_TOKEN,
      outToken: c.token('USDC'),
      inAmount: parseUnits('3.5', 18),
      route: [
        { percent: 70, hops: [hop(c, 'uniswap-v2', 'WETH', 'USDC')] },
        { percent: 30, hops: [hop(c, 'sushiswap', 'WETH', 'USDC')] },
      ],
    });
  });

  it('native out to another recipient: USDT -> ETH, unwrapped by the router', async () => {
    const c = clients('ethereum');
    await swapExactly(c, {
      from: bob,
      recipient: carol,
      inToken: c.token('USDT'),
      outToken: NATIVE_TOKEN,
      inAmount: parseUnits('9000', 6),
      route: [{ percent: 100, hops: [hop(c, 'uniswap-v2', 'USDT', 'WETH')] }],
    });
  });

  it('on Base: cbETH -> WETH -> USDC', async () => {
    const c = clients('base');
    await swapExactly(c, {
      from: alice,
      inToken: c.token('cbETH'),
      outToken: c.token('USDC'),
      inAmount: parseUnits('2', 18),
      route: [
        { percent: 100, hops: [hop(c, 'uniswap-v2', 'cbETH', 'WETH'), hop(c, 'uniswap-v2', 'WETH', 'USDC')] },
      ],
    });
  });

  it('a pooled long-tail token is routable against WETH', async () => {
    const c = clients('base');
    const tail = CHAIN_FIXTURES.base.longTail.find((t) => t.pools.length > 0);
    if (!tail) throw new Error('no pooled long-tail token');
    const pool = c.pool('uniswap-v2', tail.symbol, 'WETH');
    await swapExactly(c, {
      from: alice,
      inToken: NATIVE_TOKEN,
      outToken: tail.address,
      inAmount: parseUnits('0.1', 18),
      route: [{ percent: 100, hops: [{ pool, tokenIn: c.chain.weth, tokenOut: tail.address }] }],
    });
  });
});

describe('router and executor refuse what they must', () => {
  it('reverts with InsufficientOutput when minReceived is above the achievable output', async () => {
    const c = clients('ethereum');
    const route: RouteShare[] = [{ percent: 100, hops: [hop(c, 'uniswap-v2', 'WETH', 'USDC')] }];
    const inAmount = parseUnits('1', 18);
    const predicted = simulateRoute(inAmount, route, await readReserves(c, route)).outAmount;
    const error = await c.client
      .simulateContract({
        account: alice,
        address: c.chain.router,
        abi: swapRouterAbi,
        functionName: 'swap',
        args: [NATIVE_TOKEN, c.token('USDC'), inAmount, predicted + 1n, toContractRoute(route), ZERO, 0n],
        value: inAmount,
      })
      .catch((e: unknown) => e);
    expect(revertOf(error)).toMatchObject({
      errorName: 'InsufficientOutput',
      args: [predicted, predicted + 1n],
    });
  });

  it('decodes route mistakes: bad percents, broken chains, wrong pools, wrong value', async () => {
    const c = clients('ethereum');
    const usdc = c.token('USDC');
    const weth = c.token('WETH');
    const simulate = (
      route: RouteShare[],
      opts: { inToken?: Address; outToken?: Address; value?: bigint; inAmount?: bigint } = {},
    ) =>
      c.client
        .simulateContract({
          account: alice,
          address: c.chain.router,
          abi: swapRouterAbi,
          functionName: 'swap',
          args: [
            opts.inToken ?? NATIVE_TOKEN,
            opts.outToken ?? usdc,
            opts.inAmount ?? 1000n,
            0n,
            toContractRoute(route),
            ZERO,
            0n,
          ],
          value: opts.value ?? opts.inAmount ?? 1000n,
        })
        .then(() => ({}), revertOf);
    const direct = hop(c, 'uniswap-v2', 'WETH', 'USDC');

    expect(await simulate([{ percent: 60, hops: [direct] }])).toMatchObject({
      errorName: 'PercentsNotHundred',
      args: [60n],
    });
    expect(await simulate([])).toMatchObject({ errorName: 'EmptyRoute' });
    expect(await simulate([{ percent: 100, hops: [] }])).toMatchObject({
      errorName: 'EmptyShare',
      args: [0n],
    });
    expect(await simulate([{ percent: 100, hops: [direct] }], { value: 999n })).toMatchObject({
      errorName: 'InvalidNativeValue',
      args: [999n, 1000n],
    });
    expect(
      await simulate([{ percent: 100, hops: [direct] }], { inToken: weth, outToken: weth }),
    ).toMatchObject({ errorName: 'IdenticalTokens' });
    // Native -> WETH is a wrap: its route must be the one WETH hop, not a pool.
    expect(await simulate([{ percent: 100, hops: [direct] }], { outToken: weth })).toMatchObject({
      errorName: 'PoolTokenMismatch',
    });
    const wrapHop = { pool: weth, tokenIn: NATIVE_TOKEN, tokenOut: weth };
    expect(
      await simulate([{ percent: 100, hops: [wrapHop] }], { outToken: weth, value: 999n }),
    ).toMatchObject({ errorName: 'InvalidNativeValue', args: [999n, 1000n] });
    expect(await simulate([{ percent: 50, hops: [wrapHop] }], { outToken: weth })).toMatchObject({
      errorName: 'PercentsNotHundred',
      args: [50n],
    });
    const wrongPool = { ...direct, pool: c.pool('uniswap-v2', 'WETH', 'DAI') };
    expect(await simulate([{ percent: 100, hops: [wrongPool] }])).toMatchObject({
      errorName: 'PoolTokenMismatch',
    });
    const notAPool = { ...direct, pool: c.token('LINK') };
    expect(await simulate([{ percent: 100, hops: [notAPool] }])).toMatchObject({ errorName: 'NotAPool' });
    const broken = [hop(c, 'uniswap-v2', 'WETH', 'DAI'), hop(c, 'uniswap-v2', 'USDT', 'USDC')];
    expect(await simulate([{ percent: 100, hops: broken }])).toMatchObject({
      errorName: 'BrokenHopChain',
      args: [0n, 1n],
    });
    expect(await simulate([{ percent: 100, hops: [hop(c, 'uniswap-v2', 'USDC', 'WETH')] }])).toMatchObject({
      errorName: 'RouteStartMismatch',
    });
  });

  it('lets nobody but the router call the executor', async () => {
    const c = clients('ethereum');
    const error = await c.client
      .simulateContract({
        account: alice,
        address: c.chain.executor,
        abi: swapExecutorAbi,
        functionName: 'execute',
        args: [
          c.token('WETH'),
          c.token('USDC'),
          1000n,
          toContractRoute([{ percent: 100, hops: [hop(c, 'uniswap-v2', 'WETH', 'USDC')] }]),
        ],
      })
      .catch((e: unknown) => e);
    expect(revertOf(error)).toMatchObject({ errorName: 'OnlyRouter', args: [alice] });
  });

  it('V3 legs: only pools of the configured factory, only for their own tokens, and no outside callback', async () => {
    const c = clients('ethereum');
    const usdc = c.token('USDC');
    const swapVia = (hops: { pool: Address; tokenIn: Address; tokenOut: Address }[], outToken = usdc) =>
      c.client
        .simulateContract({
          account: alice,
          address: c.chain.router,
          abi: swapRouterAbi,
          functionName: 'swap',
          args: [NATIVE_TOKEN, outToken, 10n ** 15n, 0n, toContractRoute([{ percent: 100, hops }]), ZERO, 0n],
          value: 10n ** 15n,
        })
        .then((result) => ({ received: result.result }), revertOf);
    const v3 = hop(c, 'uniswap-v3', 'WETH', 'USDC');
    // The real pool works (and a V3 swap through the executor pays a non-zero amount).
    expect(await swapVia([v3])).toMatchObject({ received: expect.any(BigInt) });
    // The same pool named for other tokens: its address is not the factory's pool for them.
    expect(await swapVia([{ ...v3, tokenOut: c.token('DAI') }], c.token('DAI'))).toMatchObject({
      errorName: 'NotAPool',
    });
    // A genuine v3-core pool, but from another factory: refused before it is called.
    const wallet = c.wallet(carol);
    const deployed = await wallet.sendTransaction({
      account: carol,
      chain: wallet.chain,
      data: loadUniswapV3().factory.bytecode,
      gas: 29_000_000n,
    });
    const foreignFactory = (await c.client.waitForTransactionReceipt({ hash: deployed }))
      .contractAddress as Address;
    const factoryAbi = parseAbi([
      'function createPool(address, address, uint24) returns (address)',
      'function getPool(address, address, uint24) view returns (address)',
    ]);
    const created = await wallet.writeContract({
      account: carol,
      chain: wallet.chain,
      address: foreignFactory,
      abi: factoryAbi,
      functionName: 'createPool',
      args: [c.token('WETH'), usdc, 3000],
    });
    await c.client.waitForTransactionReceipt({ hash: created });
    const foreignPool = await c.client.readContract({
      address: foreignFactory,
      abi: factoryAbi,
      functionName: 'getPool',
      args: [c.token('WETH'), usdc, 3000],
    });
    expect(await swapVia([{ ...v3, pool: foreignPool }])).toMatchObject({
      errorName: 'NotAPool',
      args: [foreignPool],
    });
    // Nobody but the pool the executor is swapping with can collect through the callback.
    const callback = await c.client
      .simulateContract({
        account: alice,
        address: c.chain.executor,
        abi: swapExecutorAbi,
        functionName: 'uniswapV3SwapCallback',
        args: [1n, 0n, '0x'],
      })
      .catch((e: unknown) => e);
    expect(revertOf(callback)).toMatchObject({ errorName: 'UnexpectedCallback', args: [alice] });
  });

  it('refuses native coin from anyone but WETH', async () => {
    const c = clients('ethereum');
    const error = await c.client
      .call({ account: alice, to: c.chain.router, value: 1n })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BaseError);
    expect(String(error)).toMatch(/revert/i);
    await expectNothingLeft(c, [c.token('USDC')]);
  });
});

describe('start-up', () => {
  it('loads saved state much faster than a cold deploy', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'swaplane-devnet-'));
    try {
      const cold = await startDevnet({ ports: { ethereum: 0 }, chains: ['ethereum'], stateDir });
      const router = cold.manifest.chains[0]?.router;
      await cold.stop();
      const warm = await startDevnet({ ports: { ethereum: 0 }, chains: ['ethereum'], stateDir });
      try {
        const [coldStart, warmStart] = [cold.starts[0], warm.starts[0]];
        console.log(`devnet start-up (ethereum): cold ${coldStart?.ms} ms, warm ${warmStart?.ms} ms`);
        expect(coldStart?.mode).toBe('cold');
        expect(warmStart?.mode).toBe('warm');
        expect(warm.manifest.chains[0]?.router).toBe(router);
        expect((warmStart?.ms ?? 0) * 3).toBeLessThan(coldStart?.ms ?? 0);
        const client = createPublicClient({ transport: http(warm.manifest.chains[0]?.rpcUrl) });
        expect(await client.getCode({ address: router as Address })).toMatch(/^0x[0-9a-f]{100,}/);
      } finally {
        await warm.stop();
      }
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
  it('mines on an interval when blockTime is set, and stop() ends anvil', async () => {
    const timed = await startDevnet({ ports: { base: 0 }, chains: ['base'], blockTime: 1 });
    const rpcUrl = timed.manifest.chains[0]?.rpcUrl as string;
    const client = createPublicClient({ transport: http(rpcUrl) });
    try {
      const first = await client.getBlockNumber({ cacheTime: 0 });
      await new Promise((resolve) => setTimeout(resolve, 2200));
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(first);
    } finally {
      await timed.stop();
    }
    await expect(fetch(rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});

function hop(c: Clients, dex: string, tokenIn: string, tokenOut: string) {
  return { pool: c.pool(dex, tokenIn, tokenOut), tokenIn: c.token(tokenIn), tokenOut: c.token(tokenOut) };
}

function encodeApprove(amount: bigint): Hex {
  return `0x095ea7b3${bob.slice(2).toLowerCase().padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;
}
