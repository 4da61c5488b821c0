// Deploys one chain fixture onto a fresh anvil: token code at real addresses (anvil_setCode plus
// storage writes, batched), two Uniswap V2 factories, pools with liquidity, the router and its
// executor, Uniswap V3 pools (devnet/v3-pools.ts), and balances for the funded test accounts. Deterministic: same inputs, same addresses.
import {
  type Address,
  concatHex,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hex,
  keccak256,
  numberToHex,
} from 'viem';
import { deployRouter } from '../service/deploy.ts';
import { tokenAbi, uniswapV2FactoryAbi, uniswapV2PairAbi, weth9Abi } from './abi.ts';
import { DEPLOYER, DEPLOYER_KEY, FUNDED_ACCOUNTS } from './accounts.ts';
import { loadArtifact, loadUniswapV2 } from './artifacts.ts';
import { type ChainFixture, DEXES, MULTICALL3, type PoolFixture, type TokenFixture } from './fixtures.ts';
import type { ManifestChain, ManifestPool } from './manifest.ts';
import { type RpcCall, RpcClient } from './rpc.ts';
import { deploySafetyTokens } from './safety-tokens.ts';
import { type StorageWrite, tetherInitWrites, tokenInitWrites } from './token-storage.ts';
import { deployV3Pools, V3_FACTORY, V3_POOL_INIT_CODE_HASH } from './v3-pools.ts';

/** Bump when the deploy changes in a way the state cache cannot see (it hashes this file too). */
export const DEPLOY_VERSION = 1;

/** Everything of a deployed chain but its RPC URL, which depends on the port. */
export type ChainDeployment = Omit<ManifestChain, 'rpcUrl'>;

// Explicit gas limits spare an estimate per transaction (and estimates against unmined state).
const GAS = { create: 6_000_000n, pair: 4_000_000n, call: 300_000n } as const;
/** Anvil's default block gas limit is 30M; queue at most this much gas limit per block. */
const BLOCK_GAS_BUDGET = 29_000_000n;

interface Receipt {
  status: Hex;
}

