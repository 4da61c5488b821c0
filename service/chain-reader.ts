// Reads what a quote needs from a chain: the head block, and every pool's state at a block through
// Multicall3 aggregate3 (V2 reserves and V3 bitmap words in one eth_call, V3 ticks in a second). A head watcher follows the chain (service/head-watcher.ts)
// and reads each new block's state once, as it arrives, so a quote costs no node round trip.
// Snapshots are cached by block hash (an LRU), so anvil_revert/reorgs never serve stale state. The
// cache spans every block a quote can still be built at (plus room for forks), so a build of an old
// but valid quote never sends the node a reserves read (a client cannot push builds into RPC load).
import type { Hex } from 'viem';
import type { ChainName } from './chains';
import { RpcUnavailableError } from './errors';
import { type BlockRef, createHeadWatcher, parseBlock, webSocketUrlFor } from './head-watcher';
import type { ServiceManifest } from './manifest';
import { buildableBlocks, type ServicePolicy } from './policy';
import { createPoolStateFetcher } from './pool-state';
import type { ReserveSnapshot } from './routing/reserves';
import { createJsonRpcClient } from './rpc-client';
import { DEFAULT_WORD_RADIUS } from './v3-reader';

export type { BlockRef } from './head-watcher';

/** A head and the pools' state read at it. */
export interface ChainState {
  readonly block: BlockRef;
  readonly snapshot: ReserveSnapshot;
}

export interface ChainReader {
  /** The latest block, asked of the node on every call (a build checks a quote's age against it). */
  head(): Promise<BlockRef>;
  /** A past block by number, or null when the chain does not have it. */
  block(number: bigint): Promise<BlockRef | null>;
  /** Reserves of every pool (manifest order) at that block. */
  reserves(block: BlockRef): Promise<ReserveSnapshot>;
  /**
   * The newest head the reader follows and its state, without asking the node when the head is
   * known fresh; the state of each new head is read once. Quotes use this when present.
   */
  current?(): Promise<ChainState>;
  /**
   * What current() would answer, when it can be answered without waiting (the head fresh and its
   * state already read): the answer cache's hit path checks the head with no promise in between.
   */
  currentNow?(): ChainState | undefined;
  /** Drops pooled connections (the service's close calls it). */
  close?(): void;
}

/** Blocks of forks the snapshot cache holds on top of the buildable window (reorgs, anvil_revert). */
const FORK_ROOM = 8;

/** An RPC reader for every chain of a manifest, keyed by chain name. */
export function createRpcChainReaders(
  manifest: ServiceManifest,
  policy: ServicePolicy,
): Partial<Record<ChainName, ChainReader>> {
  const readers: Partial<Record<ChainName, ChainReader>> = {};
  for (const chain of manifest.chains) {
    readers[chain.chainName] = createRpcChainReader({
      chainName: chain.chainName,
      cacheSize: buildableBlocks(policy, chain.chainName) + FORK_ROOM,
      rpcUrl: chain.rpcUrl,
      multicall3: chain.multicall3 as Hex,
      pools: chain.pools.map((pool) => ({ address: pool.address as Hex, fee: pool.fee })),
    });
  }
  return readers;
}

export interface RpcChainReaderOptions {
  chainName: string;
  rpcUrl: string;
  multicall3: Hex;
  /** Manifest order; a `fee` marks a Uniswap V3 pool. */
  pools: readonly { readonly address: Hex; readonly fee?: number | undefined }[];
  /** V3: bitmap words read on each side of the current tick's word. */
  wordRadius?: number;
  /** Per-RPC timeout; a dead node should fail a quote fast, not hang it. */
  timeoutMs?: number;
  /** Snapshots kept (blocks); default 16. */
  cacheSize?: number;
  /** Subcalls per eth_call; one call for any realistic pool count, chunked past it to stay under gas caps. */
  chunkSize?: number;
  /** newHeads WebSocket; default: the RPC URL's ws:// twin. null: poll only. */
  wsUrl?: string | null;
  /** Head poll interval: default 100 ms on a loopback node, 1,000 ms elsewhere. */
  pollMs?: number;
}

const LOOPBACK = /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

export function createRpcChainReader(options: RpcChainReaderOptions): ChainReader {
  const client = createJsonRpcClient(options.rpcUrl, options.timeoutMs ?? 5_000);
  const cacheSize = options.cacheSize ?? 16;
  const chunkSize = options.chunkSize ?? 2_000;
  const cache = new Map<string, Promise<ReserveSnapshot>>();
  async function rpc<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new RpcUnavailableError(options.chainName, error);
    }
  }

  async function getBlock(tag: Hex | 'latest'): Promise<BlockRef | null> {
    const raw = await rpc(() => client.call<unknown>('eth_getBlockByNumber', [tag, false]));
    if (raw === null) return null;
    const block = parseBlock(raw);
    if (!block) throw new RpcUnavailableError(options.chainName, new Error('malformed block'));
    return block;
  }

  const fetchReserves = createPoolStateFetcher({
    pools: options.pools,
    chunkSize,
    wordRadius: options.wordRadius ?? DEFAULT_WORD_RADIUS,
    ethCall: (data, tag) => rpc(() => client.call<Hex>('eth_call', [{ to: options.multicall3, data }, tag])),
  });

  const pollMs = options.pollMs ?? (LOOPBACK.test(new URL(options.rpcUrl).hostname) ? 100 : 1_000);
  const watcher = createHeadWatcher({
    chainName: options.chainName,
    client,
    wsUrl: options.wsUrl === null ? undefined : (options.wsUrl ?? webSocketUrlFor(options.rpcUrl)),
    pollMs,
    staleAfterMs: Math.max(1_000, 3 * pollMs),
    // Read each new block's state as soon as it is seen; a failure here reaches the next quote.
    onHead: (head) => void reserves(head).catch(() => {}),
  });
  /** The snapshots of `cache` that have arrived, by block hash (for currentNow, without a promise). */
  const arrived = new Map<string, ReserveSnapshot>();

  function reserves(block: BlockRef): Promise<ReserveSnapshot> {
    const key = block.hash;
    const hit = cache.get(key);
    if (hit) {
      // Refresh recency: Map iteration order is insertion order.
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const pending = fetchReserves(block);
    cache.set(key, pending);
    // A failed read must not poison the cache; the rejection itself reaches the caller.
    pending.then(
      (snapshot) => {
        if (cache.get(key) === pending) arrived.set(key, snapshot);
      },
      () => {
        if (cache.get(key) === pending) cache.delete(key);
      },
    );
    while (cache.size > cacheSize) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
      arrived.delete(oldest);
    }
    return pending;
  }

  return {
    async current() {
      const block = await watcher.current();
      return { block, snapshot: await reserves(block) };
    },
    currentNow() {
      const block = watcher.known();
      const snapshot = block && arrived.get(block.hash);
      return snapshot ? { block, snapshot } : undefined;
    },
    async head() {
      const block = await getBlock('latest');
      if (!block) throw new RpcUnavailableError(options.chainName, new Error('no latest block'));
      return block;
    },
    block(number) {
      return getBlock(`0x${number.toString(16)}`);
    },
    close() {
      watcher.close();
      client.close();
    },
    reserves,
  };
}
