// The background's signing funnel (lib/swap/funnel.ts), with the user's per-chain fee ceilings from
// Settings. One instance: a review taken by one handler cannot be taken again by another.
import { type FeeCeiling, FeeCeilingError, feeCeilingFor } from '@/lib/rpc/fee-ceiling';
import { StoredTxError } from '@/lib/rpc/stored-tx';
import type { Settings } from '@/lib/settings/settings';
import { createSigningFunnel, FunnelError, type SigningFunnel } from '@/lib/swap/funnel';
import { CodedError } from './errors';

export interface Signing {
  funnel: SigningFunnel;
  ceilingFor: (chainId: number) => FeeCeiling;
}

export function createSigning(settings: () => Settings): Signing {
  const ceilingFor = (chainId: number) => feeCeilingFor(chainId, settings().feeCeilingsGwei);
  return { funnel: createSigningFunnel({ ceilingFor }), ceilingFor };
}

function coded(error: unknown): unknown {
  if (error instanceof FunnelError || error instanceof FeeCeilingError || error instanceof StoredTxError)
    return new CodedError(error.code, error.message);
  return error;
}

/** The funnel's refusals as coded errors for the view (their messages are the user's words). */
export function funnelErrors<T>(run: () => T): T {
  try {
    const result = run();
    if (result instanceof Promise)
      return result.catch((error: unknown) => {
        throw coded(error);
      }) as T;
    return result;
  } catch (error) {
    throw coded(error);
  }
}
