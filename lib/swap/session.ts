// The background's quote session: one current quote, owned by the background so it outlives
// the popup. It debounces input, cancels superseded requests, verifies every quote against
// its request, refreshes on a bounded policy while a view watches, and persists its state
// so a restarted service worker picks up where it was.
import { RateLimitedError } from '@/lib/api/errors';
import type { Quote, QuoteRequest } from '@/lib/api/schema';
import {
  INITIAL_SESSION_STATE,
  type QuoteInput,
  type QuoteSessionState,
  type UserMessage,
} from '@/lib/state/session-state';
import { requestFor } from './request';
import { QUOTE_LIFETIME_MS } from './review';
import { verifyFailureMessage, verifyQuote } from './verify';

export interface QuotePolicy {
  /** Wait this long after the last input change before asking the service. */
  debounceMs: number;
  /** Refresh a ready quote this often while a view watches. */
  refreshMs: number;
  /** Stop refreshing after this many refreshes of the same input (a user who left the popup open). */
  maxRefreshes: number;
  /** A quote older than this is stale: it may not be executed without a refresh. */
  staleAfterMs: number;
}

/** Why the quote went stale when a /v1/build said it is outdated (the review's or the fee probe's). */
export const QUOTE_OUTDATED_REASON = 'The price moved: review the new quote.';

export const DEFAULT_QUOTE_POLICY: QuotePolicy = {
  debounceMs: 350,
  refreshMs: 15_000,
  maxRefreshes: 20,
  staleAfterMs: QUOTE_LIFETIME_MS,
};

export interface QuoteSessionDeps {
  quote(
    request: QuoteRequest,
    options: { signal: AbortSignal; onWait?: (seconds: number) => void },
  ): Promise<{ quote: Quote; timestamp: string }>;
  /** A human message for any error of the API client. */
  describeError(error: unknown): UserMessage;
  refCode?: () => number | undefined;
  persist(state: QuoteSessionState): Promise<void>;
  onChange?(state: QuoteSessionState): void;
  policy?: Partial<QuotePolicy>;
  now?: () => number;
}

export interface QuoteSession {
  getState(): QuoteSessionState;
  /** How long a received quote may be executed (then the session marks it stale). */
  readonly quoteLifetimeMs: number;
  /** New input from a view; `null` clears the session. */
  setInput(input: QuoteInput | null): void;
  /** The user typed but has not finished: hold refreshes until setInput arrives. */
  markTyping(): void;
  /** Ask for a fresh quote now (the refresh button, or a stale quote before executing). */
  refreshNow(): void;
  /** A view started (or stopped) watching; refreshes run only while one does. */
  watch(): () => void;
  /** Resume after a worker restart from a persisted state. */
  restore(state: QuoteSessionState): void;
  /**
   * A review is open on the current quote: no automatic refresh replaces it until `untilMs` or the
   * release (the user's own actions — new input, the refresh button — still do).
   */
  hold(untilMs: number): () => void;
  /** The service said the quote is outdated (build 400): mark stale and fetch anew. */
  markOutdated(reason: string): void;
  dispose(): void;
}

export function createQuoteSession(deps: QuoteSessionDeps): QuoteSession {
  return new QuoteSessionMachine(deps);
}

type Timer = ReturnType<typeof setTimeout> | undefined;

/** The session's state and timers; each method is one thing a view or the background does. */
class QuoteSessionMachine implements QuoteSession {
  readonly #policy: QuotePolicy;
  readonly #now: () => number;
  #state: QuoteSessionState = { ...INITIAL_SESSION_STATE };
  #watchers = 0;
  #debounceTimer: Timer;
  #refreshTimer: Timer;
  #staleTimer: Timer;
  #holdTimer: Timer;
  #inFlight: AbortController | undefined;
  #disposed = false;
  #heldUntil = 0;

  readonly #deps: QuoteSessionDeps;

  constructor(deps: QuoteSessionDeps) {
    this.#deps = deps;
    this.#policy = { ...DEFAULT_QUOTE_POLICY, ...deps.policy };
    this.#now = deps.now ?? Date.now;
  }

