// The background's quote session: one current quote, owned by the background so it outlives
// the popup. It debounces input, cancels superseded requests, verifies every quote against
// its request, refreshes on a bounded policy while a view watches, and persists its state
// so a restarted service worker picks up where it was.
import type { Quote, QuoteRequest } from '@/lib/api/schema';
import {
  INITIAL_SESSION_STATE,
  type QuoteInput,
  type QuoteSessionState,
  type UserMessage,
} from '@/lib/state/session-state';
import { verifyFailureMessage, verifyMinReceived, verifyQuoteAnswersRequest } from './verify';

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

export const DEFAULT_QUOTE_POLICY: QuotePolicy = {
  debounceMs: 350,
  refreshMs: 15_000,
  maxRefreshes: 20,
  staleAfterMs: 30_000,
};

export interface QuoteSessionDeps {
  quote(
    request: QuoteRequest,
    options: { signal: AbortSignal },
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
  /** The service said the quote is outdated (build 400): mark stale and fetch anew. */
  markOutdated(reason: string): void;
  dispose(): void;
}

function requestOf(input: QuoteInput, refCode: number | undefined): QuoteRequest {
  const request: QuoteRequest = {
    chainId: input.chainId,
    inToken: input.inToken,
    outToken: input.outToken,
    inAmount: input.inAmount,
    slippage: input.slippage,
  };
  if (refCode !== undefined) request.refCode = refCode;
  return request;
}

export function createQuoteSession(deps: QuoteSessionDeps): QuoteSession {
  const policy: QuotePolicy = { ...DEFAULT_QUOTE_POLICY, ...deps.policy };
  const now = deps.now ?? Date.now;
  let state: QuoteSessionState = { ...INITIAL_SESSION_STATE };
  let watchers = 0;
  let debounceTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let staleTimer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let disposed = false;

  function update(patch: Partial<QuoteSessionState>): void {
    state = { ...state, ...patch };
    deps.onChange?.(state);
    deps.persist(state).catch(() => undefined); // a failed write only costs resumability
  }

  function clearTimers(): void {
    clearTimeout(debounceTimer);
    clearTimeout(refreshTimer);
    clearTimeout(staleTimer);
    debounceTimer = refreshTimer = staleTimer = undefined;
  }

  function cancelInFlight(): void {
    inFlight?.abort();
    inFlight = undefined;
  }

  function scheduleStale(receivedAt: number): void {
    clearTimeout(staleTimer);
    const delay = Math.max(0, receivedAt + policy.staleAfterMs - now());
    staleTimer = setTimeout(() => {
      if (state.status === 'ready')
        update({ status: 'stale', staleReason: 'The quote is too old to execute.', nextRefreshAt: null });
    }, delay);
  }

  /** Arms (or disarms) the next refresh; `patch` joins the same update (one message, one write). */
  function scheduleRefresh(patch: Partial<QuoteSessionState> = {}): void {
    clearTimeout(refreshTimer);
    refreshTimer = undefined;
    const canRefresh = watchers > 0 && state.input !== null && state.refreshCount < policy.maxRefreshes;
    let next: number | null = null;
    if (canRefresh && (state.status === 'ready' || state.status === 'error')) {
      next = (state.receivedAt ?? now()) + policy.refreshMs;
      refreshTimer = setTimeout(() => fetchQuote(true), Math.max(0, next - now()));
    }
    const changes = state.nextRefreshAt === next ? patch : { ...patch, nextRefreshAt: next };
    if (Object.keys(changes).length > 0) update(changes);
  }

  async function fetchQuote(isRefresh: boolean): Promise<void> {
    const input = state.input;
    if (!input || disposed) return;
    cancelInFlight();
    clearTimeout(refreshTimer);
    const controller = new AbortController();
    inFlight = controller;
    const revision = state.revision;
    const request = requestOf(input, deps.refCode?.());
    update({
      status: 'loading',
      error: null,
      nextRefreshAt: null,
      refreshCount: isRefresh ? state.refreshCount + 1 : state.refreshCount,
    });
    try {
      const { quote, timestamp } = await deps.quote(request, { signal: controller.signal });
      if (controller.signal.aborted || revision !== state.revision) return; // superseded
      const answers = verifyQuoteAnswersRequest(request, quote);
      const consistent = answers.ok ? verifyMinReceived(quote) : answers;
      if (!consistent.ok) {
        update({ status: 'error', quote: null, error: verifyFailureMessage(consistent.reason) });
        scheduleRefresh();
        return;
      }
      const receivedAt = now();
      update({ status: 'ready', quote, quotedAt: timestamp, receivedAt, staleReason: null, error: null });
      scheduleStale(receivedAt);
      scheduleRefresh();
    } catch (error) {
      if (controller.signal.aborted || revision !== state.revision) return;
      // Keep the previous quote visible only as stale context; it is never executable after an error.
      update({ status: 'error', quote: null, error: deps.describeError(error) });
      scheduleRefresh();
    } finally {
      if (inFlight === controller) inFlight = undefined;
    }
  }

  const session: QuoteSession = {
    getState: () => state,
    setInput(input) {
      cancelInFlight();
      clearTimers();
      if (input === null) {
        update({ ...INITIAL_SESSION_STATE, revision: state.revision + 1 });
        return;
      }
      update({
        revision: state.revision + 1,
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
      debounceTimer = setTimeout(() => fetchQuote(false), policy.debounceMs);
    },
    markTyping() {
      clearTimeout(refreshTimer);
      refreshTimer = undefined;
      if (state.nextRefreshAt !== null) update({ nextRefreshAt: null });
    },
    refreshNow() {
      if (!state.input) return;
      clearTimers();
      update({ refreshCount: 0 });
      void fetchQuote(false);
    },
    watch() {
      watchers++;
      const isOld = state.receivedAt !== null && now() - state.receivedAt >= policy.refreshMs;
      if (state.input && (state.status === 'stale' || (state.status === 'ready' && isOld))) {
        // A view came back to an old quote: refresh now rather than show an expired one.
        update({ refreshCount: 0 });
        void fetchQuote(true);
      } else if (state.status === 'ready' || state.status === 'error') {
        // A popup opening: one update to every view and one write, not one per field (none if
        // nothing changed; the background sends the state to the new view anyway).
        const reset = state.refreshCount === 0 ? {} : { refreshCount: 0 };
        state = { ...state, refreshCount: 0 };
        scheduleRefresh(reset);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        watchers--;
        if (watchers === 0) scheduleRefresh();
      };
    },
    restore(saved) {
      clearTimers();
      cancelInFlight();
      state = saved;
      if (!saved.input) return;
      if (saved.status === 'debouncing' || saved.status === 'loading') {
        // The worker stopped mid-request: ask again rather than leave a spinner.
        void fetchQuote(false);
      } else if (saved.status === 'ready' && saved.receivedAt !== null) {
        if (now() - saved.receivedAt >= policy.staleAfterMs) {
          update({ status: 'stale', staleReason: 'The quote is too old to execute.', nextRefreshAt: null });
        } else {
          scheduleStale(saved.receivedAt);
          scheduleRefresh();
        }
      }
    },
    markOutdated(reason) {
      if (!state.input) return;
      update({ status: 'stale', staleReason: reason, nextRefreshAt: null });
      void fetchQuote(false);
    },
    dispose() {
      disposed = true;
      clearTimers();
      cancelInFlight();
    },
  };
  return session;
}
