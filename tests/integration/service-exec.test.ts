// Quotes executed on chain: every quote, sent in the next block with nothing in between, must pay
// exactly outAmount. Plus a price move past slippage (revert), an outdated quote, split quality
// against brute force, and a fuzz of malformed requests.
import fc from 'fast-check';
import {
  type Account,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tetherTokenAbi, uniswapV2PairAbi } from '../../devnet/abi';
import { TEST_MNEMONIC } from '../../devnet/accounts';
import type { ManifestChain } from '../../devnet/manifest';
import { DEVNET_LIMITS } from '../../devnet/service-config';
import { startDevnet } from '../../devnet/start';
import {
  BuildResponseSchema,
  type BuildResult,
  ErrorBodySchema,
  isNativeToken,
  NATIVE_TOKEN_ADDRESS,
  type Quote,
  QuoteResponseSchema,
  ReferenceSwapSchema,
} from '../../lib/api/schema';
import { createRpcChainReader } from '../../service/chain-reader';
import { buildChainContext } from '../../service/chains';
import { policyFromConfig } from '../../service/policy';
import { QuoteAnswerCache } from '../../service/quote-cache';
import type { Path } from '../../service/routing/graph';
import { simulateRoute } from '../../service/routing/simulate';
import { type RunningService, startService } from '../../service/server';
import { rng } from '../support/random';

type ChainName = 'ethereum' | 'base';
type Devnet = Awaited<ReturnType<typeof startDevnet>>;

interface ChainKit {
  info: ManifestChain;
  chain: Chain;
  public: PublicClient;
  wallets: WalletClient[];
  accounts: Account[];
}

let devnet: Devnet;
let service: RunningService;
/** The service's per-block answer cache: the cache's tests read its hit and miss counts. */
const quoteCache = new QuoteAnswerCache();
const kits = {} as Record<ChainName, ChainKit>;

const SYMBOL = (name: ChainName, symbol: string): Hex => {
  const token = kits[name].info.tokens.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`no ${symbol} on ${name}`);
  return token.address;
};

async function post(path: string, body: unknown) {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // left as text: the assertions say what was expected
  }
  return { status: response.status, body: json };
}

interface QuoteAsk {
  chain: ChainName;
  inToken: Hex;
  outToken: Hex;
  inAmount: bigint;
  slippage?: number;
}

/**
 * A quote stamped with the chain head. The service prices at the newest block its head watcher
 * has read (no node round trip per quote), so right after our own transaction it may still answer
 * at the block before: exact there, but these tests execute at the head, so they ask again.
 */
