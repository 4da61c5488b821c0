// What a quote needs of a Uniswap V3 pool at one block, read through Multicall3 subcalls:
// slot0 and liquidity, the tickBitmap words around the current tick, then liquidityNet of every
// initialized tick in those words. The words come first (one batch with the V2 reserves), the
// ticks they name second, so a block costs two eth_calls however many pools there are.
import { encodeFunctionData, type Hex, parseAbi } from 'viem';
import { compress, FEE_TICK_SPACING, type V3PoolState, wordOf } from './pool-math/v3';

const poolAbi = parseAbi([
  'function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128, int128, uint256, uint256, int56, uint160, uint32, bool)',
]);
const SLOT0 = encodeFunctionData({ abi: poolAbi, functionName: 'slot0' });
const LIQUIDITY = encodeFunctionData({ abi: poolAbi, functionName: 'liquidity' });

export interface V3PoolRef {
  readonly address: Hex;
  readonly fee: number;
  readonly tickSpacing: number;
}

export function v3PoolRef(address: Hex, fee: number): V3PoolRef {
  const tickSpacing = FEE_TICK_SPACING[fee];
  if (!tickSpacing) throw new Error(`pool ${address}: unknown V3 fee tier ${fee}`);
  return { address, fee, tickSpacing };
}

export interface SubCall {
  readonly target: Hex;
  readonly callData: Hex;
}

export interface SubResult {
  readonly success: boolean;
  readonly returnData: Hex;
}

/** Words of the bitmap read on each side of the current tick's word. */
export const DEFAULT_WORD_RADIUS = 4;

/** slot0, liquidity and the 2r+1 bitmap words around `centerWord`, in that order. */
export function wordCalls(pool: V3PoolRef, centerWord: number, radius: number): SubCall[] {
  const calls: SubCall[] = [
    { target: pool.address, callData: SLOT0 },
    { target: pool.address, callData: LIQUIDITY },
  ];
  for (let word = centerWord - radius; word <= centerWord + radius; word++) {
    calls.push({
      target: pool.address,
      callData: encodeFunctionData({ abi: poolAbi, functionName: 'tickBitmap', args: [word] }),
    });
  }
  return calls;
}

export interface WordsRead {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
  readonly minWord: number;
  readonly maxWord: number;
  readonly bitmap: Map<number, bigint>;
  /** Initialized ticks named by the words, ascending. */
  readonly ticks: number[];
}

/** Decodes wordCalls' results; null when the pool did not answer (routing then skips it). */
export function readWords(
  pool: V3PoolRef,
  centerWord: number,
  radius: number,
  results: readonly SubResult[],
): WordsRead | null {
  const [slot0, liquidity, ...words] = results;
  if (!slot0?.success || !liquidity?.success || slot0.returnData.length < 2 + 64 * 7) return null;
  const sqrtPriceX96 = word(slot0.returnData, 0);
  if (sqrtPriceX96 === 0n) return null; // not initialized
  const tick = Number(signed(word(slot0.returnData, 1), 24));
  const bitmap = new Map<number, bigint>();
  const ticks: number[] = [];
  const minWord = centerWord - radius;
  for (let i = 0; i < words.length; i++) {
    const result = words[i];
    if (!result?.success) return null;
    const bits = word(result.returnData, 0);
    if (bits === 0n) continue;
    const position = minWord + i;
    bitmap.set(position, bits);
    for (let bit = 0; bit < 256; bit++) {
      if ((bits >> BigInt(bit)) & 1n) ticks.push((position * 256 + bit) * pool.tickSpacing);
    }
  }
  return {
    sqrtPriceX96,
    tick,
    liquidity: word(liquidity.returnData, 0),
    minWord,
    maxWord: centerWord + radius,
    bitmap,
    ticks,
  };
}

/** The word holding a tick, for centring the next read. */
export function wordOfTick(pool: V3PoolRef, tick: number): number {
  return wordOf(compress(tick, pool.tickSpacing));
}

export function tickCalls(pool: V3PoolRef, ticks: readonly number[]): SubCall[] {
  return ticks.map((tick) => ({
    target: pool.address,
    callData: encodeFunctionData({ abi: poolAbi, functionName: 'ticks', args: [tick] }),
  }));
}

export function poolState(
  pool: V3PoolRef,
  read: WordsRead,
  tickResults: readonly SubResult[],
): V3PoolState | null {
  const liquidityNet = new Map<number, bigint>();
  for (let i = 0; i < read.ticks.length; i++) {
    const result = tickResults[i];
    if (!result?.success || result.returnData.length < 2 + 128) return null;
    liquidityNet.set(read.ticks[i] as number, signed(word(result.returnData, 1), 128));
  }
  return {
    sqrtPriceX96: read.sqrtPriceX96,
    tick: read.tick,
    liquidity: read.liquidity,
    fee: pool.fee,
    tickSpacing: pool.tickSpacing,
    bitmap: read.bitmap,
    minWord: read.minWord,
    maxWord: read.maxWord,
    liquidityNet,
  };
}

function word(hex: Hex, index: number): bigint {
  const start = 2 + index * 64;
  return BigInt(`0x${hex.slice(start, start + 64) || '0'}`);
}

function signed(value: bigint, bits: number): bigint {
  const masked = value & ((1n << BigInt(bits)) - 1n);
  return masked >= 1n << BigInt(bits - 1) ? masked - (1n << BigInt(bits)) : masked;
}
