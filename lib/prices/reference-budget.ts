// How many reference quotes (USD prices) the wallet may send: a token bucket of its own, well inside
// the service's per-client quote limit (the reference service allows a burst of 30, then 5 a second),
// so a home with many holdings never spends the quota the user's own quote needs. A price that would
// wait longer than `maxWaitMs` is skipped for now ("—" on screen) and asked for again on the next view.
export interface ReferenceBudgetOptions {
  burst?: number;
  perSecond?: number;
  maxWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ReferenceBudget {
  /** Waits for a slot; false when the wait would exceed the bound (send nothing then). */
  take(): Promise<boolean>;
}

export const REFERENCE_BURST = 10;
export const REFERENCE_PER_SECOND = 2;
export const REFERENCE_MAX_WAIT_MS = 10_000;

export function createReferenceBudget(options: ReferenceBudgetOptions = {}): ReferenceBudget {
  const burst = options.burst ?? REFERENCE_BURST;
  const perSecond = options.perSecond ?? REFERENCE_PER_SECOND;
  const maxWaitMs = options.maxWaitMs ?? REFERENCE_MAX_WAIT_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let tokens = burst;
  let at = now();
  return {
    async take() {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - at) / 1000) * perSecond);
      at = t;
      // Reserve the slot now (tokens may go negative: later callers queue behind this one).
      const waitMs = tokens >= 1 ? 0 : ((1 - tokens) / perSecond) * 1000;
      if (waitMs > maxWaitMs) return false;
      tokens -= 1;
      if (waitMs > 0) await sleep(waitMs);
      return true;
    },
  };
}
