// One block's state of every pool of a chain through Multicall3 aggregate3: the V2 reserves and
// each V3 pool's slot0, liquidity and bitmap words in one eth_call (chunked past `chunkSize`
// subcalls), then the V3 ticks those words mark in a second. A pool that fails to answer is left
// empty and routing skips it.
import { decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from 'viem';
import type { BlockRef } from './head-watcher';
import { makeSnapshot, type ReserveSnapshot } from './routing/reserves';
import type { V3PoolState } from './routing/v3';
import {
  poolState,
  readWords,
  type SubCall,
  type SubResult,
  tickCalls,
  v3PoolRef,
  wordCalls,
  wordOfTick,
} from './v3-reader';

const multicallAbi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
]);
const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']);
const GET_RESERVES = encodeFunctionData({ abi: pairAbi, functionName: 'getReserves' });

export interface PoolStateOptions {
  /** Manifest order; a `fee` marks a Uniswap V3 pool. */
  pools: readonly { readonly address: Hex; readonly fee?: number | undefined }[];
  chunkSize: number;
  /** V3: bitmap words read on each side of the current tick's word. */
  wordRadius: number;
  /** eth_call of Multicall3 with this calldata at this block tag (errors are the caller's to wrap). */
  ethCall(data: Hex, tag: Hex): Promise<Hex>;
}

export function createPoolStateFetcher(
  options: PoolStateOptions,
): (block: BlockRef) => Promise<ReserveSnapshot> {
  const { chunkSize, wordRadius: radius } = options;
  const v2Pools = options.pools.flatMap((pool, index) => (pool.fee === undefined ? [{ index, pool }] : []));
  const v3Pools = options.pools.flatMap((pool, index) =>
    pool.fee === undefined ? [] : [{ index, ref: v3PoolRef(pool.address, pool.fee) }],
  );
  // Where each V3 pool's tick was last seen: the next block's words are read around it.
  const centres = new Map<number, number>();

  async function multicall(calls: readonly SubCall[], tag: Hex): Promise<SubResult[]> {
    const chunks: SubCall[][] = [];
    for (let i = 0; i < calls.length; i += chunkSize) chunks.push(calls.slice(i, i + chunkSize));
    const results = await Promise.all(
      chunks.map(async (chunk) => {
        const data = encodeFunctionData({
          abi: multicallAbi,
          functionName: 'aggregate3',
          args: [chunk.map(({ target, callData }) => ({ target, allowFailure: true, callData }))],
        });
        // A node without Multicall3 answers 0x, which fails to decode: the caller's RPC error too.
        return decodeFunctionResult({
          abi: multicallAbi,
          functionName: 'aggregate3',
          data: await options.ethCall(data, tag),
        });
      }),
    );
    return results.flat() as SubResult[];
  }

  /** First sight of the V3 pools: their current ticks, to centre the words read. */
  async function locateV3(tag: Hex): Promise<void> {
    const results = await multicall(
      v3Pools.map(({ ref }) => wordCalls(ref, 0, 0)[0] as SubCall),
      tag,
    );
    v3Pools.forEach(({ index, ref }, i) => {
      const hex = results[i]?.returnData;
      if (!results[i]?.success || !hex || hex.length < 130) return;
      const tickWord = BigInt(`0x${hex.slice(66, 130)}`) & 0xffffffn;
      const tick = Number(tickWord >= 0x800000n ? tickWord - 0x1000000n : tickWord);
      centres.set(index, wordOfTick(ref, tick));
    });
  }

  async function v3States(results: readonly SubResult[], tag: Hex): Promise<(V3PoolState | undefined)[]> {
    const perPool = 3 + 2 * radius;
    const reads = v3Pools.map(({ index, ref }, i) => {
      const start = v2Pools.length + i * perPool;
      const read = readWords(ref, centres.get(index) ?? 0, radius, results.slice(start, start + perPool));
      if (read) centres.set(index, wordOfTick(ref, read.tick));
      return read;
    });
    const calls = v3Pools.flatMap(({ ref }, i) => tickCalls(ref, reads[i]?.ticks ?? []));
    const tickResults = calls.length > 0 ? await multicall(calls, tag) : [];
    const v3: (V3PoolState | undefined)[] = options.pools.map(() => undefined);
    let offset = 0;
    v3Pools.forEach(({ index, ref }, i) => {
      const read = reads[i];
      if (!read) return;
      v3[index] = poolState(ref, read, tickResults.slice(offset, offset + read.ticks.length)) ?? undefined;
      offset += read.ticks.length;
    });
    return v3;
  }

  return async (block) => {
    const tag = `0x${block.number.toString(16)}` as Hex;
    if (v3Pools.some(({ index }) => !centres.has(index))) await locateV3(tag);
    const calls: SubCall[] = v2Pools.map(({ pool }) => ({ target: pool.address, callData: GET_RESERVES }));
    for (const { index, ref } of v3Pools) calls.push(...wordCalls(ref, centres.get(index) ?? 0, radius));
    const results = await multicall(calls, tag);
    const reserves: [bigint, bigint][] = options.pools.map(() => [0n, 0n]);
    v2Pools.forEach(({ index }, i) => {
      const result = results[i];
      if (!result?.success || result.returnData.length < 2 + 128) return;
      const hex = result.returnData;
      reserves[index] = [BigInt(`0x${hex.slice(2, 66)}`), BigInt(`0x${hex.slice(66, 130)}`)];
    });
    if (v3Pools.length === 0) return makeSnapshot(block.number, reserves);
    return makeSnapshot(block.number, reserves, await v3States(results, tag));
  };
}
