import { describe, expect, it, vi } from 'vitest';
import { AttemptsExhaustedError, withAttempts } from '@/lib/async';

describe('withAttempts', () => {
  it('answers with the first attempt that resolves in time, after abandoning one that hangs', async () => {
    vi.useFakeTimers();
    try {
      const retries: number[] = [];
      const answer = withAttempts(
        (index) => (index === 0 ? new Promise<string>(() => undefined) : Promise.resolve(`try ${index + 1}`)),
        { attempts: 3, timeoutMs: 1_000, onRetry: (next) => retries.push(next) },
      );
      await vi.advanceTimersByTimeAsync(1_000);
      await expect(answer).resolves.toBe('try 2');
      expect(retries).toEqual([2]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up after the bound with the last failure, never waiting forever', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const answer = withAttempts(
        () => {
          calls += 1;
          return calls === 3 ? Promise.reject(new Error('refused')) : new Promise<never>(() => undefined);
        },
        { attempts: 3, timeoutMs: 500 },
      );
      const settled = answer.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(1_000);
      const error = await settled;
      expect(error).toBeInstanceOf(AttemptsExhaustedError);
      expect((error as AttemptsExhaustedError).last).toEqual(new Error('refused'));
      expect(calls).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