  #held(): boolean {
    return this.#now() < this.#heldUntil;
  }

  #update(patch: Partial<QuoteSessionState>): void {
    this.#state = { ...this.#state, ...patch };
    this.#deps.onChange?.(this.#state);
    this.#deps.persist(this.#state).catch(() => undefined); // a failed write only costs resumability
  }

  #clearTimers(): void {
    clearTimeout(this.#debounceTimer);
    clearTimeout(this.#refreshTimer);
    clearTimeout(this.#staleTimer);
    this.#debounceTimer = this.#refreshTimer = this.#staleTimer = undefined;
  }

  #cancelInFlight(): void {
    this.#inFlight?.abort();
    this.#inFlight = undefined;
  }

  #scheduleStale(receivedAt: number): void {
    clearTimeout(this.#staleTimer);
    const delay = Math.max(0, receivedAt + this.#policy.staleAfterMs - this.#now());
    this.#staleTimer = setTimeout(() => {
      if (this.#state.status === 'ready')
        this.#update({
          status: 'stale',
          staleReason: 'The quote is too old to execute.',
          nextRefreshAt: null,
        });
    }, delay);
  }

  /**
   * Arms (or disarms) the next refresh for the state as `patch` leaves it, and applies `patch` and
   * the new refresh time in one update (one message to the views, one write), or none if nothing changed.
   */
  #scheduleRefresh(patch: Partial<QuoteSessionState> = {}, notBeforeMs = 0): void {
    clearTimeout(this.#refreshTimer);
    this.#refreshTimer = undefined;
    const after = { ...this.#state, ...patch };
    const canRefresh =
      this.#watchers > 0 &&
      after.input !== null &&
      after.refreshCount < this.#policy.maxRefreshes &&
      !this.#held();
    let next: number | null = null;
    if (canRefresh && (after.status === 'ready' || after.status === 'error')) {
      next = Math.max((after.receivedAt ?? this.#now()) + this.#policy.refreshMs, this.#now() + notBeforeMs);
      this.#refreshTimer = setTimeout(() => this.#fetchQuote(true), Math.max(0, next - this.#now()));
    }
    const changes = this.#state.nextRefreshAt === next ? patch : { ...patch, nextRefreshAt: next };
    if (Object.keys(changes).length > 0) this.#update(changes);
  }

  /** `resetCount`: the refresh budget starts over, in the same update as `loading`. */
  async #fetchQuote(isRefresh: boolean, resetCount = false): Promise<void> {
    const input = this.#state.input;
    if (!input || this.#disposed) return;
    this.#cancelInFlight();
    clearTimeout(this.#refreshTimer);
    const controller = new AbortController();
    this.#inFlight = controller;
    const revision = this.#state.revision;
    const request = requestFor(input, this.#deps.refCode?.());
    this.#update({
      status: 'loading',
      error: null,
      busyRetryAt: null,
      nextRefreshAt: null,
      refreshCount: (resetCount ? 0 : this.#state.refreshCount) + (isRefresh ? 1 : 0),
    });
    try {
      const onWait = (seconds: number) => {
        if (controller.signal.aborted || revision !== this.#state.revision) return;
        this.#update({ busyRetryAt: this.#now() + seconds * 1000 });
      };
      const { quote, timestamp } = await this.#deps.quote(request, { signal: controller.signal, onWait });
      if (controller.signal.aborted || revision !== this.#state.revision) return; // superseded
      const consistent = verifyQuote(request, quote);
      if (!consistent.ok) {
        this.#scheduleRefresh({
          status: 'error',
          quote: null,
          busyRetryAt: null,
          error: verifyFailureMessage(consistent.reason),
        });
        return;
      }
      const receivedAt = this.#now();
      this.#scheduleStale(receivedAt);
      this.#scheduleRefresh({
        status: 'ready',
        quote,
        quotedAt: timestamp,
        receivedAt,
        staleReason: null,
        error: null,
        busyRetryAt: null,
      });
    } catch (error) {
      if (controller.signal.aborted || revision !== this.#state.revision) return;
      // Keep the previous quote visible only as stale context; it is never executable after an error.
      // A 429 not waited out (too long, or twice) also holds the next refresh until the service allows it.
      const notBeforeMs = error instanceof RateLimitedError ? (error.retryAfterSeconds ?? 0) * 1000 : 0;
      this.#scheduleRefresh(
        { status: 'error', quote: null, busyRetryAt: null, error: this.#deps.describeError(error) },
        notBeforeMs,
      );
    } finally {
      if (this.#inFlight === controller) this.#inFlight = undefined;
    }
  }

  get quoteLifetimeMs(): number {
    return this.#policy.staleAfterMs;
  }

  getState(): QuoteSessionState {
    return this.#state;
  }

  setInput(input: QuoteInput | null): void {
    this.#heldUntil = 0; // the user moved on from the review
    this.#cancelInFlight();
    this.#clearTimers();
    if (input === null) {
      this.#update({ ...INITIAL_SESSION_STATE, revision: this.#state.revision + 1 });
      return;
    }
    this.#update({
      revision: this.#state.revision + 1,
      status: 'debouncing',
      input,
      quote: null,
      quotedAt: null,
      receivedAt: null,
      nextRefreshAt: null,
      refreshCount: 0,
      error: null,
      staleReason: null,
    });
    this.#debounceTimer = setTimeout(() => this.#fetchQuote(false), this.#policy.debounceMs);
  }

  markTyping(): void {
    clearTimeout(this.#refreshTimer);
    this.#refreshTimer = undefined;
    if (this.#state.nextRefreshAt !== null) this.#update({ nextRefreshAt: null });
  }

  refreshNow(): void {
    if (!this.#state.input) return;
    this.#heldUntil = 0;
    this.#clearTimers();
    void this.#fetchQuote(false, true); // one update: loading, with the budget reset
  }

  watch(): () => void {
    this.#watchers++;
    const state = this.#state;
    const isOld = state.receivedAt !== null && this.#now() - state.receivedAt >= this.#policy.refreshMs;
    if (this.#held()) {
      // A review is open on this quote: the view sees it as it was reviewed.
    } else if (state.input && (state.status === 'stale' || (state.status === 'ready' && isOld))) {
      // A view came back to an old quote: refresh now rather than show an expired one.
      void this.#fetchQuote(true, true); // one update: loading, with the budget reset
    } else if (state.status === 'ready' || state.status === 'error') {
      // A popup opening: one update to every view and one write, not one per field (none if
      // nothing changed; the background sends the state to the new view anyway).
      const reset = state.refreshCount === 0 ? {} : { refreshCount: 0 };
      this.#state = { ...state, refreshCount: 0 };
      this.#scheduleRefresh(reset);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#watchers--;
      if (this.#watchers === 0) this.#scheduleRefresh();
    };
  }

  restore(saved: QuoteSessionState): void {
    this.#clearTimers();
    this.#cancelInFlight();
    this.#state = saved;
    if (!saved.input) return;
    if (saved.status === 'debouncing' || saved.status === 'loading') {
      // The worker stopped mid-request: ask again rather than leave a spinner.
      void this.#fetchQuote(false);
    } else if (saved.status === 'ready' && saved.receivedAt !== null) {
      if (this.#now() - saved.receivedAt >= this.#policy.staleAfterMs) {
        this.#update({
          status: 'stale',
          staleReason: 'The quote is too old to execute.',
          nextRefreshAt: null,
        });
      } else {
        this.#scheduleStale(saved.receivedAt);
        this.#scheduleRefresh();
      }
    }
  }

  hold(untilMs: number): () => void {
    this.#heldUntil = untilMs;
    clearTimeout(this.#refreshTimer);
    this.#refreshTimer = undefined;
    clearTimeout(this.#holdTimer);
    if (this.#state.nextRefreshAt !== null) this.#update({ nextRefreshAt: null });
    const release = () => {
      if (this.#heldUntil !== untilMs) return; // a later hold replaced this one
      this.#heldUntil = 0;
      clearTimeout(this.#holdTimer);
      if (!this.#disposed) this.#scheduleRefresh();
    };
    this.#holdTimer = setTimeout(release, Math.max(0, untilMs - this.#now()));
    return release;
  }

  markOutdated(reason: string): void {
    if (!this.#state.input) return;
    this.#update({ status: 'stale', staleReason: reason, nextRefreshAt: null });
    void this.#fetchQuote(false);
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#holdTimer);
    this.#clearTimers();
    this.#cancelInFlight();
  }
}
