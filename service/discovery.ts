// Pools from the factories' own events: Uniswap V2 PairCreated and V3 PoolCreated over a block
// range, read with chunked eth_getLogs (a chunk the node refuses is halved). Only pools of two
// listed tokens (and, for V3, a configured fee tier) are kept, and each pool's address must be the
// one its factory derives with CREATE2 from the configured init code hash, so a wrong hash or a
// foreign factory fails loudly instead of routing through unknown contracts.
import {
  type Address,
  decodeAbiParameters,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  toEventSelector,
} from 'viem';
import type { FactoryConfig } from './config';
import { ConfigError } from './config';

export const PAIR_CREATED = toEventSelector('PairCreated(address,address,address,uint256)');
export const POOL_CREATED = toEventSelector('PoolCreated(address,address,uint24,int24,address)');

export interface DiscoveredPool {
  dex: string;
  address: Address;
  token0: Address;
  token1: Address;
  /** V3 pools only. */
  fee?: number;
}

interface Log {
  address: Hex;
  topics: Hex[];
  data: Hex;
}

export interface LogSource {
  call<T>(method: string, params: unknown[]): Promise<T>;
}

export interface DiscoverOptions {
  fromBlock: bigint;
  toBlock: bigint;
  chunkBlocks: number;
  /** Lowercase addresses of the listed tokens. */
  tokens: ReadonlySet<string>;
}

export async function discoverPools(
  rpc: LogSource,
  factories: readonly FactoryConfig[],
  options: DiscoverOptions,
): Promise<DiscoveredPool[]> {
  const pools: DiscoveredPool[] = [];
  for (const factory of factories) {
    const topic = factory.protocol === 'uniswap-v2' ? PAIR_CREATED : POOL_CREATED;
    const logs = await logsInChunks(rpc, factory.address as Address, topic, options);
    for (const log of logs) {
      const pool = decodePool(factory, log);
      if (!options.tokens.has(pool.token0.toLowerCase()) || !options.tokens.has(pool.token1.toLowerCase()))
        continue;
      if (factory.protocol === 'uniswap-v3' && !factory.feeTiers.includes(pool.fee as number)) continue;
      const expected = poolAddress(factory, pool.token0, pool.token1, pool.fee);
      if (expected.toLowerCase() !== pool.address.toLowerCase()) {
        throw new ConfigError(
          `${factory.dex} factory ${factory.address}: pool ${pool.address} is not where the configured init code hash puts it (${expected}); check initCodeHash`,
        );
      }
      pools.push(pool);
    }
  }
  return pools;
}

function decodePool(factory: FactoryConfig, log: Log): DiscoveredPool {
  const token0 = topicAddress(log.topics[1]);
  const token1 = topicAddress(log.topics[2]);
  if (factory.protocol === 'uniswap-v2') {
    const [pair] = decodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], log.data);
    return { dex: factory.dex, address: pair, token0, token1 };
  }
  const fee = Number(BigInt(log.topics[3] ?? '0x0'));
  const [, pool] = decodeAbiParameters([{ type: 'int24' }, { type: 'address' }], log.data);
  return { dex: factory.dex, address: pool, token0, token1, fee };
}

/** CREATE2 address of a pool: V2 salts with the packed tokens, V3 with the ABI-encoded tokens and fee. */
export function poolAddress(factory: FactoryConfig, token0: Address, token1: Address, fee?: number): Address {
  const salt =
    factory.protocol === 'uniswap-v2'
      ? keccak256(encodePacked(['address', 'address'], [token0, token1]))
      : keccak256(
          encodeAbiParameters(
            [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }],
            [token0, token1, fee ?? 0],
          ),
        );
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory.address as Address,
    salt,
    bytecodeHash: factory.initCodeHash as Hex,
  });
}

async function logsInChunks(
  rpc: LogSource,
  address: Address,
  topic: Hex,
  options: DiscoverOptions,
): Promise<Log[]> {
  const logs: Log[] = [];
  let chunk = BigInt(options.chunkBlocks);
  let from = options.fromBlock;
  while (from <= options.toBlock) {
    const to = from + chunk - 1n < options.toBlock ? from + chunk - 1n : options.toBlock;
    try {
      logs.push(
        ...(await rpc.call<Log[]>('eth_getLogs', [
          { address, topics: [topic], fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` },
        ])),
      );
      from = to + 1n;
    } catch (error) {
      // Nodes cap ranges or result sizes differently: halve and retry, down to one block.
      if (chunk === 1n) throw error;
      chunk = chunk / 2n > 0n ? chunk / 2n : 1n;
    }
  }
  return logs;
}

function topicAddress(topic: Hex | undefined): Address {
  if (!topic) throw new ConfigError('a factory event lacks an indexed token');
  return getAddress(`0x${topic.slice(26)}`);
}
