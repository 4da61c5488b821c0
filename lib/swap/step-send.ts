// Swap steps that put transactions on the chain: sign and send (approvals and the swap), follow a
// sent transaction to its receipt, and the approvals themselves (step 5).
import type { Address, Hex, LocalAccount, TransactionReceipt } from 'viem';
import { explorerTxUrl } from '@/lib/chains';
import type { FeeCeiling } from '@/lib/rpc/fee-ceiling';
import { cappedFees } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { isRpcUnavailable } from '@/lib/rpc/network';
import {
  broadcast,
  type Fees,
  SendError,
  signCall,
  type TrackResult,
  withGasMargin,
} from '@/lib/rpc/transactions';
import type { ApprovalTxState, SentTx, SwapFailureCode, SwapStep } from '@/lib/state/pipeline-state';
import { checkAbort, Halt, SwapFailure } from './failure';
import { gasLimitFor, planRefusal } from './funnel';
import type { ApprovalCalls } from './step-preflight';
import type { Ledger } from './swap-ledger';

/** Follows a sent transaction (approval or swap) until mined, dropped or the signal aborts. */
export type Follow = (
  tx: { hash: string; nonce: number; raw: string },
  from: Address,
  signal?: AbortSignal,
) => Promise<TrackResult>;

const SEND_FAILURES: Readonly<Record<SendError['code'], SwapFailureCode>> = {
  NONCE_CONFLICT: 'NONCE_CONFLICT',
  REPLACEMENT_UNDERPRICED: 'REPLACEMENT_UNDERPRICED',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_GAS_FUNDS',
  RPC_UNAVAILABLE: 'RPC_UNAVAILABLE',
  REJECTED: 'SEND_FAILED',
};

export function gasPaidOf(receipt: TransactionReceipt): bigint {
  return receipt.gasUsed * receipt.effectiveGasPrice;
}

/** What the funnel checks a swap's own transaction against: its simulated gas and the fee ceiling. */
export interface SignGuard {
  kind: 'swap' | 'approval';
  gasUsed: bigint;
  ceiling: FeeCeiling;
}

/** Signs, persists the hash and bytes, then broadcasts: a restart in between loses nothing. */
export async function signAndSend({
  client,
  ledger,
  account,
  call,
  fees,
  step,
  persistSigned,
  guard,
}: {
  client: RpcClient;
  ledger: Ledger;
  account: LocalAccount;
  call: { to: Address; data: Hex; value: bigint; gas: bigint };
  fees: Fees;
  step: SwapStep;
  /** Records the signed bytes before they are broadcast. */
  persistSigned: (tx: SentTx) => Promise<void>;
  guard: SignGuard;
}): Promise<SentTx> {
  // The funnel's caps, as for every transaction Swaplane signs: gas vs the simulation, fees vs the ceiling.
  const refused = planRefusal(
    {
      ...call,
      kind: guard.kind,
      chainId: ledger.current().chainId,
      from: account.address,
      gasUsed: guard.gasUsed,
      fees,
    },
    guard.ceiling,
  );
  if (refused)
    throw new SwapFailure({
      code: refused.code === 'FEE_ABOVE_CEILING' ? 'FEE_ABOVE_CEILING' : 'GAS_ABOVE_SIMULATION',
      step: step,
      detail: refused.message,
    });
  const signed = await signCall(client, account, call, fees);
  const tx: SentTx = {
    hash: signed.hash,
    nonce: signed.nonce,
    raw: signed.raw,
    gasLimit: call.gas.toString(),
    maxFeePerGas: fees.maxFeePerGas.toString(),
    explorerUrl: explorerTxUrl(ledger.current().chainId, signed.hash) ?? null,
    signedAt: ledger.now(),
    sentAt: null,
  };
  await persistSigned(tx);
  try {
    await broadcast(client, signed.raw);
  } catch (error) {
    // No answer is not a refusal: the node may have the transaction (a cut or late answer).
    // Never say "nothing sent" then: track it by hash; the tracker re-broadcasts these same
    // bytes (same nonce, so at most one of them can ever be mined) while the node lacks it.
    if (error instanceof SendError && error.code === 'RPC_UNAVAILABLE')
      return { ...tx, sentAt: ledger.now() };
    if (error instanceof SendError) {
      const code = SEND_FAILURES[error.code];
      throw new SwapFailure({ code: code, step: step, detail: error.message });
    }
    throw error;
  }
  return { ...tx, sentAt: ledger.now() };
}