async function quoteOf(ask: QuoteAsk): Promise<Quote> {
  const kit = kits[ask.chain];
  const head = await kit.public.getBlockNumber({ cacheTime: 0 });
  for (let attempt = 0; ; attempt++) {
    const response = await post('/v1/quote', {
      chainId: kit.info.chainId,
      inToken: ask.inToken,
      outToken: ask.outToken,
      inAmount: ask.inAmount.toString(),
      slippage: ask.slippage ?? 0.5,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const quote = QuoteResponseSchema.parse(response.body).data;
    expect(BigInt(quote.blockNumber)).toBeLessThanOrEqual(head);
    if (BigInt(quote.blockNumber) === head || attempt >= 50) return quote;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function buildOf(quote: Quote): Promise<BuildResult> {
  const response = await post('/v1/build', quote);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return BuildResponseSchema.parse(response.body).data;
}

async function balanceOf(kit: ChainKit, token: Hex, owner: Hex): Promise<bigint> {
  if (isNativeToken(token)) return kit.public.getBalance({ address: owner });
  return kit.public.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

async function send(kit: ChainKit, who: number, tx: { to: Hex; data: Hex; value?: bigint; gas?: bigint }) {
  const wallet = kit.wallets[who];
  const account = kit.accounts[who];
  if (!wallet || !account) throw new Error(`no account ${who}`);
  // Estimates are made at the current block; the pairs' price accumulators cost more gas when the
  // next block has a new timestamp, so an unpadded estimate can run out of gas. Wallets pad too.
  const gas =
    tx.gas ??
    ((await kit.public.estimateGas({ account, to: tx.to, data: tx.data, value: tx.value })) * 13n) / 10n;
  const hash = await wallet.sendTransaction({ ...tx, gas, account, chain: kit.chain });
  return receiptOf(kit, hash);
}

let stuckTransactions = 0;

/**
 * Polls for the receipt. Anvil's automine now and then leaves a ready transaction in its pool
 * (foundry-rs/foundry#10122); after 3 s we mine a block by hand, which puts exactly that
 * transaction in the next block, as automine would have.
 */
async function receiptOf(kit: ChainKit, hash: Hex) {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const receipt = await kit.public.getTransactionReceipt({ hash }).catch(() => null);
    if (receipt) return receipt;
    if (Date.now() > deadline) {
      const pool = await kit.public.request({ method: 'txpool_status' } as never);
      console.warn(
        `transaction ${hash} not mined after 3 s (txpool ${JSON.stringify(pool)}); mining a block`,
      );
      stuckTransactions++;
      await createTestClient({ mode: 'anvil', transport: http(kit.info.rpcUrl) }).mine({ blocks: 1 });
      return kit.public.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Exact allowance for the router; USDT-style tokens need a reset to 0 before a new non-zero value. */
async function approve(kit: ChainKit, who: number, token: Hex, amount: bigint): Promise<void> {
  const owner = kit.accounts[who]?.address as Hex;
  const current = await kit.public.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, kit.info.router],
  });
  if (current >= amount) return;
  const wallet = kit.wallets[who] as WalletClient;
  const write = async (value: bigint) => {
    const hash = await wallet.writeContract({
      address: token,
      abi: tetherTokenAbi,
      functionName: 'approve',
      args: [kit.info.router, value],
      account: kit.accounts[who] as Account,
      chain: kit.chain,
    });
    const receipt = await receiptOf(kit, hash);
    expect(receipt.status).toBe('success');
  };
  if (current > 0n) await write(0n);
  await write(amount);
}

interface Executed {
  quote: Quote;
  kind: {
    split: boolean;
    twoHop: boolean;
    direct: boolean;
    nativeIn: boolean;
    nativeOut: boolean;
    /** Every swap on a Uniswap V3 pool / on a V2 pair. */
    v3Only: boolean;
    v2Only: boolean;
    /** Shares on different protocols (a split across V2 and V3). */
    splitAcrossProtocols: boolean;
    /** One share hopping from one protocol to the other. */
    hopsAcrossProtocols: boolean;
  };
}

/** Approve, quote, build, send in the very next block, and check the exact amount received. */
async function execute(ask: QuoteAsk, who = 0): Promise<Executed> {
  const kit = kits[ask.chain];
  const owner = kit.accounts[who]?.address as Hex;
  if (!isNativeToken(ask.inToken)) await approve(kit, who, ask.inToken, ask.inAmount);
  const before = await balanceOf(kit, ask.outToken, owner);
  const quote = await quoteOf(ask);
  const built = await buildOf(quote);
  expect(built.to).toBe(kit.info.router);
  const receipt = await send(kit, who, {
    to: built.to as Hex,
    data: built.transaction as Hex,
    value: BigInt(built.value),
  });
  if (receipt.status !== 'success') {
    // Replay on the quoted block to say why, then fail with the whole case.
    const why = await kit.public
      .call({
        account: owner,
        to: built.to as Hex,
        data: built.transaction as Hex,
        value: BigInt(built.value),
        blockNumber: receipt.blockNumber - 1n,
      })
      .then(
        () => 'replay succeeded',
        (error: Error) => error.message.split('\n')[0],
      );
    throw new Error(`swap reverted (${why}; gas used ${receipt.gasUsed}): ${JSON.stringify(quote)}`);
  }
  expect(receipt.blockNumber).toBe(BigInt(quote.blockNumber) + 1n); // nothing in between
  const after = await balanceOf(kit, ask.outToken, owner);
  const gas = isNativeToken(ask.outToken) ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
  expect(after - before + gas, `${ask.chain} ${ask.inToken} -> ${ask.outToken}`).toBe(
    BigInt(quote.outAmount),
  );
  const hops = quote.bestRoute.map((share) => share.swaps.length);
  const isV3 = (swap: unknown) => ReferenceSwapSchema.parse(swap).dex === 'uniswap-v3';
  const shareKinds = quote.bestRoute.map((share) => {
    const v3 = share.swaps.filter(isV3).length;
    return v3 === 0 ? 'v2' : v3 === share.swaps.length ? 'v3' : 'mixed';
  });
  return {
    quote,
    kind: {
      split: quote.bestRoute.length > 1,
      twoHop: hops.some((n) => n === 2),
      direct: hops.some((n) => n === 1),
      nativeIn: isNativeToken(ask.inToken),
      nativeOut: isNativeToken(ask.outToken),
      v3Only: shareKinds.every((k) => k === 'v3'),
      v2Only: shareKinds.every((k) => k === 'v2'),
      splitAcrossProtocols:
        shareKinds.includes('v2') && (shareKinds.includes('v3') || shareKinds.includes('mixed')),
      hopsAcrossProtocols: shareKinds.includes('mixed'),
    },
  };
}

/** Reserves of every V2 pool of the chain at a block, by lowercase pool address. */
async function reservesAt(kit: ChainKit, blockNumber: bigint) {
  const pairs = kit.info.pools.filter((pool) => pool.dex !== 'uniswap-v3');
  const results = await kit.public.multicall({
    multicallAddress: kit.info.multicall3,
    allowFailure: false,
    blockNumber,
    contracts: pairs.map((pool) => ({
      address: pool.address,
      abi: uniswapV2PairAbi,
      functionName: 'getReserves' as const,
    })),
  });
  return new Map(pairs.map((pool, i) => [pool.address.toLowerCase(), { pool, r: results[i] }]));
}

/** The larger reserve of `token` among its V2 pools: amounts are picked relative to it. */
async function depthOf(kit: ChainKit, token: Hex): Promise<bigint> {
  const wanted = (isNativeToken(token) ? kit.info.weth : token).toLowerCase();
  const reserves = await reservesAt(kit, await kit.public.getBlockNumber({ cacheTime: 0 }));
  let depth = 0n;
  for (const { pool, r } of reserves.values()) {
    if (!r) continue;
    if (pool.token0.toLowerCase() === wanted && r[0] > depth) depth = r[0];
    if (pool.token1.toLowerCase() === wanted && r[1] > depth) depth = r[1];
  }
  return depth;
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: { ethereum: 0, base: 0 } });
  // The devnet's limits (as npm run service has them): these tests send many requests from one address.
  const policy = policyFromConfig({ limits: DEVNET_LIMITS });
  service = await startService({ manifest: devnet.manifest, port: 0, log: () => {}, policy, quoteCache });
  for (const info of devnet.manifest.chains) {
    const chain = defineChain({
      id: info.chainId,
      name: info.chainName,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [info.rpcUrl] } },
    });
    const accounts = [0, 1, 2].map((addressIndex) => mnemonicToAccount(TEST_MNEMONIC, { addressIndex }));
    kits[info.chainName] = {
      info,
      chain,
      public: createPublicClient({ chain, transport: http(info.rpcUrl), pollingInterval: 20, cacheTime: 0 }),
      wallets: accounts.map((account) =>
        createWalletClient({ account, chain, transport: http(info.rpcUrl) }),
      ),
      accounts,
    };
  }
});

