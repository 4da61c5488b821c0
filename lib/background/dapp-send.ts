// A dapp's transaction through the one signing funnel (lib/swap/funnel.ts, plan kind 'dapp'): the
// window's transaction becomes a plan reviewed with the fee the window shows (caps, the chain's
// ceiling, gas against the simulation's own gas used), and an approval takes that review once,
// re-simulates, and signs exactly the plan. A second approval of the same review signs nothing.
import type { Hex, LocalAccount } from 'viem';
import { DappRpcError, RPC_ERROR } from '@/lib/dapp/errors';
import { FeeCeilingError } from '@/lib/rpc/fee-ceiling';
import { type FeeEstimate, feeEstimate } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { broadcast, SendError } from '@/lib/rpc/transactions';
import { FunnelError, type SigningFunnel, type TransactionPlan } from '@/lib/swap/funnel';
import { checkOutcomeUnchanged, type PreparedTransaction } from './dapp-actions';

/**
 * A waiting approval may sit for a while before the user answers: its review lives as long. The
 * fees are checked against the ceiling again at signing and the outcome is simulated again.
 */
export const DAPP_REVIEW_LIFETIME_MS = 60 * 60_000;

/** The funnel's and the ceiling's refusals as the page's EIP-1193 errors (same words). */
export function dappFunnelError(error: unknown): unknown {
  if (error instanceof FunnelError) {
    const code = error.code === 'WRONG_ACCOUNT' ? RPC_ERROR.unauthorized : RPC_ERROR.transactionRejected;
    return new DappRpcError(code, error.message);
  }
  if (error instanceof FeeCeilingError) return new DappRpcError(RPC_ERROR.transactionRejected, error.message);
  return error;
}

/** The plan of a prepared transaction: exactly what the window shows (pure). */
export function dappPlan(chainId: number, prepared: PreparedTransaction): TransactionPlan {
  const { call, fees } = prepared;
  return {
    kind: 'dapp',
    chainId,
    from: call.from,
    to: call.to,
    value: call.value,
    data: call.data,
    gasUsed: prepared.gasUsed,
    gas: call.gas,
    fees: { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
    // The page's nonce, checked again at Confirm (checkOutcomeUnchanged), is the one signed.
    ...(call.nonce !== undefined ? { nonce: Number(call.nonce) } : {}),
    ...(call.accessList ? { accessList: call.accessList } : {}),
  };
}

/** The fee the window shows for a prepared transaction (pure): its limit and fee per gas. */
export function dappShownFee(prepared: PreparedTransaction): FeeEstimate {
  return feeEstimate(prepared.gasUsed, prepared.call.gas, prepared.fees);
}

/** Records the prepared transaction in the funnel as shown; returns the review id its approval takes. */
export function reviewDapp(
  funnel: SigningFunnel,
  chainId: number,
  prepared: PreparedTransaction,
  now: number = Date.now(),
): string {
  try {
    const reviewed = funnel.review(dappPlan(chainId, prepared), {
      shownFee: dappShownFee(prepared),
      expiresAt: now + DAPP_REVIEW_LIFETIME_MS,
    });
    return reviewed.id;
  } catch (error) {
    throw dappFunnelError(error);
  }
}

export interface SendPrepared {
  client: RpcClient;
  chainId: number;
  funnel: SigningFunnel;
  /** The review `reviewDapp` recorded for this request. */
  reviewId: string;
  /** The trust-checked signer of the account the site asked to send from. */
  signer: () => Promise<LocalAccount>;
  prepared: PreparedTransaction;
}

/**
 * Signs and broadcasts an approved dapp transaction: its review taken once (synchronously, before
 * any await, so a double approval finds it gone), the outcome simulated again (refused if it
 * changed), the plan signed by the funnel, the page given its hash. The one place a dapp plan is
 * signed.
 */
export async function sendPrepared(input: SendPrepared): Promise<Hex> {
  let reviewed: ReturnType<SigningFunnel['take']>;
  try {
    reviewed = input.funnel.take(input.reviewId, 'dapp');
  } catch (error) {
    throw dappFunnelError(error);
  }
  await checkOutcomeUnchanged(input.client, input.chainId, input.prepared);
  const signed = await input.funnel
    .sign({ reviewed, client: input.client, signer: input.signer })
    .catch((error: unknown) => {
      throw dappFunnelError(error);
    });
  try {
    await broadcast(input.client, signed.raw);
  } catch (error) {
    const code = error instanceof SendError ? error.code : 'REJECTED';
    throw new DappRpcError(
      RPC_ERROR.invalidInput,
      `The network refused the transaction (${code.toLowerCase().replace(/_/g, ' ')}).`,
    );
  }
  return signed.hash;
}
