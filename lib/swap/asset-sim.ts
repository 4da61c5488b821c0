// The simulation that decides whether a swap may be signed (SECURITY.md, "Simulation"):
// eth_simulateV1 of [approvals..., swap] with the real sender, nonce and fee fields
// (validation: true, so a router that behaves differently at gas price 0 is seen as it will run)
// and traced transfers (native moves appear as Transfer logs of 0xeeee…). From the logs:
//   - the input token (or native coin) leaves the account by at most the quoted amount;
//   - the output token arrives by at least minReceived;
//   - no other asset of the account decreases;
//   - no approval is granted to anyone but the checked router.
import { type Address, decodeEventLog, erc20Abi, type Hex } from 'viem';
import { bigMax } from '@/lib/amounts/min-max';
import { isNativeToken, NATIVE_TOKEN_ADDRESS, type Quote, sameAddress } from '@/lib/api/schema';
import type { RpcClient } from '@/lib/rpc/network';
import type { Fees } from '@/lib/rpc/transactions';
import type { RevertReason } from '@/lib/state/pipeline-state';
import { swapGasEstimate } from './network-fee';
import { decodeRevert, isUnsupported } from './simulate';

export interface SimCall {
  to: Address;
  data: Hex;
  value: bigint;
}

export interface AssetDelta {
  token: string; // lowercase; native as 0xeeee…
  delta: bigint;
}

export interface Granted {
  token: string;
  spender: string;
  amount: bigint;
}

export type AssetViolation =
  | { code: 'INPUT_OVERSPENT'; token: string; spent: bigint; quoted: bigint }
  | { code: 'OUTPUT_LOW'; received: bigint; minReceived: bigint }
  | { code: 'OTHER_ASSET_DECREASE'; token: string; delta: bigint }
  | { code: 'FOREIGN_APPROVAL'; token: string; spender: string; amount: bigint };

export type AssetSimResult =
  | { status: 'unsupported' }
  /** Validation refused it: the account cannot pay value + gas at these fees. */
  | { status: 'no-funds'; detail: string }
  | { status: 'reverted'; call: 'approval' | 'swap'; revert: RevertReason }
  | {
      status: 'passed' | 'violated';
      deltas: AssetDelta[];
      granted: Granted[];
      /** Gas used by each transaction, in order (approvals then the swap). */
      gasUsed: bigint[];
      violations: AssetViolation[];
    };

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
/** Gas each simulated transaction may use; validation checks the account can pay it at maxFeePerGas. */
export const SIM_GAS = 1_000_000n;

/**
 * Gas for the simulated swap: twice the route's estimate, at least SIM_GAS. A large trade split over
 * many pools needs more than a fixed limit, and running out of gas reads as a bare revert.
 */
export function simulationGas(route: Quote['bestRoute']): bigint {
  const doubled = swapGasEstimate(route) * 2n;
  return bigMax(doubled, SIM_GAS);
}

interface Log {
  address: string;
  topics: readonly Hex[];
  data: Hex;
}

/** Asset deltas and approvals of `owner` in logs (pure). */
export function readAssetLogs(
  logs: readonly Log[],
  owner: string,
): { deltas: AssetDelta[]; granted: Granted[] } {
  const deltas = new Map<string, bigint>();
  const granted: Granted[] = [];
  for (const log of logs) {
    const topic = log.topics[0]?.toLowerCase();
    if ((topic !== TRANSFER && topic !== APPROVAL) || log.topics.length !== 3) continue;
    let args: { from?: string; to?: string; owner?: string; spender?: string; value: bigint };
    try {
      args = decodeEventLog({
        abi: erc20Abi,
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data,
      }).args as typeof args;
    } catch {
      continue;
    }
    const token = log.address.toLowerCase();
    if (topic === APPROVAL) {
      if (args.owner && sameAddress(args.owner, owner) && args.spender) {
        granted.push({ token, spender: args.spender, amount: args.value });
      }
      continue;
    }
    let delta = 0n;
    if (args.from && sameAddress(args.from, owner)) delta -= args.value;
    if (args.to && sameAddress(args.to, owner)) delta += args.value;
    if (
      delta !== 0n ||
      (args.from && sameAddress(args.from, owner)) ||
      (args.to && sameAddress(args.to, owner))
    )
      deltas.set(token, (deltas.get(token) ?? 0n) + delta);
  }
  return { deltas: [...deltas].map(([token, delta]) => ({ token, delta })), granted };
}