afterAll(async () => {
  await service?.close();
  await devnet?.stop();
});

describe('quotes executed on chain deliver exactly outAmount', () => {
  it('100 seeded quotes over V2 and V3: direct, two-hop, split, across protocols, native in and out', {
    timeout: 120_000,
  }, async () => {
    const eth = (symbol: string) => SYMBOL('ethereum', symbol);
    const base = (symbol: string) => SYMBOL('base', symbol);
    const E18 = 10n ** 18n;
    // Fixed cases first so every kind is covered whatever the random seed draws.
    const asks: QuoteAsk[] = [
      { chain: 'ethereum', inToken: NATIVE_TOKEN_ADDRESS, outToken: eth('USDC'), inAmount: 40n * E18 },
      {
        chain: 'ethereum',
        inToken: eth('USDT'),
        outToken: NATIVE_TOKEN_ADDRESS,
        inAmount: 25_000n * 10n ** 6n,
      },
      { chain: 'ethereum', inToken: eth('LINK'), outToken: eth('UNI'), inAmount: 500n * E18 },
      { chain: 'ethereum', inToken: eth('WETH'), outToken: eth('USDC'), inAmount: 150n * E18 },
      { chain: 'ethereum', inToken: eth('USDC'), outToken: eth('WBTC'), inAmount: 1_000n * 10n ** 6n },
      { chain: 'base', inToken: base('cbETH'), outToken: base('USDC'), inAmount: 20n * E18 },
      { chain: 'base', inToken: base('USDC'), outToken: NATIVE_TOKEN_ADDRESS, inAmount: 30_000n * 10n ** 6n },
      { chain: 'base', inToken: NATIVE_TOKEN_ADDRESS, outToken: base('AERO'), inAmount: 3n * E18 },
    ];
    const random = rng(20_240_601);
    while (asks.length < 100) {
      const name: ChainName = random() < 0.6 ? 'ethereum' : 'base';
      const kit = kits[name];
      const pooled = kit.info.tokens.filter((token) => token.pooled).map((token) => token.address);
      const choices: Hex[] = [NATIVE_TOKEN_ADDRESS, ...pooled];
      const inToken = choices[Math.floor(random() * choices.length)] as Hex;
      const outToken = choices[Math.floor(random() * choices.length)] as Hex;
      const wrap = (t: Hex) => (isNativeToken(t) ? kit.info.weth : t).toLowerCase();
      if (wrap(inToken) === wrap(outToken)) continue;
      // 0.05% to 3% of the deepest pool of the input token, and never more than a third of the balance.
      const depth = await depthOf(kit, inToken);
      let inAmount = (depth * BigInt(Math.floor(5 + random() * 295))) / 10_000n;
      const balance = await balanceOf(kit, inToken, kit.accounts[0]?.address as Hex);
      if (inAmount > balance / 3n) inAmount = balance / 3n;
      if (inAmount === 0n) continue;
      asks.push({
        chain: name,
        inToken,
        outToken,
        inAmount,
        slippage: [0.1, 0.5, 1, 3][Math.floor(random() * 4)],
      });
    }

    const seen = {
      split: 0,
      twoHop: 0,
      direct: 0,
      nativeIn: 0,
      nativeOut: 0,
      v3Only: 0,
      v2Only: 0,
      splitAcrossProtocols: 0,
      hopsAcrossProtocols: 0,
    };
    for (const ask of asks) {
      const { kind } = await execute(ask);
      for (const key of Object.keys(seen) as (keyof typeof seen)[]) if (kind[key]) seen[key]++;
    }
    console.log(
      `executed ${asks.length} quotes exactly; routes seen: ${JSON.stringify(seen)}; anvil stalls: ${stuckTransactions}`,
    );
    expect(asks.length).toBe(100);
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(0);
  });

  it('wrap and unwrap: ETH -> WETH and WETH -> ETH, one WETH swap, out = in, exact on chain', async () => {
    for (const chain of ['ethereum', 'base'] as const) {
      const weth = SYMBOL(chain, 'WETH');
      const amount = 1_234_567_890_123_456_789n;
      for (const [inToken, outToken] of [
        [NATIVE_TOKEN_ADDRESS, weth],
        [weth, NATIVE_TOKEN_ADDRESS],
      ] as const) {
        const { quote } = await execute({ chain, inToken, outToken, inAmount: amount, slippage: 0.1 });
        expect(quote.outAmount).toBe(amount.toString());
        expect(quote.bestRoute).toEqual([
          {
            percent: 100,
            swaps: [
              {
                dex: 'weth',
                pool: kits[chain].info.weth,
                tokenIn: inToken,
                tokenOut: outToken,
                amountIn: amount.toString(),
                amountOut: amount.toString(),
              },
            ],
          },
        ]);
      }
    }
    // A wrap whose route is tampered with is refused at build, before anything is signed.
    const quote = await quoteOf({
      chain: 'ethereum',
      inToken: NATIVE_TOKEN_ADDRESS,
      outToken: SYMBOL('ethereum', 'WETH'),
      inAmount: 10n ** 18n,
    });
    const doubled = { ...quote, outAmount: (2n * 10n ** 18n).toString() };
    const tampered = await post('/v1/build', doubled);
    expect(tampered.status).toBe(400);
    expect(ErrorBodySchema.parse(tampered.body).error.code).toBe('INVALID_QUOTE');
  });

  it('reverts when another trade moves the price past the slippage first', async () => {
    const kit = kits.ethereum;
    const WETH = SYMBOL('ethereum', 'WETH');
    const USDC = SYMBOL('ethereum', 'USDC');
    const me = kit.accounts[0]?.address as Hex;
    await approve(kit, 0, WETH, 10n * 10n ** 18n);
    const quote = await quoteOf({
      chain: 'ethereum',
      inToken: WETH,
      outToken: USDC,
      inAmount: 10n * 10n ** 18n,
    });
    const built = await buildOf(quote);
    // Account 2 front-runs with a big sale of WETH over every WETH/USDC pool: USDC gets dearer by
    // well over 0.5% (the V3 pools' concentrated liquidity absorbs a small sale).
    await execute({ chain: 'ethereum', inToken: WETH, outToken: USDC, inAmount: 900n * 10n ** 18n }, 2);
    const before = await balanceOf(kit, USDC, me);
    const receipt = await send(kit, 0, {
      to: built.to as Hex,
      data: built.transaction as Hex,
      gas: 1_500_000n,
    });
    expect(receipt.status).toBe('reverted');
    expect(await balanceOf(kit, USDC, me)).toBe(before);
  });

  it('refuses to build a quote 25 blocks old (ethereum limit: 20)', async () => {
    const quote = await quoteOf({
      chain: 'ethereum',
      inToken: SYMBOL('ethereum', 'DAI'),
      outToken: SYMBOL('ethereum', 'USDC'),
      inAmount: 1_000n * 10n ** 18n,
    });
    await createTestClient({ mode: 'anvil', transport: http(kits.ethereum.info.rpcUrl) }).mine({
      blocks: 25,
    });
    const response = await post('/v1/build', quote);
    expect(response.status).toBe(400);
    expect(ErrorBodySchema.parse(response.body).error.code).toBe('QUOTE_OUTDATED');
  });
});

