// The one failure type of the swap path, from prepare (the review) to execute (the machine): a
// stable code, the step that failed, and the user's words when the failing layer has them (the
// machine's own codes get theirs from pipeline-messages.ts). Halt is not a failure: it returns the
// run's state as it is (needs-consent, or detached tracking). Only the machine and the background's
// router catch these.
import type { UserMessage } from '@/lib/api/messages';
import { FeeCeilingError } from '@/lib/rpc/fee-ceiling';
import { isRpcUnavailable } from '@/lib/rpc/network';
import { rpcFailureMessage, rpcFailureOf } from '@/lib/rpc/rpc-failure';
import type { RevertReason, SwapFailureCode, SwapStep } from '@/lib/state/pipeline-state';
import type { BuildCheckFailure } from './build-checks';
import { FunnelError } from './funnel';

/** Codes only the review refuses with (the machine records a SwapFailureCode). */
export type ReviewFailureCode =
  | 'CALLDATA_UNREADABLE'
  | 'ASSET_CHECK_FAILED'
  | 'REVIEW_UNAVAILABLE'
  | BuildCheckFailure['code'];
export type FailureCode = SwapFailureCode | ReviewFailureCode;

/** Where a failure happened: a machine step, or the review (prepareSwap). */
export type FailureStep = SwapStep | 'review';

export interface SwapFailureInit {
  code: FailureCode;
  step: FailureStep;
  /** Title, what happened, what to do; absent: the code's own words (pipeline-messages.ts). */
  user?: UserMessage | undefined;
  /** Technical detail for logs; never the headline. */
  detail?: string | undefined;
  revert?: RevertReason | undefined;
}

export class SwapFailure extends Error {
  override name = 'SwapFailure';
  readonly code: FailureCode;
  readonly step: FailureStep;
  readonly user: UserMessage | undefined;
  readonly detail: string | undefined;
  readonly revert: RevertReason | undefined;

  constructor(init: SwapFailureInit) {
    const { user } = init;
    super(
      user
        ? `${user.title}. ${user.detail} ${user.action}`.trim()
        : init.detail
          ? `${init.code}: ${init.detail}`
          : init.code,
    );
    this.code = init.code;
    this.step = init.step;
    this.user = user;
    this.detail = init.detail;
    this.revert = init.revert;
  }
}

/** Thrown inside a run to return the current state as it is (needs-consent, or detached tracking). */
export class Halt extends Error {}

/** Any error of a step: our SwapFailure, an unreachable RPC, or a bug (UNEXPECTED). */
export function asFailure(error: unknown, step: FailureStep): SwapFailure {
  if (error instanceof SwapFailure) return error;
  const detail = error instanceof Error ? error.message : String(error);
  // The fee ceiling and the funnel's caps refuse with their own codes (words: pipeline-messages.ts).
  if (error instanceof FeeCeilingError || error instanceof FunnelError) {
    if (error.code === 'FEE_ABOVE_CEILING' || error.code === 'GAS_ABOVE_SIMULATION')
      return new SwapFailure({ code: error.code, step, detail });
  }
  // A node that did not answer (or not as one) says which way, and at which host.
  const rpc = rpcFailureOf(error);
  if (rpc?.cause === 'wrong-chain')
    return new SwapFailure({ code: 'RPC_WRONG_CHAIN', step, detail, user: rpcFailureMessage(rpc) });
  if (rpc && isRpcUnavailable(error))
    return new SwapFailure({ code: 'RPC_UNAVAILABLE', step, detail, user: rpcFailureMessage(rpc) });
  if (isRpcUnavailable(error)) return new SwapFailure({ code: 'RPC_UNAVAILABLE', step, detail });
  return new SwapFailure({ code: 'UNEXPECTED', step, detail });
}

export function checkAbort(signal: AbortSignal | undefined, step: FailureStep): void {
  if (signal?.aborted) throw new SwapFailure({ code: 'CANCELLED', step });
}
