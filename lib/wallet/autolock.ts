// Auto-lock as pure deadline arithmetic. The caller keeps the state in storage.session next to
// the session key, so a service worker restarted by the browser finds the same deadline; and it
// checks `shouldLock` on every wake-up (alarm, message) before using the session key.
//
// Times are wall-clock epoch milliseconds (Date.now()): they must survive worker restarts, which
// rules out performance.now(). A wall clock can be set back, which would stretch the unlocked
// window, so a state whose last activity lies in the future by more than CLOCK_SKEW_MS locks.
import * as z from 'zod/mini';

export const AUTO_LOCK_MINUTES = { min: 1, max: 24 * 60 } as const;
/** How far the clock may go back (NTP corrections) before the session is treated as expired. */
export const CLOCK_SKEW_MS = 60_000;

export const AutoLockStateSchema = z.object({
  /** Epoch ms at which the wallet locks. */
  deadline: z.int().check(z.nonnegative()),
  minutes: z.int().check(z.minimum(AUTO_LOCK_MINUTES.min), z.maximum(AUTO_LOCK_MINUTES.max)),
  /** Epoch ms of the last activity, to notice a clock set back. */
  lastSeen: z.int().check(z.nonnegative()),
});
export type AutoLockState = z.infer<typeof AutoLockStateSchema>;

function checkedMinutes(minutes: number): number {
  if (!Number.isInteger(minutes) || minutes < AUTO_LOCK_MINUTES.min || minutes > AUTO_LOCK_MINUTES.max) {
    throw new RangeError(
      `auto-lock minutes must be an integer in [${AUTO_LOCK_MINUTES.min}, ${AUTO_LOCK_MINUTES.max}]`,
    );
  }
  return minutes;
}

export function nextDeadline(now: number, minutes: number): number {
  return now + checkedMinutes(minutes) * 60_000;
}

/** The deadline itself counts as expired. */
export function isExpired(deadline: number, now: number): boolean {
  return now >= deadline;
}

/** The state right after an unlock. */
export function startSession(now: number, minutes: number): AutoLockState {
  return { deadline: nextDeadline(now, minutes), minutes, lastSeen: now };
}

/** Whether the wallet must lock now: no session, deadline passed, or the clock went back. */
export function shouldLock(state: AutoLockState | null | undefined, now: number): boolean {
  if (!state) return true;
  return isExpired(state.deadline, now) || now < state.lastSeen - CLOCK_SKEW_MS;
}

/**
 * Activity: pushes the deadline to `now + minutes` (minutes from the current settings). Answers
 * null when the session had already expired: an expired session is never revived by activity,
 * only by unlocking again.
 */
export function touch(
  state: AutoLockState | null | undefined,
  now: number,
  minutes: number,
): AutoLockState | null {
  if (!state || shouldLock(state, now)) return null;
  return { deadline: nextDeadline(now, minutes), minutes, lastSeen: Math.max(now, state.lastSeen) };
}

/**
 * Activity this soon after the last recorded one leaves the deadline where it is: a popup sends
 * several messages as it opens, and each recorded touch costs a storage write and an alarm. The
 * wallet may so lock up to this much before `minutes` after the very last activity, never later.
 */
export const TOUCH_GRANULARITY_MS = 5_000;

/** Whether activity at `now` should be recorded (see TOUCH_GRANULARITY_MS); a changed setting always is. */
export function touchIsDue(state: AutoLockState, now: number, minutes: number): boolean {
  return minutes !== state.minutes || now - state.lastSeen >= TOUCH_GRANULARITY_MS;
}

/** Milliseconds until the lock (0 when due), for scheduling an alarm. */
export function msUntilLock(state: AutoLockState | null | undefined, now: number): number {
  if (!state || shouldLock(state, now)) return 0;
  return state.deadline - now;
}
