// Swap step 4, before anything is sent: the balances and the approval plan ('balance'), an
// asset-change simulation of the approvals and the swap ('preflight'), then the gas money check.
import { type Address, getAddress } from 'viem';
import { type BuildResult, isNativeToken, NATIVE_TOKEN_ADDRESS, type Quote } from '@/lib/api/schema';
import { type BalanceReader, balanceOf } from '@/lib/rpc/balances';
import type { FeeCeiling } from '@/lib/rpc/fee-ceiling';
import { cappedFees } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { type Fees, withGasMargin } from '@/lib/rpc/transactions';
import type { PreparedSwap } from '@/lib/state/prepared-swap';
import { type ApprovalMode, type ApprovalTx, approvalFor } from './approval';
import { type AssetSimResult, simulateAssets } from './asset-sim';
import { SwapFailure } from './failure';
import { assetWords } from './preview-words';
import type { CheckedSwap } from './step-check';
import type { Ledger } from './swap-ledger';

export type ApprovalCalls = ApprovalTx[];

export interface Funds {
  nativeHeld: bigint;
  approvalCalls: ApprovalCalls;
  fees: Fees;
}

/** The input token held, the allowance and the approvals it needs (persisted), and the fees. */
export async function readFunds({
  client,
  ledger,
  reader,
  from,
  quote,
  router,
  approvalMode = 'exact',
  ceiling,
}: {
  client: RpcClient;
  ledger: Ledger;
  reader: BalanceReader;
  from: Address;
  quote: Quote;
  router: Address;
  approvalMode?: ApprovalMode | undefined;
  ceiling?: FeeCeiling | undefined;
}): Promise<Funds> {
  const inAmount = BigInt(quote.inAmount);
  const snapshot = await reader.read(from, [quote.inToken, NATIVE_TOKEN_ADDRESS]);
  const nativeHeld = balanceOf(snapshot, NATIVE_TOKEN_ADDRESS) ?? 0n;
  const inHeld = balanceOf(snapshot, quote.inToken);
  if (inHeld === undefined || inHeld < inAmount) {
    throw new SwapFailure({
      code: 'INSUFFICIENT_BALANCE',
      step: 'balance',
      detail: `have ${inHeld ?? 'unknown'}, need ${inAmount}`,
    });
  }
  const approval = await approvalFor(client, quote.inToken, from, router, inAmount, approvalMode);
  const { allowance, plan } = approval;
  if (!isNativeToken(quote.inToken)) {
    await ledger.update({
      approval: {
        token: getAddress(quote.inToken),
        spender: router,
        plan: plan.kind,
        unlimited: plan.kind === 'none' ? false : plan.unlimited,
        allowance: allowance.toString(),
        required: inAmount.toString(),
        txs: [],
      },
    });
  }
  return { nativeHeld, approvalCalls: approval.calls, fees: await cappedFees(client, ceiling) };
}

/** The asset-change simulation of the approvals then the swap; any refusal stops the swap. */
export async function preflight({
  client,
  from,
  quote,
  checked,
  funds,
}: {
  client: RpcClient;
  from: Address;
  quote: Quote;
  checked: CheckedSwap;
  funds: Funds;
}): Promise<AssetSimResult> {
  const nonce = await client.getTransactionCount({ address: from, blockTag: 'pending' });
  const result = await simulateAssets(client, {
    from,
    nonce,
    fees: funds.fees,
    approvals: funds.approvalCalls,
    swap: checked.swapCall,
    quote,
    router: checked.router,
  });
  if (result.status === 'no-funds') {
    throw new SwapFailure({ code: 'INSUFFICIENT_GAS_FUNDS', step: 'balance', detail: result.detail });
  }
  if (result.status === 'reverted') {
    throw new SwapFailure({
      code: result.call === 'swap' ? 'SIMULATION_REVERTED' : 'APPROVAL_FAILED',
      step: 'preflight',
      revert: result.revert,
      detail: result.revert.text,
    });
  }
  if (result.status === 'violated') {
    const low = result.violations[0]?.code === 'OUTPUT_LOW';
    throw new SwapFailure({
      code: low ? 'SIMULATED_OUTPUT_LOW' : 'BUILD_REJECTED',
      step: 'preflight',
      detail: JSON.stringify(result.violations, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
      ...(low ? {} : { user: assetWords(result.violations) }),
    });
  }
  if (result.status === 'unsupported' && !checked.readable) {
    // Unreadable calldata is signed only when an asset-change simulation proved the outcome.
    throw new SwapFailure({
      code: 'BUILD_REJECTED',
      step: 'preflight',
      detail: 'unreadable calldata without asset simulation',
    });
  }
  return result;
}

/**
 * The review's asset simulation when nothing it depends on changed while the review was open (the
 * same build, the same approvals, the account's pending nonce unchanged); otherwise a preflight.
 */
export async function preflightOnce(params: {
  client: RpcClient;
  from: Address;
  quote: Quote;
  checked: CheckedSwap;
  funds: Funds;
  build: BuildResult;
  prepared: PreparedSwap | undefined;
}): Promise<AssetSimResult> {
  const { client, prepared } = params;
  if (
    prepared &&
    params.build === prepared.build &&
    prepared.simulation.status === 'passed' &&
    prepared.approvals.length === params.funds.approvalCalls.length
  ) {
    const nonce = await client.getTransactionCount({ address: params.from, blockTag: 'pending' });
    if (nonce === prepared.nonce) return prepared.simulation;
  }
  return preflight(params);
}

/** Enough of the native coin for the swap's value and the simulated gas; records the preflight. */
export async function checkGasFunds({
  ledger,
  quote,
  swapValue,
  funds,
  result,
  gasMarginPercent,
}: {
  ledger: Ledger;
  quote: Quote;
  swapValue: bigint;
  funds: Funds;
  result: AssetSimResult;
  gasMarginPercent: number;
}): Promise<void> {
  const { nativeHeld, fees } = funds;
  const gasBudget =
    result.status === 'passed'
      ? withGasMargin(
          result.gasUsed.reduce((a, b) => a + b, 0n),
          gasMarginPercent,
        )
      : 0n;
  if (nativeHeld < swapValue + gasBudget * fees.maxFeePerGas) {
    throw new SwapFailure({
      code: 'INSUFFICIENT_GAS_FUNDS',
      step: 'balance',
      detail: `have ${nativeHeld}, need ${swapValue} + ${gasBudget} gas at ${fees.maxFeePerGas}`,
    });
  }
  const outKey = (isNativeToken(quote.outToken) ? NATIVE_TOKEN_ADDRESS : quote.outToken).toLowerCase();
  const simulatedIn = result.status === 'passed' ? result.deltas.find((d) => d.token === outKey) : undefined;
  await ledger.update({
    simulation: {
      preflight: result.status === 'passed' ? 'passed' : 'unsupported',
      gasEstimate: null,
      gasLimit: null,
      simulatedReceived: simulatedIn ? simulatedIn.delta.toString() : null,
    },
  });
}
