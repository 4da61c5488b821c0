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

export function searchClock(budgetMs: number, now: () => number = () => performance.now()): SearchClock {
  const deadline = now() + budgetMs;
  return {
    check() {
      if (now() > deadline) throw new RouteSearchTimeout(budgetMs);
    },
  };
}
