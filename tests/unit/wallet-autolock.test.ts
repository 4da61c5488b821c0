import { describe, expect, it, vi } from 'vitest';
import {
  AutoLockStateSchema,
  CLOCK_SKEW_MS,
  isExpired,
  msUntilLock,
  nextDeadline,
  shouldLock,
  startSession,
  TOUCH_GRANULARITY_MS,
  touch,
  touchIsDue,
} from '@/lib/wallet/autolock';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const MIN = 60_000;

describe('auto-lock', () => {
  it('computes deadlines and treats the deadline itself as expired', () => {
    expect(nextDeadline(T0, 15)).toBe(T0 + 15 * MIN);
    expect(isExpired(T0 + 15 * MIN, T0 + 15 * MIN - 1)).toBe(false);
    expect(isExpired(T0 + 15 * MIN, T0 + 15 * MIN)).toBe(true);
  });

  it('refuses minutes outside the settings range', () => {
    for (const minutes of [0, -1, 1.5, 24 * 60 + 1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => nextDeadline(T0, minutes)).toThrow(RangeError);
    }
    expect(nextDeadline(T0, 24 * 60)).toBe(T0 + 24 * 60 * MIN);
  });

  it('pushes the deadline on activity, using the current setting', () => {
    const state = startSession(T0, 15);
    const touched = touch(state, T0 + 10 * MIN, 5);
    expect(touched).toEqual({ deadline: T0 + 15 * MIN, minutes: 5, lastSeen: T0 + 10 * MIN });
    expect(shouldLock(touched, T0 + 14 * MIN)).toBe(false);
    expect(shouldLock(touched, T0 + 15 * MIN)).toBe(true);
    expect(msUntilLock(touched, T0 + 14 * MIN)).toBe(MIN);
    expect(msUntilLock(touched, T0 + 16 * MIN)).toBe(0);
  });

  it('records activity at most once per TOUCH_GRANULARITY_MS, and always after a setting change', () => {
    const state = startSession(T0, 15);
    expect(touchIsDue(state, T0 + 1, 15)).toBe(false);
    expect(touchIsDue(state, T0 + TOUCH_GRANULARITY_MS - 1, 15)).toBe(false);
    expect(touchIsDue(state, T0 + TOUCH_GRANULARITY_MS, 15)).toBe(true);
    expect(touchIsDue(state, T0 + 1, 5)).toBe(true);
    // A clock a little behind lastSeen is not activity to record (shouldLock handles a big step).
    expect(touchIsDue(state, T0 - 1_000, 15)).toBe(false);
  });

  it('never revives an expired session with activity', () => {
    const state = startSession(T0, 1);
    expect(touch(state, T0 + MIN, 15)).toBeNull();
    expect(touch(null, T0, 15)).toBeNull();
    expect(shouldLock(undefined, T0)).toBe(true);
  });

  it('locks when the clock is set back beyond the tolerated skew', () => {
    const state = startSession(T0, 60);
    expect(shouldLock(state, T0 - CLOCK_SKEW_MS + 1)).toBe(false);
    expect(shouldLock(state, T0 - CLOCK_SKEW_MS - 1)).toBe(true);
    expect(touch(state, T0 - 2 * CLOCK_SKEW_MS, 60)).toBeNull();
    // A small step back keeps the later lastSeen.
    expect(touch(state, T0 - 1_000, 60)?.lastSeen).toBe(T0);
  });

  it('keeps the same deadline across a simulated worker restart', async () => {
    const before = touch(startSession(T0, 15), T0 + 3 * MIN, 15);
    // What storage.session holds between the two workers.
    const stored = JSON.parse(JSON.stringify({ autoLock: before })) as { autoLock: unknown };
    vi.resetModules();
    const fresh = await import('@/lib/wallet/autolock');
    const after = fresh.AutoLockStateSchema.parse(stored.autoLock);
    expect(after).toEqual(before);
    expect(after.deadline).toBe(T0 + 18 * MIN);
    expect(fresh.shouldLock(after, T0 + 17 * MIN)).toBe(false);
    expect(fresh.shouldLock(after, T0 + 18 * MIN)).toBe(true);
  });

  it('rejects a malformed stored state', () => {
    expect(AutoLockStateSchema.safeParse({ deadline: 'soon', minutes: 15, lastSeen: T0 }).success).toBe(
      false,
    );
    expect(AutoLockStateSchema.safeParse({ deadline: T0, minutes: 0, lastSeen: T0 }).success).toBe(false);
  });
});
