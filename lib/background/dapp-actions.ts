// The approval window's content for a transaction: the transaction simulated from the user's
// account (eth_simulateV1 with transfer tracing, as the swap preflight does) for balance changes
// and approvals, its gas limit held to the funnel's margin over the simulation's gas used, fees
// from the wallet's estimate under the caps and the chain's ceiling. An approval signs it through
// the funnel (./dapp-send.ts).
import { type Address, erc20Abi, getAddress, type Hex } from 'viem';
import { NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import type { ApprovalDetail } from '@/lib/dapp/approval';
import { decodeCall } from '@/lib/dapp/calls';
import { DappRpcError, invalidParams, RPC_ERROR } from '@/lib/dapp/errors';
import { nftApprovals, nftChanges } from '@/lib/dapp/nft-logs';
import {
  balanceChanges,
  chooseFees,
  type DappCall,
  type FeeChoice,
  grantedApprovals,
} from '@/lib/dapp/transaction';
import { transactionWarnings, UNLIMITED_ERC20 } from '@/lib/dapp/tx-warnings';
import { applyCeiling, type FeeCeiling, FeeCeilingError } from '@/lib/rpc/fee-ceiling';
import { feeCaps, readFeeHistory } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { estimateFees, withGasMargin } from '@/lib/rpc/transactions';
import { gasLimitFor } from '@/lib/swap/funnel';
import { decodeRevert, isUnsupported, revertOf } from '@/lib/swap/simulate';
import { recipientHistory } from './dapp-recipients';

export interface PreparedTransaction {
  detail: Extract<ApprovalDetail, { kind: 'transaction' }>;
  /** `gas` is the limit signed: no more than the funnel allows over `gasUsed`. */
  call: DappCall & { gas: bigint };
  /** What the simulation used (eth_simulateV1; else the node's estimate): the funnel's gas basis. */
  gasUsed: bigint;
  /** Capped against the fee history, then the chain's ceiling; `baseFee` for the expected fee. */
  fees: FeeChoice & { baseFee: bigint };
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

type SimLog = { address: Address; topics: Hex[]; data: Hex };
type SimOutcome =
  | { status: 'ok'; logs: SimLog[]; gasUsed: bigint }
  | { status: 'reverted'; reason: string; gasUsed?: bigint }
  | { status: 'unavailable' };

/**
 * eth_simulateV1 of the transaction exactly as it would be signed: the real nonce, gas limit and
 * capped fees, with `validation: true` (so the node charges gas and checks the balance). A
 * simulation at gas price 0 could be fooled by a contract that behaves differently then.
 */
async function simulate(
  client: RpcClient,
  call: DappCall & { gas: bigint },
  fees: FeeChoice,
  nonce: number,
): Promise<SimOutcome> {
  try {
    const [block] = await client.simulateBlocks({
      blocks: [
        {
          calls: [
            {
              account: call.from,
              to: call.to ?? undefined,
              data: call.data,
              value: call.value,
              gas: call.gas,
              ...(call.accessList ? { accessList: call.accessList } : {}),
              nonce,
              maxFeePerGas: fees.maxFeePerGas,
              maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
            },
          ],
        },
      ],
      traceTransfers: true,
      validation: true,
    } as Parameters<RpcClient['simulateBlocks']>[0]);
    const result = block?.calls[0];
    if (!result) return { status: 'unavailable' };
    if (result.status !== 'success')
      return { status: 'reverted', reason: decodeRevert(result.data).text, gasUsed: result.gasUsed };
    return { status: 'ok', logs: (result.logs ?? []) as SimLog[], gasUsed: result.gasUsed };
  } catch (error) {
    if (isUnsupported(error)) return { status: 'unavailable' };
    // The node refused the transaction itself (funds for value + fee, nonce): it would fail too.
    const revert = revertOf(error);
    return { status: 'reverted', reason: revert?.text ?? 'the network would refuse it' };
  }
}

/** What the user is shown as the transaction's effect: compared again at Confirm. */
export function outcomeKey(detail: PreparedTransaction['detail']): string {
  return JSON.stringify([
    detail.simulation,
    detail.changes.map((c) => [c.token, c.amount]),
    detail.approvals.map((a) => [a.token, a.spender, a.amount]),
    detail.nfts,
    detail.nftApprovals,
  ]);
}

async function estimate(
  client: RpcClient,
  call: DappCall,
): Promise<{ gas: bigint; estimated: bigint | null; revert: string | null }> {
  try {
    const estimate = await client.estimateGas({
      account: call.from,
      ...(call.to ? { to: call.to } : {}),
      data: call.data,
      value: call.value,
      ...(call.accessList ? { accessList: call.accessList } : {}),
    });
    const gas = call.gas && call.gas > estimate ? call.gas : withGasMargin(estimate);
    return { gas, estimated: estimate, revert: null };
  } catch (error) {
    const revert = revertOf(error)?.text ?? 'the node could not estimate gas';
    return { gas: call.gas ?? 0n, estimated: null, revert };
  }
}

/** The chain's fees under the history's caps and then the user's ceiling (a base fee above it refuses). */
function dappFees(
  site: DappCall['fees'],
  suggested: Awaited<ReturnType<typeof estimateFees>>,
  caps: ReturnType<typeof feeCaps>,
  ceiling: FeeCeiling,
): PreparedTransaction['fees'] {
  const chosen = chooseFees(site, suggested, caps);
  try {
    return applyCeiling({ ...chosen, baseFee: caps.baseFee }, ceiling);
  } catch (error) {
    if (error instanceof FeeCeilingError)
      throw new DappRpcError(RPC_ERROR.transactionRejected, error.message);
    throw error;
  }
}

export async function prepareTransaction(
  client: RpcClient,
  chainId: number,
  call: DappCall,
  ceiling: FeeCeiling,
  /** Swaplane's sealed record: did this account send to `to` before (lib/background/dapp-recipients.ts)? */
  sentBefore: (to: string) => Promise<boolean> = async () => false,
): Promise<PreparedTransaction> {
  const { gas, estimated, revert } = await estimate(client, call);
  if (gas === 0n)
    throw new DappRpcError(
      RPC_ERROR.invalidInput,
      'The transaction cannot be estimated and names no gas limit.',
    );
  const [suggested, history, nonce, code, recorded] = await Promise.all([
    estimateFees(client),
    readFeeHistory(client),
    client.getTransactionCount({ address: call.from, blockTag: 'pending' }),
    call.to
      ? (client.request({ method: 'eth_getCode', params: [call.to, 'latest'] }) as Promise<Hex>).catch(
          () => undefined,
        )
      : Promise.resolve(undefined),
    call.to ? sentBefore(call.to).catch(() => false) : Promise.resolve(false),
  ]);
  if (history.baseFees.length === 0) {
    throw new DappRpcError(RPC_ERROR.internal, 'The network gave no fee history to check the fee against.');
  }
  // Sending with another nonce than the page named would turn its replacement (a speed-up, a
  // cancel) into a second transaction: refused, so the page learns it and nothing is sent twice.
  if (call.nonce !== undefined && call.nonce !== BigInt(nonce)) {
    throw invalidParams(
      `nonce ${call.nonce} is not this account's next nonce (${nonce}): Swaplane does not replace or queue transactions`,
    );
  }
  const fees = dappFees(call.fees, suggested, feeCaps(history), ceiling);
  let sim = await simulate(client, { ...call, gas }, fees, nonce);
  // The limit signed is held to the funnel's margin over what the simulation itself used; when
  // that lowers it, the outcome shown is the one simulated at the lower limit.
  const gasUsed = sim.status === 'unavailable' ? (estimated ?? gas) : (sim.gasUsed ?? estimated ?? gas);
  const allowed = gasLimitFor('dapp', gasUsed).gas;
  const lowered = gas > allowed;
  const prepared = { ...call, gas: lowered ? allowed : gas };
  if (lowered && sim.status !== 'unavailable') sim = await simulate(client, prepared, fees, nonce);
  const described = await describeTransaction(client, chainId, prepared, fees, sim, revert, code);
  const detail = call.to ? { ...described, recipientHistory: recipientHistory(nonce, recorded) } : described;
  return { call: prepared, gasUsed, fees, detail };
}

/** Re-simulates at Confirm: the outcome shown must still be the outcome, or nothing is signed. */
export async function checkOutcomeUnchanged(
  client: RpcClient,
  chainId: number,
  prepared: PreparedTransaction,
): Promise<void> {
  const nonce = await client.getTransactionCount({ address: prepared.call.from, blockTag: 'pending' });
  // The page's nonce was the account's next when the window opened; if another transaction took it
  // meanwhile (one sent from the popup, a speed-up), signing it would replace that one: refused.
  const asked = prepared.call.nonce;
  if (asked !== undefined && asked !== BigInt(nonce)) {
    throw new DappRpcError(
      RPC_ERROR.transactionRejected,
      `The site set nonce ${asked}, but this account's next nonce is now ${nonce}: another transaction was sent since you reviewed this one. Nothing was signed or sent; ask the site to send it again.`,
    );
  }
  const sim = await simulate(client, prepared.call, prepared.fees, nonce);
  const again = await describeTransaction(
    client,
    chainId,
    prepared.call,
    prepared.fees,
    sim,
    sim.status === 'reverted' ? sim.reason : null,
    undefined,
  );
  if (outcomeKey(again) !== outcomeKey(prepared.detail)) {
    throw new DappRpcError(
      RPC_ERROR.transactionRejected,
      'The transaction would now do something else than what you reviewed, so Swaplane did not send it. Ask the site to send it again and review it anew.',
    );
  }
}

async function describeTransaction(
  client: RpcClient,
  chainId: number,
  call: DappCall & { gas: bigint },
  fees: FeeChoice,
  sim: SimOutcome,
  estimateRevert: string | null,
  code: Hex | undefined,
): Promise<PreparedTransaction['detail']> {
  const revertReason = sim.status === 'reverted' ? sim.reason : estimateRevert;
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
  // A creation's data is the contract's code, not a call: nothing to decode.
  const decodedCall = call.to === null ? null : decodeCall(call.data);
  const recipientKind = call.to === null ? null : code && code !== '0x' ? 'contract' : 'account';
  const nfts = nftChanges(logs, call.from);
  const nftGrants = nftApprovals(logs, call.from);
  const warnings = transactionWarnings({
    call,
    revertReason,
    capped: fees.capped,
    simulated: sim.status !== 'unavailable',
    unlimited: approvals.some((approval) => approval.amount >= UNLIMITED_ERC20),
    decodedCall,
    recipientKind,
    nftApprovals: nftGrants,
  });
  return {
    kind: 'transaction',
    account: getAddress(call.from),
    chainId,
    to: call.to === null ? null : getAddress(call.to),
    value: call.value.toString(),
    data: call.data,
    gasLimit: call.gas.toString(),
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    maxNetworkFee: (call.gas * fees.maxFeePerGas).toString(),
    nativeSymbol: getChain(chainId)?.nativeSymbol ?? 'ETH',
    simulation: sim.status === 'unavailable' ? 'unavailable' : revertReason !== null ? 'reverted' : 'ok',
    revertReason,
    // Shown checksummed (EIP-55), as every other address in the window; looked up as traced.
    changes: changes.map((change) => ({
      token: getAddress(change.token),
      ...info(change.token),
      amount: change.delta.toString(),
    })),
    approvals: approvals.map((approval) => ({
      token: getAddress(approval.token),
      ...info(approval.token),
      spender: getAddress(approval.spender),
      amount: approval.amount.toString(),
    })),
    call: decodedCall,
    ...(call.accessList
      ? {
          accessList: call.accessList.map((entry) => ({
            address: getAddress(entry.address),
            storageKeys: [...entry.storageKeys],
          })),
        }
      : {}),
    recipientKind,
    nfts,
    nftApprovals: nftGrants,
    warnings,
  };
}
