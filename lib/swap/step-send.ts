// Swap steps that put transactions on the chain: sign and send (approvals and the swap), follow a
// sent transaction to its receipt, and the approvals themselves (step 5).
import type { Address, LocalAccount, TransactionReceipt } from 'viem';
import { bigMin } from '@/lib/amounts/min-max';
import { explorerTxUrl } from '@/lib/chains';
import type { FeeCeiling } from '@/lib/rpc/fee-ceiling';
import { cappedFees } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { isRpcUnavailable } from '@/lib/rpc/network';
import { broadcast, SendError, type SignedTx, type TrackResult, withGasMargin } from '@/lib/rpc/transactions';
import type { ApprovalTxState, SentTx, SwapFailureCode, SwapStep } from '@/lib/state/pipeline-state';
import { checkAbort, Halt, SwapFailure } from './failure';
import {
  FunnelError,
  gasLimitFor,
  type ReviewedPlan,
  type SigningFunnel,
  type TransactionPlan,
} from './funnel';
import type { ApprovalCalls } from './step-preflight';
import type { Ledger } from './swap-ledger';

/**
 * Follows a sent transaction (approval or swap) until mined, dropped or the signal aborts; its
 * signed bytes, when given, are re-broadcast while the node lacks it.
 */
export type Follow = (
  tx: { hash: string; nonce: number; raw?: string | undefined },
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

/**
 * How a swap's transactions are signed: through the signing funnel (its caps, the account and
 * chain checks), with the trust-checked signer. No step signs otherwise.
 */
export interface FunnelSigning {
  funnel: SigningFunnel;
  /** The trust-checked signer of the account (a broken seal throws there). */
  signer: () => Promise<LocalAccount>;
  /** The swap review's ticket, taken at Confirm: the plan of the call the user reviewed. */
  reviewed?: ReviewedPlan | undefined;
}

/**
 * Signs a plan in the funnel. The reviewed swap call is signed on its ticket, its fee per gas never
 * above what the review showed; an approval, or a swap rebuilt at Confirm, under the review.
 */
function signInFunnel(client: RpcClient, signing: FunnelSigning, plan: TransactionPlan): Promise<SignedTx> {
  const reviewed = signing.reviewed;
  const sameCall =
    reviewed !== undefined &&
    plan.kind === 'swap' &&
    reviewed.plan.to?.toLowerCase() === plan.to?.toLowerCase() &&
    reviewed.plan.data === plan.data &&
    reviewed.plan.value === plan.value;
  if (!sameCall) return signing.funnel.signUnder({ plan, client, signer: signing.signer });
  const shown = reviewed.plan.fees;
  const fees = {
    maxFeePerGas: bigMin(plan.fees.maxFeePerGas, shown.maxFeePerGas),
    maxPriorityFeePerGas: bigMin(plan.fees.maxPriorityFeePerGas, shown.maxPriorityFeePerGas),
  };
  return signing.funnel.sign({
    reviewed: { ...reviewed, plan: { ...plan, fees } },
    client,
    signer: signing.signer,
  });
}

/** Signs in the funnel, persists the hash and bytes, then broadcasts: a restart in between loses nothing. */
export async function signAndSend({
  client,
  ledger,
  plan,
  signing,
  step,
  persistSigned,
}: {
  client: RpcClient;
  ledger: Ledger;
  /** What to sign, from checked state: the call, its gas and simulated gas, capped fees. */
  plan: TransactionPlan;
  signing: FunnelSigning;
  step: SwapStep;
  /** Records the signed bytes before they are broadcast. */
  persistSigned: (tx: SentTx) => Promise<void>;
}): Promise<SentTx> {
  let signed: SignedTx;
  try {
    signed = await signInFunnel(client, signing, plan);
  } catch (error) {
    // The funnel's caps refuse with their own codes; anything else is the step's failure.
    if (
      error instanceof FunnelError &&
      (error.code === 'FEE_ABOVE_CEILING' || error.code === 'GAS_ABOVE_SIMULATION')
    )
      throw new SwapFailure({ code: error.code, step, detail: error.message });
    if (error instanceof FunnelError && error.code === 'RPC_WRONG_CHAIN')
      throw new SwapFailure({ code: 'RPC_WRONG_CHAIN', step, detail: error.message });
    throw error;
  }
  const tx: SentTx = {
    hash: signed.hash,
    nonce: signed.nonce,
    raw: signed.raw,
    gasLimit: signed.gas.toString(),
    maxFeePerGas: signed.fees.maxFeePerGas.toString(),
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
  plan: TransactionPlan;
  signing: FunnelSigning;
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
  from,
  calls,
  gasMarginPercent,
  signal,
  signing,
  ceiling,
}: {
  client: RpcClient;
  ledger: Ledger;
  follow: Follow;
  from: Address;
  calls: ApprovalCalls;
  gasMarginPercent: number;
  signal?: AbortSignal | undefined;
  signing: FunnelSigning;
  ceiling: FeeCeiling;
}): Promise<void> {
  await ledger.moveTo('approving');
  for (const call of calls) {
    checkAbort(signal, 'approve');
    let gas: bigint;
    let gasUsed: bigint;
    try {
      gasUsed = await client.estimateGas({ account: from, to: call.to, data: call.data });
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
    const chainId = ledger.current().chainId;
    const plan: TransactionPlan = {
      kind: 'approval',
      chainId,
      from,
      to: call.to,
      data: call.data,
      value: 0n,
      gas,
      gasUsed,
      fees,
    };
    const sent = await signAndSend({
      ...{ client, ledger, plan, signing, step: 'approve' },
      persistSigned: (tx) =>
        setApprovalTx(ledger, { ...tx, step: call.step, amount, status: 'pending', gasPaid: null }),
    });
    const pending: ApprovalTxState = { ...sent, step: call.step, amount, status: 'pending', gasPaid: null };
    await setApprovalTx(ledger, pending);
    await ledger.recordApproval(ledger.current(), pending);
    await finishApproval({ ledger, follow, tx: pending, from, signal });
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