export async function deployChain(
  rpcUrl: string,
  fixture: ChainFixture,
  log: (line: string) => void = () => {},
): Promise<ChainDeployment> {
  const rpc = new RpcClient(rpcUrl);
  const chainId = Number(await rpc.request<Hex>('eth_chainId'));
  if (chainId !== fixture.chainId)
    throw new Error(`anvil runs chain ${chainId}, fixture is ${fixture.chainId}`);
  const nonce = Number(await rpc.request<Hex>('eth_getTransactionCount', [DEPLOYER, 'latest']));
  if (nonce !== 0) throw new Error(`deploy needs a fresh chain (deployer nonce is ${nonce})`);

  const tokens = [...fixture.tokens, ...fixture.longTail];
  const wethNeeded = sumFor(fixture.weth, fixture.pools) + pooledFundAmount(fixture.weth, tokens);
  await placeCode(rpc, fixture, tokens, wethNeeded);
  log(`${fixture.chainName}: placed ${tokens.length} tokens with anvil_setCode`);

  const txs = new Transactions(rpc);
  await txs.start();
  const v2 = loadUniswapV2();
  const factoryArgs = encodeAbiParameters([{ type: 'address' }], [DEPLOYER]);
  const factories = [];
  for (const dex of DEXES) {
    factories.push({
      dex,
      address: await txs.create(`${dex} factory`, concatHex([v2.factory.bytecode, factoryArgs])),
    });
  }

  const pairHash = keccak256(v2.pair.bytecode);
  const pools: ManifestPool[] = [];
  for (const pool of fixture.pools) {
    const factory = factories.find((f) => f.dex === pool.dex)?.address as Address;
    const [token0, token1] = sortTokens(pool.tokenA, pool.tokenB);
    const address = getContractAddress({
      opcode: 'CREATE2',
      from: factory,
      salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
      bytecodeHash: pairHash,
    });
    const data = encodeFunctionData({
      abi: uniswapV2FactoryAbi,
      functionName: 'createPair',
      args: [token0, token1],
    });
    await txs.send(`createPair ${pool.dex}`, factory, data, 0n, GAS.pair);
    pools.push({ dex: pool.dex, address, token0, token1 });
  }

  await txs.send(
    'wrap ETH',
    fixture.weth,
    encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }),
    wethNeeded,
  );
  const kindOf = new Map(tokens.map((t) => [t.address, t.kind]));
  const give = (token: Address, to: Address, amount: bigint) =>
    kindOf.get(token) === 'weth'
      ? txs.send(
          'WETH transfer',
          token,
          encodeFunctionData({ abi: weth9Abi, functionName: 'transfer', args: [to, amount] }),
        )
      : txs.send(
          'mint',
          token,
          encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [to, amount] }),
        );
  for (const [i, pool] of fixture.pools.entries()) {
    const pair = pools[i]?.address as Address;
    await give(pool.tokenA, pair, pool.amountA);
    await give(pool.tokenB, pair, pool.amountB);
    await txs.send(
      'add liquidity',
      pair,
      encodeFunctionData({ abi: uniswapV2PairAbi, functionName: 'mint', args: [DEPLOYER] }),
    );
  }
  const pooled = pooledSet(fixture.pools);
  for (const token of tokens) {
    if (token.fundAmount === 0n || !pooled.has(token.address)) continue;
    for (const account of FUNDED_ACCOUNTS) await give(token.address, account, token.fundAmount);
  }
  await txs.confirm();
  log(`${fixture.chainName}: ${txs.count} transactions mined`);

  await verify(rpc, factories, pools);
  const safetyTokens = await deploySafetyTokens(rpcUrl, fixture.weth, factories[0]?.address as Address);
  const v3 = await deployV3Pools(rpcUrl, fixture);
  log(`${fixture.chainName}: ${v3.pools.length} Uniswap V3 pools`);
  // The router as on any chain: by the deploy script's own code (scripts/deploy.ts).
  const { router, executor } = await deployRouter({
    rpcUrl,
    privateKey: DEPLOYER_KEY,
    weth: fixture.weth,
    v3Factory: V3_FACTORY,
    v3PoolInitCodeHash: V3_POOL_INIT_CODE_HASH,
  });
  return {
    safetyTokens,
    chainId: fixture.chainId,
    chainName: fixture.chainName,
    nativeSymbol: fixture.nativeSymbol,
    weth: fixture.weth,
    multicall3: MULTICALL3,
    router,
    executor,
    factories: [...factories, { dex: 'uniswap-v3', address: v3.factory }],
    hubs: fixture.hubs,
    tokens: tokens.map(({ address, name, symbol, decimals }) => ({
      address,
      name,
      symbol,
      decimals,
      pooled: pooled.has(address),
    })),
    pools: [...pools, ...v3.pools],
  };
}

/** anvil_setCode + storage for WETH, Multicall3 and every token; funds the deployer. Batched. */
async function placeCode(rpc: RpcClient, fixture: ChainFixture, tokens: TokenFixture[], wethNeeded: bigint) {
  const code = {
    erc20: loadArtifact('Token').deployedBytecode,
    tether: loadArtifact('TetherToken').deployedBytecode,
    weth: loadArtifact('WETH9').deployedBytecode,
  };
  const calls: RpcCall[] = [
    // Enough ether to wrap for the pools and the accounts, plus gas.
    { method: 'anvil_setBalance', params: [DEPLOYER, numberToHex(wethNeeded + 10n ** 22n)] },
    { method: 'anvil_setCode', params: [MULTICALL3, loadArtifact('Multicall3').deployedBytecode] },
  ];
  for (const token of tokens) {
    calls.push({ method: 'anvil_setCode', params: [token.address, code[token.kind]] });
    const writes: StorageWrite[] =
      token.kind === 'erc20'
        ? tokenInitWrites({
            name: token.name,
            symbol: token.symbol,
            decimals: token.decimals,
            minter: DEPLOYER,
          })
        : token.kind === 'tether'
          ? tetherInitWrites(DEPLOYER)
          : [];
    for (const [slot, value] of writes) {
      calls.push({ method: 'anvil_setStorageAt', params: [token.address, slot, value] });
    }
  }
  if (!tokens.some((t) => t.address === fixture.weth && t.kind === 'weth')) {
    throw new Error(`${fixture.chainName}: WETH must be a fixture token of kind weth`);
  }
  await rpc.batch(calls);
}

