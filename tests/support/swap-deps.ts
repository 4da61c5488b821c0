// The swap machine's dependencies as the integration tests give them: a client, the API and the
// timing of the test, with every status the machine passes through recorded in order.
import type { SwapStatus } from '@/lib/state/pipeline-state';
import type { SwapDeps } from '@/lib/swap/execute';

/** `base` with an onChange that appends each new status to `statuses`; `extra` overrides any field. */
export function recordingDeps(
  base: Pick<SwapDeps, 'client' | 'api' | 'timing'>,
  statuses: SwapStatus[],
  extra: Partial<SwapDeps> = {},
): SwapDeps {
  return {
    ...base,
    onChange: (state) => {
      if (statuses.at(-1) !== state.status) statuses.push(state.status);
    },
    ...extra,
  };
}

/** Prints a fault matrix's timings (one row a case) after its run, when there are any. */
export function reportDurations(title: string, durations: readonly object[]): void {
  if (durations.length === 0) return;
  console.log(title);
  console.table(durations);
}
