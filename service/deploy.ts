// Deploys Swaplane's router (which creates its executor) on any EVM chain, given an RPC and a key,
// and records the addresses in a service configuration file. Used by `npm run deploy` and by the
// devnet, so the embedded default runs from the same code path as a real deployment.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  getAddress,
  type Hex,
  http,
  parseAbi,
  zeroAddress,
  zeroHash,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  type ChainConfig,
  ConfigError,
  readServiceConfig,
  type ServiceConfig,
  ServiceConfigSchema,
} from './config';
import routerArtifact from './contracts/artifacts/SwapRouter.json' with { type: 'json' };

const routerReadAbi = parseAbi([
  'function executor() view returns (address)',
  'function weth() view returns (address)',
]);
const executorReadAbi = parseAbi([
  'function router() view returns (address)',
  'function v3Factory() view returns (address)',
  'function v3PoolInitCodeHash() view returns (bytes32)',
]);

export interface DeployRouterOptions {
  rpcUrl: string;
  privateKey: Hex;
  weth: Address;
  /** The Uniswap V3 factory whose pools routes may use; absent: V2 routes only. */
  v3Factory?: Address;
  v3PoolInitCodeHash?: Hex;
}

export interface DeployedRouter {
  router: Address;
  executor: Address;
  /** The deployment transaction's block. */
  block: bigint;
}

export async function deployRouter(options: DeployRouterOptions): Promise<DeployedRouter> {
  const account = privateKeyToAccount(options.privateKey);
  const transport = http(options.rpcUrl);
  const probe = createPublicClient({ transport });
  const chainId = await probe.getChainId();
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'native', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport, pollingInterval: 50 });
  const wallet = createWalletClient({ account, chain, transport });
  const v3Factory = options.v3Factory ?? zeroAddress;
  const initCodeHash = options.v3PoolInitCodeHash ?? zeroHash;
  const args = encodeAbiParameters(
    [{ type: 'address' }, { type: 'address' }, { type: 'bytes32' }],
    [options.weth, v3Factory, initCodeHash],
  );
  const hash = await wallet.sendTransaction({
    data: `${routerArtifact.bytecode as Hex}${args.slice(2)}` as Hex,
    account,
    chain,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 120_000 });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`the router deployment ${hash} failed (status ${receipt.status})`);
  }
  const router = getAddress(receipt.contractAddress);
  // Read back the wiring: a router that is not what we asked for must not be recorded.
  const [executor, weth] = await Promise.all([
    client.readContract({ address: router, abi: routerReadAbi, functionName: 'executor' }),
    client.readContract({ address: router, abi: routerReadAbi, functionName: 'weth' }),
  ]);
  const [owner, factory, codeHash] = await Promise.all([
    client.readContract({ address: executor, abi: executorReadAbi, functionName: 'router' }),
    client.readContract({ address: executor, abi: executorReadAbi, functionName: 'v3Factory' }),
    client.readContract({ address: executor, abi: executorReadAbi, functionName: 'v3PoolInitCodeHash' }),
  ]);
  if (weth.toLowerCase() !== options.weth.toLowerCase() || owner.toLowerCase() !== router.toLowerCase()) {
    throw new Error(
      `the router at ${router} is not wired as deployed (weth ${weth}, executor's router ${owner})`,
    );
  }
  if (factory.toLowerCase() !== v3Factory.toLowerCase() || codeHash !== initCodeHash) {
    throw new Error(`the executor at ${executor} does not name the V3 factory it was given`);
  }
  return { router, executor, block: receipt.blockNumber };
}

/** The V3 factory a chain's configuration names (the executor trusts exactly one). */
export function v3FactoryOf(chain: ChainConfig): { address: Address; initCodeHash: Hex } | undefined {
  const v3 = chain.factories.filter((factory) => factory.protocol === 'uniswap-v3');
  if (v3.length > 1)
    throw new ConfigError(`${chain.name}: the executor supports one Uniswap V3 factory, found ${v3.length}`);
  const factory = v3[0];
  return factory && { address: factory.address as Address, initCodeHash: factory.initCodeHash as Hex };
}

/** Adds or replaces a chain (by chain id) in a configuration file, validated, written atomically. */
export function writeChainConfig(path: string, chain: ChainConfig): ServiceConfig {
  const current: ServiceConfig = existsSync(path)
    ? readServiceConfig(path)
    : { version: 1, chains: [] as never };
  const chains = current.chains.filter((existing) => existing.chainId !== chain.chainId);
  // The file's other settings (public URL, limits) are kept as they are.
  const next = ServiceConfigSchema.parse({ ...current, version: 1, chains: [...chains, chain] });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`);
  renameSync(temporary, path);
  return next;
}

/** A chain of a configuration file, by name. */
export function chainOf(path: string, name: string): ChainConfig {
  const config = readServiceConfig(path);
  const chain = config.chains.find((candidate) => candidate.name === name);
  if (!chain) {
    throw new ConfigError(
      `${path} has no chain "${name}" (it has: ${config.chains.map((c) => c.name).join(', ')})`,
    );
  }
  return chain;
}
