// Swap step 6, right before signing: eth_call and a gas estimate of the swap itself, then the
// exact gas money check at fresh fees.
import type { Address, Hex } from 'viem';
import type { FeeCeiling } from '@/lib/rpc/fee-ceiling';
import { cappedFees } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import type { Fees } from '@/lib/rpc/transactions';
import { simulateSwap } from './simulate';
import type { Ledger } from './swap-ledger';
import { checkAbort, Stop } from './swap-stop';

/** The gas limit and the fees the swap is signed with. */
export async function simulateStep(
  client: RpcClient,
  ledger: Ledger,
  from: Address,
  swapCall: { to: Address; data: Hex; value: bigint },
  minReceived: bigint,
  gasMarginPercent: number,
  nativeBalance: (account: Address) => Promise<bigint>,
  signal: AbortSignal | undefined,
  ceiling?: FeeCeiling,
): Promise<{ gasLimit: bigint; gasEstimate: bigint; fees: Fees }> {
  checkAbort(signal, 'simulate');
  await ledger.moveTo('simulating');
  const sim = await simulateSwap(client, { from, swap: swapCall, minReceived, gasMarginPercent });
  if (!sim.ok) {
    if (sim.kind === 'reverted') {
      throw new Stop('SIMULATION_REVERTED', 'simulate', { revert: sim.revert, detail: sim.revert.text });
    }
    throw new Stop('SIMULATED_OUTPUT_LOW', 'simulate', {
      detail: `simulated ${sim.received} < minReceived ${sim.minReceived}`,
    });
  }
  const fees = await cappedFees(client, ceiling);
  const native = await nativeBalance(from);
  if (native < swapCall.value + sim.gasLimit * fees.maxFeePerGas) {
    throw new Stop('INSUFFICIENT_GAS_FUNDS', 'simulate', {
      detail: `have ${native}, need ${swapCall.value} + ${sim.gasLimit} gas at ${fees.maxFeePerGas}`,
    });
  }
  const simulation = ledger.current().simulation;
  await ledger.update({
    simulation: {
      preflight: simulation?.preflight ?? 'skipped',
      gasEstimate: sim.gasEstimate.toString(),
      gasLimit: sim.gasLimit.toString(),
      simulatedReceived: sim.received?.toString() ?? simulation?.simulatedReceived ?? null,
    },
  });
  checkAbort(signal, 'simulate');
  return { gasLimit: sim.gasLimit, gasEstimate: sim.gasEstimate, fees };
}
