// Unlock attempts back off: after a few wrong passwords each further attempt waits twice as long
// (capped), so guessing the password through the popup is slow. The state lives in storage.local
// (lib/storage/items.ts), so stopping the worker or the browser does not reset it. Pure.
import * as z from 'zod/mini';

export const UnlockBackoffSchema = z.object({
  failures: z.int().check(z.minimum(0)),
  /** No attempt is checked before this time (ms since epoch). */
  notBefore: z.number(),
});
export type UnlockBackoff = z.infer<typeof UnlockBackoffSchema>;

export const NO_BACKOFF: UnlockBackoff = { failures: 0, notBefore: 0 };
/** Wrong passwords allowed without waiting (typos happen). */
export const FREE_ATTEMPTS = 3;
export const MAX_WAIT_MS = 15 * 60 * 1000;

/** How long to wait after `failures` wrong passwords. */
export function backoffDelay(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0;
  return Math.min(MAX_WAIT_MS, 2 ** (failures - FREE_ATTEMPTS) * 5_000);
}

export function afterFailure(state: UnlockBackoff, now: number): UnlockBackoff {
  const failures = state.failures + 1;
  return { failures, notBefore: now + backoffDelay(failures) };
}

/** Milliseconds still to wait before an attempt is checked (0: go ahead). */
export function waitLeft(state: UnlockBackoff, now: number): number {
  return Math.max(0, state.notBefore - now);
}

export function backoffMessage(waitMs: number): string {
  const seconds = Math.ceil(waitMs / 1000);
  const when = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return `Too many wrong passwords. Wait ${when}, then try again.`;
}
