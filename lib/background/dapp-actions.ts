// The approval window's content for a transaction, and what an approved request does: the
// transaction simulated from the user's account (eth_simulateV1 with transfer tracing, as the
// swap preflight does) for balance changes and approvals, gas estimated with the swap margin, fees
// from the wallet's estimate under the cap; then signed and broadcast with the swap pipeline's
// signer (lib/wallet/transactions.ts).
import { type Address, erc20Abi, type Hex, type LocalAccount } from 'viem';
import { NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import type { ApprovalDetail } from '@/lib/dapp/approval';
import { DappRpcError, RPC_ERROR } from '@/lib/dapp/errors';
import {
  balanceChanges,
  chooseFees,
  type DappCall,
  type FeeChoice,
  grantedApprovals,
} from '@/lib/dapp/transaction';
import { feeCaps, readFeeHistory } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { broadcast, estimateFees, SendError, signCall, withGasMargin } from '@/lib/rpc/transactions';
import { decodeRevert, revertOf } from '@/lib/swap/simulate';

export interface PreparedTransaction {
  detail: Extract<ApprovalDetail, { kind: 'transaction' }>;
  call: DappCall & { gas: bigint };
  fees: FeeChoice;
}

type TokenInfo = { symbol: string | null; decimals: number | null };

async function tokenInfo(client: RpcClient, chainId: number, token: string): Promise<TokenInfo> {
  if (sameAddress(token, NATIVE_TOKEN_ADDRESS)) {
    return { symbol: getChain(chainId)?.nativeSymbol ?? 'ETH', decimals: 18 };
  }
  const read = <T>(functionName: 'symbol' | 'decimals') =>
    client
      .readContract({ address: token as Address, abi: erc20Abi, functionName })
      .then((value) => value as T)
      .catch(() => null);
  const [symbol, decimals] = await Promise.all([read<string>('symbol'), read<number>('decimals')]);
  // A token names itself: its symbol is shown as the token's claim next to its address, bounded.
  return {
    symbol: typeof symbol === 'string' ? symbol.slice(0, 12) : null,
    decimals: typeof decimals === 'number' ? decimals : null,
  };
}

type SimOutcome =
  | { status: 'ok'; logs: { address: Address; topics: Hex[]; data: Hex }[] }
  | { status: 'reverted'; reason: string }
  | { status: 'unavailable' };

async function simulate(client: RpcClient, call: DappCall): Promise<SimOutcome> {
  try {
    const [block] = await client.simulateBlocks({
      blocks: [
        { calls: [{ account: call.from, to: call.to ?? undefined, data: call.data, value: call.value }] },
      ],
      traceTransfers: true,
      validation: false,
    } as Parameters<RpcClient['simulateBlocks']>[0]);
    const result = block?.calls[0];
    if (!result) return { status: 'unavailable' };
    if (result.status !== 'success') return { status: 'reverted', reason: decodeRevert(result.data).text };
    return { status: 'ok', logs: (result.logs ?? []) as { address: Address; topics: Hex[]; data: Hex }[] };
  } catch {
    return { status: 'unavailable' };
  }
}

export async function prepareTransaction(
  client: RpcClient,
  chainId: number,
  call: DappCall,
): Promise<PreparedTransaction> {
  const warnings: { code: string; message: string }[] = [];
  const sim = await simulate(client, call);
  let estimate: bigint | null = null;
  let revertReason = sim.status === 'reverted' ? sim.reason : null;
  try {
    estimate = await client.estimateGas({
      account: call.from,
      ...(call.to ? { to: call.to } : {}),
      data: call.data,
      value: call.value,
    });
  } catch (error) {
    const revert = revertOf(error);
    revertReason ??= revert?.text ?? 'the node could not estimate gas';
  }
  const gas =
    estimate === null
      ? (call.gas ?? 0n)
      : call.gas && call.gas > estimate
        ? call.gas
        : withGasMargin(estimate);
  if (revertReason !== null) {
    warnings.push({ code: 'WILL_REVERT', message: `This transaction is expected to fail: ${revertReason}.` });
  }
  if (gas === 0n)
    throw new DappRpcError(
      RPC_ERROR.invalidInput,
      'The transaction cannot be estimated and names no gas limit.',
    );
  const [suggested, history] = await Promise.all([estimateFees(client), readFeeHistory(client)]);
  if (history.baseFees.length === 0) {
    throw new DappRpcError(RPC_ERROR.internal, 'The network gave no fee history to check the fee against.');
  }
  const fees = chooseFees(call.fees, suggested, feeCaps(history));
  if (fees.capped) {
    warnings.push({
      code: 'FEE_CAPPED',
      message:
        'The fee asked for is above what this network has recently needed; Swaplane lowers it to its cap.',
    });
  }
  if (sim.status === 'unavailable') {
    warnings.push({
      code: 'NOT_SIMULATED',
      message: 'The balance changes could not be simulated on this network.',
    });
  }
  const logs = sim.status === 'ok' ? sim.logs : [];
  const changes = balanceChanges(logs, call.from);
  // Without traced native transfers, the value sent is still a known outflow.
  if (call.value > 0n && !changes.some((change) => sameAddress(change.token, NATIVE_TOKEN_ADDRESS))) {
    changes.push({ token: NATIVE_TOKEN_ADDRESS, delta: -call.value });
  }
  const approvals = grantedApprovals(logs, call.from);
  const tokens = new Set([...changes.map((c) => c.token), ...approvals.map((a) => a.token)]);
  const infos = new Map(
    await Promise.all(
      [...tokens].map(async (token) => [token, await tokenInfo(client, chainId, token)] as const),
    ),
  );
  const info = (token: string) => infos.get(token) ?? { symbol: null, decimals: null };
  if (approvals.some((approval) => approval.amount >= 2n ** 255n)) {
    warnings.push({ code: 'UNLIMITED_APPROVAL', message: 'This grants an unlimited allowance of a token.' });
  }
  return {
    call: { ...call, gas },
    fees,
    detail: {
      kind: 'transaction',
      account: call.from,
      chainId,
      to: call.to,
      value: call.value.toString(),
      data: call.data,
      gasLimit: gas.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      maxNetworkFee: (gas * fees.maxFeePerGas).toString(),
      nativeSymbol: getChain(chainId)?.nativeSymbol ?? 'ETH',
      simulation: sim.status === 'unavailable' ? 'unavailable' : revertReason !== null ? 'reverted' : 'ok',
      revertReason,
      changes: changes.map((change) => ({
        token: change.token,
        ...info(change.token),
        amount: change.delta.toString(),
      })),
      approvals: approvals.map((approval) => ({
        token: approval.token,
        ...info(approval.token),
        spender: approval.spender,
        amount: approval.amount.toString(),
      })),
      warnings,
    },
  };
}

/** Signs and broadcasts the approved transaction; the page gets its hash. */
export async function sendPrepared(
  client: RpcClient,
  signer: LocalAccount,
  prepared: PreparedTransaction,
): Promise<Hex> {
  if (!sameAddress(signer.address, prepared.call.from)) {
    throw new DappRpcError(
      RPC_ERROR.unauthorized,
      'The active account is not the one this site asked to send from.',
    );
  }
  if (prepared.call.to === null) {
    throw new DappRpcError(RPC_ERROR.unsupportedMethod, 'Swaplane does not deploy contracts for sites.');
  }
  const signed = await signCall(
    client,
    signer,
    { to: prepared.call.to, data: prepared.call.data, value: prepared.call.value, gas: prepared.call.gas },
    prepared.fees,
  );
  try {
    await broadcast(client, signed.raw);
  } catch (error) {
    const code = error instanceof SendError ? error.code : 'REJECTED';
    throw new DappRpcError(
      RPC_ERROR.invalidInput,
      `The network refused the transaction (${code.toLowerCase().replace(/_/g, ' ')}).`,
    );
  }
  return signed.hash;
}
