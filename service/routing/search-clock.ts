// A time bound for one route search. The search is synchronous CPU work on the event loop: it
// checks the clock between steps and stops with RouteSearchTimeout past its budget, so no request
// can hold a worker for long, whatever pair or amount it names.

export interface SearchClock {
  /** Throws RouteSearchTimeout once the budget is spent. */
  check(): void;
}

export class RouteSearchTimeout extends Error {
  override name = 'RouteSearchTimeout';
  constructor(readonly budgetMs: number) {
    super(`the route search ran past its ${budgetMs} ms budget`);
  }
}

export const NO_TIME_LIMIT: SearchClock = { check() {} };

/**
 * Reads the clock on the first check and on every `stride`-th after it: a check sits between steps
 * of a few µs (one greedy 1% step) to tens of µs (one exact replay), and reading the clock on each
 * of a search's ~100 steps cost about a tenth of a route search. The bound overshoots by at most
 * `stride - 1` steps.
 */
export function searchClock(
  budgetMs: number,
  now: () => number = () => performance.now(),
  stride = 8,
): SearchClock {
  const deadline = now() + budgetMs;
  let checks = 0;
  return {
    check() {
      if (checks++ % stride === 0 && now() > deadline) throw new RouteSearchTimeout(budgetMs);
    },
  };
}
