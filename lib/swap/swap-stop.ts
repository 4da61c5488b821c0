// How a swap step ends the run early: Stop (the run fails with a code) or Halt (the run returns
// the state as it is). Every step throws these; only the machine catches them.
import type { userMessageFor } from '@/lib/api/messages';
import { FeeCeilingError } from '@/lib/rpc/fee-ceiling';
import { isRpcUnavailable } from '@/lib/rpc/network';
import { rpcFailureMessage, rpcFailureOf } from '@/lib/rpc/rpc-failure';
import type { RevertReason, SwapFailureCode, SwapStep } from '@/lib/state/pipeline-state';
import { FunnelError } from './funnel';

/** Thrown inside a run to stop it; turned into the `failed` state. */
export class Stop extends Error {
  constructor(
    readonly code: SwapFailureCode,
    readonly step: SwapStep,
    readonly extra: {
      detail?: string;
      revert?: RevertReason;
      message?: ReturnType<typeof userMessageFor>;
    } = {},
  ) {
    super(code);
  }
}

/** Thrown inside a run to return the current state as it is (needs-consent, or detached tracking). */
export class Halt extends Error {}

/** Any error of a step: our Stop, an unreachable RPC, or a bug (UNEXPECTED). */
export function asStop(error: unknown, step: SwapStep): Stop {
  if (error instanceof Stop) return error;
  const detail = error instanceof Error ? error.message : String(error);
  // The fee ceiling and the funnel's caps refuse with their own codes (words: pipeline-messages.ts).
  if (error instanceof FeeCeilingError || error instanceof FunnelError) {
    if (error.code === 'FEE_ABOVE_CEILING' || error.code === 'GAS_ABOVE_SIMULATION')
      return new Stop(error.code, step, { detail });
  }
  // A node that did not answer (or not as one) says which way, and at which host.
  const rpc = rpcFailureOf(error);
  if (rpc?.cause === 'wrong-chain')
    return new Stop('RPC_WRONG_CHAIN', step, { detail, message: rpcFailureMessage(rpc) });
  if (rpc && isRpcUnavailable(error))
    return new Stop('RPC_UNAVAILABLE', step, { detail, message: rpcFailureMessage(rpc) });
  if (isRpcUnavailable(error)) return new Stop('RPC_UNAVAILABLE', step, { detail });
  return new Stop('UNEXPECTED', step, { detail });
}

export function checkAbort(signal: AbortSignal | undefined, step: SwapStep): void {
  if (signal?.aborted) throw new Stop('CANCELLED', step);
}