/** Step 7: signs and sends the swap itself, then records it as sent. */
export async function sendSwap(params: {
  client: RpcClient;
  ledger: Ledger;
  account: LocalAccount;
  call: { to: Address; data: Hex; value: bigint; gas: bigint };
  fees: Fees;
  guard: SignGuard;
}): Promise<void> {
  const { ledger } = params;
  await ledger.moveTo('signing');
  const sent = await signAndSend({
    ...params,
    step: 'send',
    persistSigned: (tx) => ledger.update({ tx }).then(() => undefined),
  });
  const sentState = await ledger.moveTo('sent', { tx: sent });
  await ledger.recordSwap(sentState);
}

async function setApprovalTx(ledger: Ledger, tx: ApprovalTxState): Promise<void> {
  const approval = ledger.current().approval;
  if (!approval) return;
  const txs = approval.txs.filter((t) => t.step !== tx.step);
  await ledger.update({ approval: { ...approval, txs: [...txs, tx] } });
}

/** Step 5: each approval signed, sent and followed to its receipt, in order. */
export async function approve({
  client,
  ledger,
  follow,
  account,
  calls,
  gasMarginPercent,
  signal,
  ceiling,
}: {
  client: RpcClient;
  ledger: Ledger;
  follow: Follow;
  account: LocalAccount;
  calls: ApprovalCalls;
  gasMarginPercent: number;
  signal?: AbortSignal | undefined;
  ceiling: FeeCeiling;
}): Promise<void> {
  await ledger.moveTo('approving');
  for (const call of calls) {
    checkAbort(signal, 'approve');
    let gas: bigint;
    let gasUsed: bigint;
    try {
      gasUsed = await client.estimateGas({ account: account.address, to: call.to, data: call.data });
      // An approve never needs more than the funnel's bound, whatever the RPC estimates.
      gas = withGasMargin(gasUsed, gasMarginPercent);
      const bounded = gasLimitFor('approval', gasUsed);
      if (bounded.capped) gas = bounded.gas;
      if (gasUsed > gas) gasUsed = gas;
    } catch (error) {
      if (isRpcUnavailable(error)) throw error;
      throw new SwapFailure({ code: 'APPROVAL_FAILED', step: 'approve', detail: String(error) });
    }
    const fees = await cappedFees(client, ceiling);
    const amount = call.amount.toString();
    const sent = await signAndSend({
      client,
      ledger,
      account,
      call: { ...call, value: 0n, gas },
      fees,
      step: 'approve',
      persistSigned: (tx) =>
        setApprovalTx(ledger, { ...tx, step: call.step, amount, status: 'pending', gasPaid: null }),
      guard: { kind: 'approval', gasUsed, ceiling },
    });
    const pending: ApprovalTxState = { ...sent, step: call.step, amount, status: 'pending', gasPaid: null };
    await setApprovalTx(ledger, pending);
    await ledger.recordApproval(ledger.current(), pending);
    await finishApproval({ ledger, follow, tx: pending, from: account.address, signal });
  }
}

/** Waits for an approval's receipt and records it; a revert or a drop stops the swap. */
export async function finishApproval({
  ledger,
  follow,
  tx,
  from,
  signal,
}: {
  ledger: Ledger;
  follow: Follow;
  tx: ApprovalTxState;
  from: Address;
  signal?: AbortSignal | undefined;
}): Promise<void> {
  const result = await follow(tx, from, signal);
  // Stop following, not cancel: the approval is out there. The state stays 'approving' (persisted)
  // and a resume finishes it.
  if (result.kind === 'aborted') throw new Halt();
  const gasPaid = result.kind === 'mined' ? gasPaidOf(result.receipt).toString() : null;
  const ok = result.kind === 'mined' && result.receipt.status === 'success';
  const done: ApprovalTxState = { ...tx, status: ok ? 'confirmed' : 'failed', gasPaid };
  await setApprovalTx(ledger, done);
  await ledger.recordApproval(ledger.current(), done);
  if (!ok) {
    throw new SwapFailure({
      code: 'APPROVAL_FAILED',
      step: 'approve',
      detail: result.kind === 'dropped' ? 'approval dropped' : 'approval reverted',
    });
  }
}
