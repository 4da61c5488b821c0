// Two async primitives shared across lib/: a sleep that an AbortSignal ends early, and a queue that
// runs storage read-modify-write tasks one at a time (a failed task never blocks the next).

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: callers check the signal). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A function that runs each task after the previous one settled, and answers the task's result. */
export type SerialQueue = <T>(task: () => Promise<T>) => Promise<T>;

export function createSerialQueue(): SerialQueue {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
}

/** Every attempt of `withAttempts` failed or timed out. */
export class AttemptsExhaustedError extends Error {
  constructor(
    readonly attempts: number,
    readonly last: unknown,
  ) {
    super(`no answer after ${attempts} attempts`);
    this.name = 'AttemptsExhaustedError';
  }
}

/**
 * Runs `attempt` until one resolves, each given `timeoutMs`, at most `attempts` times; a timed-out
 * attempt is abandoned (its late answer ignored). `onRetry(n)` says attempt n (from 2) begins.
 */
export async function withAttempts<T>(
  attempt: (index: number) => Promise<T>,
  options: { attempts: number; timeoutMs: number; onRetry?: (next: number) => void },
): Promise<T> {
  let last: unknown;
  for (let index = 0; index < options.attempts; index++) {
    if (index > 0) options.onRetry?.(index + 1);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`timed out after ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
    });
    try {
      return await Promise.race([attempt(index), timeout]);
    } catch (error) {
      last = error;
    } finally {
      clearTimeout(timer);
    }
  }
  throw new AttemptsExhaustedError(options.attempts, last);
}
