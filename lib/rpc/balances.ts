// Native and ERC-20 balances of one address, all in one eth_call through Multicall3's aggregate3
// (allowFailure, so one broken token cannot hide the others), pinned to a block and cached per
// (chain, owner, block): a popup re-render in the same block costs one eth_blockNumber.
import { type Address, decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex, parseAbi } from 'viem';
import { isNativeToken } from '@/lib/api/schema';
import type { RpcClient } from './network';

/** Canonical Multicall3 address, the same on every chain it is deployed to (and on the devnet). */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

export const multicall3BalanceAbi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
  'function getEthBalance(address addr) view returns (uint256 balance)',
]);

export interface BalanceSnapshot {
  chainId: number;
  owner: Address;
  blockNumber: bigint;
  /** Lowercase token address (native as 0xeeee…) -> balance in the smallest unit. */
  balances: ReadonlyMap<string, bigint>;
  /** Tokens whose balanceOf failed or answered garbage (not an ERC-20, self-destructed…). */
  failed: readonly string[];
}

export interface BalanceReader {
  /** Balances at the latest block; `tokens` may hold the native pseudo-address. */
  read(owner: Address, tokens: readonly string[]): Promise<BalanceSnapshot>;
  /** Forget cached balances (of one owner, or all) after a swap or an approval. */
  invalidate(owner?: Address): void;
}

export interface BalanceReaderOptions {
  client: RpcClient;
  chainId: number;
  multicall3?: Address;
  /** Cached (owner, block) entries kept; old blocks are useless, so a few suffice. */
  maxEntries?: number;
}

/** The balance of `token` in a snapshot, or undefined when it was not read or failed. */
export function balanceOf(snapshot: BalanceSnapshot, token: string): bigint | undefined {
  return snapshot.balances.get(token.toLowerCase());
}

interface Entry {
  balances: Map<string, bigint>;
  failed: Set<string>;
}

export function createBalanceReader(options: BalanceReaderOptions): BalanceReader {
  const { client, chainId } = options;
  const multicall3 = options.multicall3 ?? MULTICALL3_ADDRESS;
  const maxEntries = options.maxEntries ?? 16;
  const cache = new Map<string, Entry>();

  async function fetchAt(owner: Address, tokens: string[], blockNumber: bigint): Promise<Entry> {
    const calls = tokens.map((token) => ({
      target: (isNativeToken(token) ? multicall3 : token) as Address,
      allowFailure: true,
      callData: isNativeToken(token)
        ? encodeFunctionData({ abi: multicall3BalanceAbi, functionName: 'getEthBalance', args: [owner] })
        : encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
    }));
    // aggregate3 is payable, so viem's readContract refuses it: a plain eth_call does the same.
    const { data } = await client.call({
      to: multicall3,
      data: encodeFunctionData({ abi: multicall3BalanceAbi, functionName: 'aggregate3', args: [calls] }),
      blockNumber,
    });
    const results = decodeFunctionResult({
      abi: multicall3BalanceAbi,
      functionName: 'aggregate3',
      data: data ?? '0x',
    });
    const entry: Entry = { balances: new Map(), failed: new Set() };
    tokens.forEach((token, i) => {
      const result = results[i];
      const value = result?.success ? decodeUint(result.returnData) : null;
      if (value === null) entry.failed.add(token);
      else entry.balances.set(token, value);
    });
    return entry;
  }

  return {
    async read(owner, tokens) {
      const wanted = [...new Set(tokens.map((t) => t.toLowerCase()))];
      const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
      const key = `${chainId}:${owner.toLowerCase()}:${blockNumber}`;
      let entry = cache.get(key);
      const missing = wanted.filter((t) => !entry?.balances.has(t) && !entry?.failed.has(t));
      if (missing.length > 0) {
        const fetched = await fetchAt(owner, missing, blockNumber);
        entry = entry ?? { balances: new Map(), failed: new Set() };
        for (const [token, value] of fetched.balances) entry.balances.set(token, value);
        for (const token of fetched.failed) entry.failed.add(token);
        cache.delete(key); // re-insert: Map order makes the oldest entry the first one
        cache.set(key, entry);
        while (cache.size > maxEntries) {
          const oldest = cache.keys().next().value;
          if (oldest === undefined) break;
          cache.delete(oldest);
        }
      }
      const balances = new Map<string, bigint>();
      const failed: string[] = [];
      for (const token of wanted) {
        const value = entry?.balances.get(token);
        if (value === undefined) failed.push(token);
        else balances.set(token, value);
      }
      return { chainId, owner, blockNumber, balances, failed };
    },

    invalidate(owner) {
      if (!owner) {
        cache.clear();
        return;
      }
      const prefix = `${chainId}:${owner.toLowerCase()}:`;
      for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
    },
  };
}

/** A balanceOf answer is exactly one uint256; anything else (empty, short, a revert) is a failure. */
function decodeUint(data: Hex): bigint | null {
  if (data.length !== 66) return null;
  try {
    return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data });
  } catch {
    return null;
  }
}