/** The four rules above (pure). */
export function assetViolations(input: {
  deltas: readonly AssetDelta[];
  granted: readonly Granted[];
  inToken: string;
  outToken: string;
  inAmount: bigint;
  minReceived: bigint;
  router: string;
}): AssetViolation[] {
  const key = (t: string) => (isNativeToken(t) ? NATIVE_TOKEN_ADDRESS.toLowerCase() : t.toLowerCase());
  const inKey = key(input.inToken);
  const outKey = key(input.outToken);
  const violations: AssetViolation[] = [];
  const deltaOf = (token: string) => input.deltas.find((d) => d.token === token)?.delta ?? 0n;
  const spent = -deltaOf(inKey);
  if (spent > input.inAmount) {
    violations.push({ code: 'INPUT_OVERSPENT', token: inKey, spent, quoted: input.inAmount });
  }
  const received = deltaOf(outKey);
  if (received < input.minReceived) {
    violations.push({ code: 'OUTPUT_LOW', received, minReceived: input.minReceived });
  }
  for (const d of input.deltas) {
    if (d.token !== inKey && d.token !== outKey && d.delta < 0n) {
      violations.push({ code: 'OTHER_ASSET_DECREASE', token: d.token, delta: d.delta });
    }
  }
  for (const g of input.granted) {
    if (g.amount === 0n) continue; // a reset to zero takes nothing
    if (!sameAddress(g.spender, input.router) || g.token !== inKey) {
      violations.push({ code: 'FOREIGN_APPROVAL', token: g.token, spender: g.spender, amount: g.amount });
    }
  }
  return violations;
}

/**
 * The approvals (value 0) then the swap of `quote`, simulated from `from` with the real nonce and fee
 * fields; the swap gets the route's simulation gas, and every asset change is held to the quote.
 */
export async function simulateAssets(
  client: RpcClient,
  input: {
    from: Address;
    nonce: number;
    fees: Fees;
    approvals: readonly { to: Address; data: Hex }[];
    swap: SimCall;
    quote: Pick<Quote, 'inToken' | 'outToken' | 'inAmount' | 'minReceived' | 'bestRoute'>;
    router: string;
  },
): Promise<AssetSimResult> {
  const { quote } = input;
  const txs = [...input.approvals.map((call) => ({ ...call, value: 0n })), input.swap];
  const swapGas = simulationGas(quote.bestRoute);
  const calls = txs.map((call, i) => ({
    account: input.from,
    to: call.to,
    data: call.data,
    value: call.value,
    nonce: input.nonce + i,
    gas: i === txs.length - 1 ? swapGas : SIM_GAS,
    maxFeePerGas: input.fees.maxFeePerGas,
    maxPriorityFeePerGas: input.fees.maxPriorityFeePerGas,
  }));
  let block: Awaited<ReturnType<RpcClient['simulateBlocks']>>[number] | undefined;
  try {
    [block] = await client.simulateBlocks({ blocks: [{ calls }], traceTransfers: true, validation: true });
  } catch (error) {
    if (isUnsupported(error)) return { status: 'unsupported' };
    const text = error instanceof Error ? error.message : String(error);
    if (/insufficient funds|lack of funds|insufficient balance/i.test(text)) {
      return { status: 'no-funds', detail: text.slice(0, 300) };
    }
    throw error;
  }
  if (!block || block.calls.length !== calls.length) return { status: 'unsupported' };
  const gasUsed: bigint[] = [];
  const logs: Log[] = [];
  for (const [i, result] of block.calls.entries()) {
    if (result.status !== 'success') {
      return {
        status: 'reverted',
        call: i === txs.length - 1 ? 'swap' : 'approval',
        revert: decodeRevert(result.data),
      };
    }
    gasUsed.push(result.gasUsed);
    logs.push(...((result.logs ?? []) as Log[]));
  }
  const { deltas, granted } = readAssetLogs(logs, input.from);
  const violations = assetViolations({
    inToken: quote.inToken,
    outToken: quote.outToken,
    inAmount: BigInt(quote.inAmount),
    minReceived: BigInt(quote.minReceived),
    router: input.router,
    deltas,
    granted,
  });
  return { status: violations.length > 0 ? 'violated' : 'passed', deltas, granted, gasUsed, violations };
}