/**
 * Queues the deployer's transactions (explicit nonce and gas) with automine off and mines them in
 * full blocks: a block per transaction costs a state-root update each, several times slower. A
 * block is mined before the queued gas limits would pass the block gas limit, because anvil drops
 * queued transactions that do not fit.
 */
class Transactions {
  private readonly sent: { label: string; hash: Hex }[] = [];
  private nonce = 0;
  private queuedGas = 0n;

  constructor(private readonly rpc: RpcClient) {}

  get count(): number {
    return this.sent.length;
  }

  async start(): Promise<void> {
    await this.rpc.request('evm_setAutomine', [false]);
  }

  async send(label: string, to: Address | null, data: Hex, value = 0n, gas: bigint = GAS.call): Promise<Hex> {
    if (this.queuedGas + gas > BLOCK_GAS_BUDGET) await this.mine();
    const tx = {
      from: DEPLOYER,
      data,
      nonce: numberToHex(this.nonce++),
      gas: numberToHex(gas),
      ...(to ? { to } : {}),
      ...(value > 0n ? { value: numberToHex(value) } : {}),
    };
    const hash = await this.rpc.request<Hex>('eth_sendTransaction', [tx]);
    this.sent.push({ label, hash });
    this.queuedGas += gas;
    return hash;
  }

  /** Queues a deployment; its address follows from the deployer's nonce (checked by `verify`). */
  async create(label: string, initCode: Hex): Promise<Address> {
    const address = getContractAddress({ from: DEPLOYER, nonce: BigInt(this.nonce) });
    await this.send(label, null, initCode, 0n, GAS.create);
    return address;
  }

  /** Mines what is queued, turns automine back on, and checks every receipt. */
  async confirm(): Promise<void> {
    await this.mine();
    await this.rpc.request('evm_setAutomine', [true]);
    const receipts = (await this.rpc.batch(
      this.sent.map(({ hash }) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
    )) as (Receipt | null)[];
    receipts.forEach((receipt, i) => {
      if (receipt?.status !== '0x1') throw new Error(`deploy transaction failed: ${this.sent[i]?.label}`);
    });
  }

  private async mine(): Promise<void> {
    if (this.queuedGas === 0n) return;
    await this.rpc.request('evm_mine');
    const pool = await this.rpc.request<{ pending: Hex; queued: Hex }>('txpool_status');
    if (Number(pool.pending) + Number(pool.queued) > 0)
      throw new Error('deploy transactions did not fit a block');
    this.queuedGas = 0n;
  }
}

/** Reads back what the deploy relies on: the pair addresses. */
async function verify(rpc: RpcClient, factories: { dex: string; address: Address }[], pools: ManifestPool[]) {
  const ethCall = (to: Address, data: Hex): RpcCall => ({
    method: 'eth_call',
    params: [{ to, data }, 'latest'],
  });
  const calls: RpcCall[] = [];
  for (const pool of pools) {
    const factory = factories.find((f) => f.dex === pool.dex)?.address as Address;
    calls.push(
      ethCall(
        factory,
        encodeFunctionData({
          abi: uniswapV2FactoryAbi,
          functionName: 'getPair',
          args: [pool.token0, pool.token1],
        }),
      ),
    );
  }
  const pairWords = (await rpc.batch(calls)) as Hex[];
  const asAddress = (w: Hex | undefined) => `0x${(w ?? '').slice(-40)}`.toLowerCase();
  pools.forEach((pool, i) => {
    if (asAddress(pairWords[i]) !== pool.address.toLowerCase()) {
      throw new Error(`pair address mismatch for ${pool.dex} ${pool.token0}/${pool.token1}`);
    }
  });
}

export function sortTokens(a: Address, b: Address): [Address, Address] {
  return a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
}

function sumFor(token: Address, pools: PoolFixture[]): bigint {
  return pools.reduce(
    (sum, p) => sum + (p.tokenA === token ? p.amountA : 0n) + (p.tokenB === token ? p.amountB : 0n),
    0n,
  );
}

function pooledSet(pools: PoolFixture[]): Set<Address> {
  return new Set(pools.flatMap((p) => [p.tokenA, p.tokenB]));
}

function pooledFundAmount(token: Address, tokens: TokenFixture[]): bigint {
  const found = tokens.find((t) => t.address === token);
  return (found?.fundAmount ?? 0n) * BigInt(FUNDED_ACCOUNTS.length);
}
