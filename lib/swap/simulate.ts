// Check 4 of docs/ARCHITECTURE.md ("Before anything is signed"): the swap must simulate without revert from the user's account,
// and pay at least minReceived. Two layers:
// - preflight: eth_simulateV1 of [approvals..., swap] with transfer tracing, before anything is
//   sent, so a swap that would revert costs no approval gas; its traced transfers give the
//   received amount whatever the router's ABI (RPCs without eth_simulateV1 skip this layer);
// - simulateSwap: eth_call + eth_estimateGas of the swap itself, right before signing.
import {
  type Address,
  BaseError,
  decodeErrorResult,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
} from 'viem';
import { isNativeToken, NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import type { RpcClient } from '@/lib/rpc/network';
import { isRpcUnavailable } from '@/lib/rpc/network';
import { withGasMargin } from '@/lib/rpc/transactions';
import type { RevertReason } from '@/lib/state/pipeline-state';
import { ROUTER_ABI, ROUTER_ERROR_TEXT, ROUTER_SWAP_ABI } from './router-abi';

export interface Call {
  to: Address;
  data: Hex;
  value?: bigint;
}

const PANIC_TEXT: Readonly<Record<number, string>> = {
  1: 'assertion failed',
  17: 'arithmetic overflow or underflow',
  18: 'division by zero',
  50: 'array index out of bounds',
};

/** Decodes revert data: the router's custom errors, Error(string), Panic(uint256), else unknown. */
export function decodeRevert(data: Hex | undefined): RevertReason {
  if (!data || data === '0x') {
    return { kind: 'unknown', name: '', text: 'reverted without a reason' };
  }
  const short = data.slice(0, 2_000);
  try {
    const decoded = decodeErrorResult({ abi: ROUTER_ABI, data });
    const args = (decoded.args ?? []) as readonly unknown[];
    const errorName: string = decoded.errorName; // Error and Panic are decoded too, outside the ABI
    if (errorName === 'Error') {
      return { kind: 'error', name: 'Error', text: String(args[0] ?? '').slice(0, 500), data: short };
    }
    if (errorName === 'Panic') {
      const code = Number(args[0] ?? 0);
      const what = PANIC_TEXT[code] ?? `panic 0x${code.toString(16)}`;
      return { kind: 'panic', name: 'Panic', text: what, data: short };
    }
    const shown = args.map((a) => String(a)).join(', ');
    const words = ROUTER_ERROR_TEXT[errorName];
    const text = `${errorName}(${shown})${words ? `: ${words}` : ''}`;
    return { kind: 'custom', name: errorName, text: text.slice(0, 500), data: short };
  } catch {
    return {
      kind: 'unknown',
      name: '',
      text: `reverted with unrecognised data ${data.slice(0, 10)}`,
      data: short,
    };
  }
}

/**
 * The revert in a viem error (eth_call, estimateGas), or null when the error is not a revert
 * (the node is down, the request was malformed…): the caller rethrows those.
 */
export function revertOf(error: unknown): RevertReason | null {
  if (!(error instanceof BaseError) || isRpcUnavailable(error)) return null;
  let data: Hex | undefined;
  let reverted = false;
  error.walk((e) => {
    const name = (e as { name?: string }).name ?? '';
    if (/Revert|RawContractError|ContractFunctionExecutionError/.test(name)) reverted = true;
    const candidate = (e as { data?: unknown }).data;
    const hex = typeof candidate === 'string' ? candidate : (candidate as { data?: unknown })?.data;
    if (typeof hex === 'string' && /^0x[0-9a-fA-F]*$/.test(hex) && data === undefined) data = hex as Hex;
    return false;
  });
  const message = `${error.shortMessage} ${error.details ?? ''}`;
  if (!reverted && data === undefined && !/revert/i.test(message)) return null;
  return decodeRevert(data);
}

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

interface LogLike {
  address: string;
  topics: readonly Hex[];
  data: Hex;
}

/**
 * What `recipient` received of `outToken` according to logs: the sum of the token's Transfer
 * logs to them (eth_simulateV1 traces native transfers as Transfer logs of 0xeeee…). For native
 * output in a receipt (no such logs), the router's Swapped event to them. Null when neither shows.
 */
export function receivedFromLogs(
  logs: readonly LogLike[],
  query: { outToken: string; recipient: string; router?: string },
): bigint | null {
  let total: bigint | null = null;
  for (const log of logs) {
    if (!sameAddress(log.address, isNativeToken(query.outToken) ? NATIVE_TOKEN_ADDRESS : query.outToken))
      continue;
    if (log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC || log.topics.length !== 3) continue;
    try {
      const { args } = decodeEventLog({
        abi: erc20Abi,
        eventName: 'Transfer',
        topics: log.topics as [Hex],
        data: log.data,
      });
      if (args && sameAddress(args.to, query.recipient)) total = (total ?? 0n) + args.value;
    } catch {
      // not a standard Transfer: ignore it
    }
  }
  if (total !== null || !isNativeToken(query.outToken) || !query.router) return total;
  for (const log of logs) {
    if (!sameAddress(log.address, query.router)) continue;
    try {
      const { args } = decodeEventLog({
        abi: ROUTER_SWAP_ABI,
        eventName: 'Swapped',
        topics: log.topics as [Hex],
        data: log.data,
      });
      if (args && sameAddress(args.recipient, query.recipient) && isNativeToken(args.outToken)) {
        total = (total ?? 0n) + args.outAmount;
      }
    } catch {
      // another event of the router
    }
  }
  return total;
}

export type PreflightResult =
  | { status: 'unsupported' }
  | { status: 'passed'; gasUsed: bigint; received: bigint | null }
  | { status: 'reverted'; call: 'approval' | 'swap'; revert: RevertReason }
  | { status: 'output-low'; received: bigint; minReceived: bigint };

/**
 * eth_simulateV1 of the approvals then the swap, on top of the latest block. What the user
 * receives: for an ERC-20, their balanceOf read before and after inside the same simulated block
 * (robust to any router, and to output sent elsewhere: that reads as 0); for the native coin, the
 * traced transfers to them, when the RPC traces transfers at all (else unknown: null).
 */
export async function preflightSwap(
  client: RpcClient,
  input: { from: Address; approvals: readonly Call[]; swap: Call; outToken: string; minReceived: bigint },
): Promise<PreflightResult> {
  const nativeOut = isNativeToken(input.outToken);
  const readBalance: Call = {
    to: input.outToken as Address,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [input.from] }),
  };
  const txs = [...input.approvals, input.swap];
  const sequence = nativeOut ? txs : [readBalance, ...txs, readBalance];
  const calls = sequence.map((call) => ({
    account: input.from,
    to: call.to,
    data: call.data,
    value: call.value ?? 0n,
  }));
  let block: Awaited<ReturnType<RpcClient['simulateBlocks']>>[number] | undefined;
  try {
    [block] = await client.simulateBlocks({ blocks: [{ calls }], traceTransfers: true, validation: false });
  } catch (error) {
    if (isUnsupported(error)) return { status: 'unsupported' };
    throw error;
  }
  if (!block || block.calls.length !== calls.length) return { status: 'unsupported' };
  const offset = nativeOut ? 0 : 1;
  const results = block.calls.slice(offset, offset + txs.length);
  let gasUsed = 0n;
  for (const [i, result] of results.entries()) {
    if (result.status !== 'success') {
      const call = i === txs.length - 1 ? 'swap' : 'approval';
      return { status: 'reverted', call, revert: decodeRevert(result.data) };
    }
    gasUsed += result.gasUsed;
  }
  let received: bigint | null = null;
  if (nativeOut) {
    const logs = results.flatMap((result) => result.logs ?? []);
    const traced = logs.some((log) => sameAddress(log.address, NATIVE_TOKEN_ADDRESS));
    if (traced) received = receivedFromLogs(logs, { outToken: input.outToken, recipient: input.from }) ?? 0n;
  } else {
    const before = uintOf(block.calls[0]);
    const after = uintOf(block.calls.at(-1));
    if (before !== null && after !== null) received = after - before;
  }
  if (received !== null && received < input.minReceived) {
    return { status: 'output-low', received, minReceived: input.minReceived };
  }
  return { status: 'passed', gasUsed, received };
}