describe('the per-block answer cache', () => {
  it('serves a repeated request from the cache with its own id, exact on chain; the next block prices again', async () => {
    const kit = kits.ethereum;
    const me = kit.accounts[1]?.address as Hex;
    const USDC = SYMBOL('ethereum', 'USDC');
    const ask: QuoteAsk = {
      chain: 'ethereum',
      inToken: NATIVE_TOKEN_ADDRESS,
      outToken: USDC,
      inAmount: 7n * 10n ** 18n,
    };
    const first = await quoteOf(ask);
    await quoteOf(ask); // answered twice at this head: kept (the cache's doorkeeper)
    const hits = quoteCache.hits;
    const cached = await quoteOf(ask); // the same body at the same head: from the cache
    expect(quoteCache.hits).toBe(hits + 1);
    expect(cached.quoteId).not.toBe(first.quoteId);
    expect({ ...cached, quoteId: undefined }).toEqual({ ...first, quoteId: undefined });

    // The cached answer, built and sent in the next block, pays exactly outAmount.
    const built = await buildOf(cached);
    const before = await balanceOf(kit, USDC, me);
    const receipt = await send(kit, 1, {
      to: built.to as Hex,
      data: built.transaction as Hex,
      value: BigInt(built.value),
    });
    expect(receipt.status).toBe('success');
    expect(receipt.blockNumber).toBe(BigInt(cached.blockNumber) + 1n);
    expect((await balanceOf(kit, USDC, me)) - before).toBe(BigInt(cached.outAmount));

    // That trade made a new block with new reserves: the same body is priced again there.
    const misses = quoteCache.misses;
    const after = await quoteOf(ask);
    expect(after.blockNumber).toBe(cached.blockNumber + 1);
    expect(quoteCache.misses).toBeGreaterThan(misses);
    expect(BigInt(after.outAmount)).toBeLessThan(BigInt(cached.outAmount));
  });
});

