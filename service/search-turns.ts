// Route searches run in turns: the searches of the quote requests read in one pass of the event
// loop run back to back in one task (a `setImmediate` after the pass), not each between its own
// request's HTTP work. A search's code and the pools' data then stay warm in the CPU's caches from
// one search to the next: under load with every request a search, a quote cost the service ~95-115
// µs of CPU inside the HTTP stack against ~21-25 µs for the same search in a loop; in turns, ~60 µs
// (docs/PERFORMANCE.md). A lone request waits one `setImmediate` (microseconds). A turn hands the
// event loop back after `budgetMs` of searching, so a run of slow searches (each bounded by the
// policy's routeSearchMs) cannot hold every other request behind it.

interface Job {
  readonly search: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class SearchTurns {
  private queue: Job[] = [];
  private scheduled = false;
  /** Turns run and searches run (tests read them). */
  turns = 0;
  searches = 0;

  constructor(
    private readonly budgetMs = 4,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Runs `search` in the next turn; its result or its error, as a promise. */
  run<T>(search: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ search, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.turn);
      }
    });
  }

  private readonly turn = (): void => {
    this.turns += 1;
    const started = this.nowMs();
    let done = 0;
    while (done < this.queue.length) {
      const job = this.queue[done++] as Job;
      this.searches += 1;
      try {
        job.resolve(job.search());
      } catch (error) {
        job.reject(error);
      }
      if (this.nowMs() - started >= this.budgetMs) break;
    }
    this.queue = done === this.queue.length ? [] : this.queue.slice(done);
    if (this.queue.length > 0) setImmediate(this.turn);
    else this.scheduled = false;
  };
}

/** The process's turns (one event loop, one queue). */
export const routeSearchTurns = new SearchTurns();