function uintOf(result: { status: string; data: Hex } | undefined): bigint | null {
  if (result?.status !== 'success' || result.data.length !== 66) return null;
  return BigInt(result.data);
}

export type SimulationResult =
  | { ok: true; gasEstimate: bigint; gasLimit: bigint; received: bigint | null }
  | { ok: false; kind: 'reverted'; revert: RevertReason }
  | { ok: false; kind: 'output-low'; received: bigint; minReceived: bigint };

/**
 * eth_call at the latest block and a gas estimate, from the user's account. The router's `swap`
 * returns what it paid: when the answer decodes as that, it must be >= minReceived.
 */
export async function simulateSwap(
  client: RpcClient,
  input: { from: Address; swap: Call; minReceived: bigint; gasMarginPercent?: number },
): Promise<SimulationResult> {
  const request = {
    account: input.from,
    to: input.swap.to,
    data: input.swap.data,
    value: input.swap.value ?? 0n,
  };
  let output: Hex | undefined;
  let gasEstimate: bigint;
  try {
    output = (await client.call({ ...request, blockTag: 'latest' })).data;
    gasEstimate = await client.estimateGas(request);
  } catch (error) {
    const revert = revertOf(error);
    if (revert) return { ok: false, kind: 'reverted', revert };
    throw error;
  }
  let received: bigint | null = null;
  if (output && output.length === 66) {
    try {
      received = decodeFunctionResult({ abi: ROUTER_SWAP_ABI, functionName: 'swap', data: output });
    } catch {
      received = null;
    }
  }
  if (received !== null && received < input.minReceived) {
    return { ok: false, kind: 'output-low', received, minReceived: input.minReceived };
  }
  return { ok: true, gasEstimate, gasLimit: withGasMargin(gasEstimate, input.gasMarginPercent), received };
}

/** The RPC does not offer eth_simulateV1 (method not found / not supported / disabled). */
function isUnsupported(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (isRpcUnavailable(error)) return false;
  const coded = error.walk((e) => {
    const code = (e as { code?: unknown }).code;
    return code === -32601 || code === -32004;
  });
  if (coded) return true;
  return /method .*(not found|not supported|does not exist|not available)|unknown method|unsupported method/i.test(
    `${error.shortMessage} ${error.details ?? ''}`,
  );
}