describe('split quality', () => {
  it('over V2 and V3 pools: >= the best single path, within 0.01% of an exact 0.01%-grid optimum', {
    timeout: 120_000,
  }, async () => {
    const pairs: [ChainName, string, string][] = [
      ['ethereum', 'WETH', 'USDC'],
      ['ethereum', 'USDC', 'USDT'],
      ['ethereum', 'WBTC', 'WETH'],
      ['ethereum', 'UNI', 'WETH'],
      ['base', 'WETH', 'USDC'],
      ['base', 'cbETH', 'WETH'],
    ];
    const rows: string[] = [];
    let worstGap = Number.NEGATIVE_INFINITY;
    for (const [name, a, b] of pairs) {
      const kit = kits[name];
      const context = buildChainContext(kit.info);
      const reader = createRpcChainReader({
        chainName: name,
        rpcUrl: kit.info.rpcUrl,
        multicall3: kit.info.multicall3,
        pools: kit.info.pools.map((pool) => ({ address: pool.address, fee: pool.fee })),
        wsUrl: null,
      });
      const tokenIn = SYMBOL(name, a).toLowerCase();
      const tokenOut = SYMBOL(name, b).toLowerCase();
      const direct = context.graph.poolsBetween(tokenIn, tokenOut);
      expect(direct.length).toBeGreaterThanOrEqual(3); // two V2 pairs and at least one V3 pool
      const depth = await depthOf(kit, tokenIn as Hex);
      for (const bps of [10n, 100n, 500n]) {
        const inAmount = (depth * bps) / 10_000n;
        const quote = await quoteOf({
          chain: name,
          inToken: tokenIn as Hex,
          outToken: tokenOut as Hex,
          inAmount,
        });
        const block = await reader.block(BigInt(quote.blockNumber));
        if (!block) throw new Error('quoted block missing');
        const snapshot = await reader.reserves(block);
        const single = (path: Path, amount: bigint) => {
          if (amount === 0n) return 0n;
          const sim = simulateRoute([{ percent: 100, path }], amount, snapshot);
          return sim.ok ? sim.outAmount : 0n;
        };
        let bestSingle = 0n;
        for (const path of context.graph.paths(tokenIn, tokenOut))
          bestSingle = max(bestSingle, single(path, inAmount));
        // The exact optimum over the direct pools on a 0.01% grid: each pool's output is concave in
        // its input, so handing out the grid steps one at a time to the largest exact gain is optimal.
        const paths = direct.map((pool) => [
          { pool, zeroForOne: context.graph.pools[pool]?.token0 === tokenIn },
        ]);
        const steps = paths.map(() => 0n);
        const outs = paths.map(() => 0n);
        const nexts = paths.map((path) => single(path, inAmount / 10_000n));
        for (let k = 1n; k <= 10_000n; k++) {
          let best = 0;
          for (let p = 1; p < paths.length; p++) {
            if ((nexts[p] as bigint) - (outs[p] as bigint) > (nexts[best] as bigint) - (outs[best] as bigint))
              best = p;
          }
          steps[best] = (steps[best] as bigint) + 1n;
          outs[best] = nexts[best] as bigint;
          nexts[best] = single(paths[best] as Path, (inAmount * ((steps[best] as bigint) + 1n)) / 10_000n);
        }
        const brute = outs.reduce((sum, out) => sum + out, 0n);
        const out = BigInt(quote.outAmount);
        const gap = Number(brute - out) / Number(brute);
        worstGap = Math.max(worstGap, gap);
        rows.push(
          `${name} ${a}->${b} ${Number(bps) / 100}% depth: quote ${out} (${quote.bestRoute.map((s) => `${s.percent}%/${s.swaps.map((w) => ReferenceSwapSchema.parse(w).dex).join('>')}`).join(' + ')}), ` +
            `best single ${bestSingle} (+${((Number(out - bestSingle) / Number(bestSingle)) * 100).toFixed(4)}%), ` +
            `grid optimum ${brute} (gap ${(gap * 100).toFixed(5)}%)`,
        );
        expect(out).toBeGreaterThanOrEqual(bestSingle);
        expect(gap).toBeLessThan(0.0001);
      }
      reader.close?.();
    }
    console.log(
      `split quality (gap < 0 means the quote beats the direct-pool optimum via hub paths):\n${rows.join('\n')}\nworst gap ${(worstGap * 100).toFixed(5)}%`,
    );
  });
});

