// ERC-20 allowance for the swap: read it, plan the approval transactions, encode them.
// Exact amount by default; unlimited only when the user chose it. A non-zero allowance that falls
// short is first reset to zero: USDT-like tokens revert on non-zero -> non-zero approve, and the
// extra step is harmless (and closes the approve front-running window) for every other token.
import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint256 } from 'viem';
import { isNativeToken } from '@/lib/api/schema';
import type { RpcClient } from '@/lib/rpc/network';

export type ApprovalMode = 'exact' | 'unlimited';

export type ApprovalPlan =
  | { kind: 'none'; allowance: bigint; required: bigint }
  | { kind: 'approve'; allowance: bigint; required: bigint; amount: bigint; unlimited: boolean }
  | {
      kind: 'reset-then-approve';
      allowance: bigint;
      required: bigint;
      amount: bigint;
      unlimited: boolean;
    };

export interface ApprovalTx {
  step: 'reset' | 'approve';
  to: Address;
  data: Hex;
  amount: bigint;
}

/** Pure: what to send so that `spender` may pull `required` of the token. Native input needs nothing. */
export function planApproval(input: {
  token: string;
  allowance: bigint;
  required: bigint;
  mode: ApprovalMode;
}): ApprovalPlan {
  const { allowance, required } = input;
  if (required < 0n || allowance < 0n) throw new RangeError('amounts cannot be negative');
  if (isNativeToken(input.token) || allowance >= required) return { kind: 'none', allowance, required };
  const unlimited = input.mode === 'unlimited';
  const amount = unlimited ? maxUint256 : required;
  if (allowance === 0n) return { kind: 'approve', allowance, required, amount, unlimited };
  return { kind: 'reset-then-approve', allowance, required, amount, unlimited };
}

/** The approve transactions of a plan, in order. The approve ABI's bool output is never read. */
export function approvalTransactions(plan: ApprovalPlan, token: Address, spender: Address): ApprovalTx[] {
  const approve = (amount: bigint) =>
    encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
  switch (plan.kind) {
    case 'none':
      return [];
    case 'approve':
      return [{ step: 'approve', to: token, data: approve(plan.amount), amount: plan.amount }];
    case 'reset-then-approve':
      return [
        { step: 'reset', to: token, data: approve(0n), amount: 0n },
        { step: 'approve', to: token, data: approve(plan.amount), amount: plan.amount },
      ];
  }
}

export async function readAllowance(
  client: RpcClient,
  token: Address,
  owner: Address,
  spender: Address,
): Promise<bigint> {
  if (isNativeToken(token)) return maxUint256;
  return client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  });
}

/**
 * What `spender` needs approved before it pulls `required` of `token` from `owner`: the allowance
 * (read on chain; 0 for the native coin, which needs no approval), the plan and its transactions.
 */
export async function approvalFor(
  client: RpcClient,
  token: string,
  owner: Address,
  spender: Address,
  required: bigint,
  mode: ApprovalMode,
): Promise<{ allowance: bigint; plan: ApprovalPlan; calls: ApprovalTx[] }> {
  const allowance = isNativeToken(token) ? 0n : await readAllowance(client, token as Address, owner, spender);
  const plan = planApproval({ token, allowance, required, mode });
  return { allowance, plan, calls: approvalTransactions(plan, token as Address, spender) };
}
