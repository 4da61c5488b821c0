// Swap step 6, right before signing: eth_call and a gas estimate of the swap itself, then the
// exact gas money check at fresh fees.
import type { Address, Hex } from 'viem';
import type { FeeCeiling } from '@/lib/rpc/fee-ceiling';
import { cappedFees } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import type { Fees } from '@/lib/rpc/transactions';
import { checkAbort, SwapFailure } from './failure';
import { simulateSwap } from './simulate';
import type { Ledger } from './swap-ledger';

/** The gas limit and the fees the swap is signed with. */
export async function simulateStep({
  client,
  ledger,
  from,
  swapCall,
  minReceived,
  gasMarginPercent,
  nativeBalance,
  signal,
  ceiling,
}: {
  client: RpcClient;
  ledger: Ledger;
  from: Address;
  swapCall: { to: Address; data: Hex; value: bigint };
  minReceived: bigint;
  gasMarginPercent: number;
  nativeBalance: (account: Address) => Promise<bigint>;
  signal?: AbortSignal | undefined;
  ceiling?: FeeCeiling | undefined;
}): Promise<{ gasLimit: bigint; gasEstimate: bigint; fees: Fees }> {
  checkAbort(signal, 'simulate');
  await ledger.moveTo('simulating');
  const sim = await simulateSwap(client, { from, swap: swapCall, minReceived, gasMarginPercent });
  if (!sim.ok) {
    if (sim.kind === 'reverted') {
      throw new SwapFailure({
        code: 'SIMULATION_REVERTED',
        step: 'simulate',
        revert: sim.revert,
        detail: sim.revert.text,
      });
    }
    throw new SwapFailure({
      code: 'SIMULATED_OUTPUT_LOW',
      step: 'simulate',
      detail: `simulated ${sim.received} < minReceived ${sim.minReceived}`,
    });
  }
  const fees = await cappedFees(client, ceiling);
  const native = await nativeBalance(from);
  if (native < swapCall.value + sim.gasLimit * fees.maxFeePerGas) {
    throw new SwapFailure({
      code: 'INSUFFICIENT_GAS_FUNDS',
      step: 'simulate',
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