describe('fuzz: malformed requests only ever get 4xx with the JSON error body', () => {
  const expectClientError = (status: number, body: unknown) => {
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    ErrorBodySchema.parse(body);
  };

  it('paths', async () => {
    const segment = fc.oneof(
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
      fc.constantFrom(
        '%',
        '%zz',
        '%00',
        '..',
        '%2F',
        'ethereum',
        'search',
        '0x',
        '🦄',
        'v1',
        'logos',
        'x.svg',
      ),
    );
    const prefix = fc.constantFrom(
      '/',
      '/v1/',
      '/v1/tokens/',
      '/v1/tokens/ethereum/search/',
      '/v1/tokens/base/',
      '/logos/ethereum/',
      '/v1/quote/',
    );
    await fc.assert(
      fc.asyncProperty(
        prefix,
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        async (start, parts, method) => {
          const response = await fetch(`${service.url}${start}${parts.join('/')}`, { method });
          const text = await response.text();
          expectClientError(response.status, JSON.parse(text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('bodies', async () => {
    const valid = {
      chainId: 1,
      inToken: SYMBOL('ethereum', 'WETH'),
      outToken: SYMBOL('ethereum', 'USDC'),
      inAmount: '1000000000000000000',
      slippage: 0.5,
    };
    const quote = await quoteOf({
      chain: 'ethereum',
      inToken: valid.inToken,
      outToken: valid.outToken,
      inAmount: 10n ** 18n,
    });
    const malformed = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 3 }),
      fc
        .jsonValue({ maxDepth: 3 })
        .map((value) =>
          JSON.stringify({ ...valid, [Object.keys(valid)[0] as string]: value, inAmount: value }),
        ),
    );
    const mutated = (base: Record<string, unknown>) =>
      fc
        .tuple(fc.constantFrom(...Object.keys(base)), fc.jsonValue({ maxDepth: 2 }))
        .map(([key, value]) => JSON.stringify({ ...base, [key]: value }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/v1/quote', '/v1/build'), malformed, async (path, body) => {
        const response = await post(path, body);
        expectClientError(response.status, response.body);
      }),
      { numRuns: 200 },
    );
    // One field replaced by any JSON value: sometimes still valid (200), never a 5xx.
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          mutated(valid).map((b) => ['/v1/quote', b] as const),
          mutated(quote).map((b) => ['/v1/build', b] as const),
        ),
        async ([path, body]) => {
          const response = await post(path, body);
          if (response.status !== 200) expectClientError(response.status, response.body);
        },
      ),
      { numRuns: 200 },
    );
  });
});

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
