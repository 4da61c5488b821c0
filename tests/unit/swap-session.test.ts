import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSwapApiClient } from '@/lib/api/client';
import { userMessageFor } from '@/lib/api/messages';
import { INITIAL_SESSION_STATE, type QuoteInput, type QuoteSessionState } from '@/lib/state/session-state';
import { createQuoteSession, type QuotePolicy, type QuoteSession } from '@/lib/swap/session';
import { USDC, WETH } from '../support/addresses';
import { startTestService, type TestService } from '../support/test-service';

const input = (inAmount: string): QuoteInput => ({
  chainId: 1,
  inToken: WETH,
  outToken: USDC,
  inAmount,
  slippage: 0.5,
});

// Real HTTP and real timers with short intervals; assertions are about order and counts, not time.
const FAST: QuotePolicy = { debounceMs: 40, refreshMs: 250, maxRefreshes: 2, staleAfterMs: 600 };

let service: TestService;
let session: QuoteSession;
let persisted: QuoteSessionState[];

function makeSession(
  policy: Partial<QuotePolicy> = FAST,
  retry: false | { attempts: number } = false,
): QuoteSession {
  const client = createSwapApiClient({ baseUrl: service.url, retry, timeoutMs: 2_000 });
  persisted = [];
  return createQuoteSession({
    quote: (request, options) => client.quote(request, options),
    describeError: userMessageFor,
    persist: async (state) => {
      persisted.push(state);
    },
    policy,
  });
}

const quoteHits = () => service.hits.filter((hit) => hit.path === '/v1/quote');

beforeEach(async () => {
  service = await startTestService({ tokens: {} });
});
afterEach(async () => {
  session?.dispose();
  await service.close();
});

describe('quote session', () => {
  it('debounces typing into one request and shows a verified quote', async () => {
    session = makeSession();
    for (const amount of ['1', '12', '123', '1234']) session.setInput(input(amount));
    expect(session.getState().status).toBe('debouncing');
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    expect(quoteHits()).toHaveLength(1);
    expect(quoteHits()[0]?.body).toMatchObject({ inAmount: '1234' });
    expect(session.getState().quote?.outAmount).toBe('2468');
    expect(persisted.at(-1)?.status).toBe('ready');
  });

  it('cancels a superseded request and never shows its answer', async () => {
    service.behaviour.quoteDelayMs = 300;
    session = makeSession();
    session.setInput(input('5'));
    await vi.waitFor(() => expect(session.getState().status).toBe('loading'));
    session.setInput(input('7'));
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'), { timeout: 3_000 });
    expect(session.getState().quote?.inAmount).toBe('7');
    expect(persisted.some((state) => state.quote?.inAmount === '5')).toBe(false);
  });

  it('refreshes while a view watches, stops at the budget, and goes stale', async () => {
    session = makeSession();
    const release = session.watch();
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    expect(session.getState().nextRefreshAt).not.toBeNull();
    await vi.waitFor(() => expect(session.getState().refreshCount).toBe(2), { timeout: 3_000 });
    await vi.waitFor(() => expect(session.getState().status).toBe('stale'), { timeout: 3_000 });
    expect(quoteHits()).toHaveLength(3); // first quote + maxRefreshes
    expect(session.getState().nextRefreshAt).toBeNull();
    release();
  });

  it('does not refresh while nobody watches, and refreshes an old quote when a view returns', async () => {
    session = makeSession({ ...FAST, staleAfterMs: 5_000 });
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    expect(session.getState().nextRefreshAt).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, FAST.refreshMs + 100));
    expect(quoteHits()).toHaveLength(1);
    const release = session.watch();
    await vi.waitFor(() => expect(quoteHits()).toHaveLength(2));
    release();
  });

  it('a view opening on a fresh quote costs one update (one message to views, one write)', async () => {
    session = makeSession({ ...FAST, refreshMs: 60_000 });
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    const before = persisted.length;
    const release = session.watch();
    expect(persisted).toHaveLength(before + 1);
    expect(persisted.at(-1)).toMatchObject({ status: 'ready', refreshCount: 0 });
    expect(persisted.at(-1)?.nextRefreshAt).toBe((session.getState().receivedAt ?? 0) + 60_000);
    // Nothing changed for a second view: no update at all.
    const second = session.watch();
    expect(persisted).toHaveLength(before + 1);
    second();
    release();
    expect(quoteHits()).toHaveLength(1);
  });

  it('a quote while a view watches costs one update per state change: input, loading, ready (with its refresh time)', async () => {
    session = makeSession({ ...FAST, refreshMs: 60_000 });
    const release = session.watch();
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    expect(persisted.map((state) => state.status)).toEqual(['debouncing', 'loading', 'ready']);
    expect(persisted.at(-1)?.nextRefreshAt).toBe((session.getState().receivedAt ?? 0) + 60_000);
    release();
  });

  it('the refresh button costs one update before its quote: loading, with the refresh budget reset', async () => {
    session = makeSession({ ...FAST, refreshMs: 60_000 });
    const release = session.watch();
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    const before = persisted.length;
    session.refreshNow();
    expect(persisted.slice(before).map((state) => state.status)).toEqual(['loading']);
    expect(persisted.at(-1)?.refreshCount).toBe(0);
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    expect(persisted.slice(before).map((state) => state.status)).toEqual(['loading', 'ready']);
    release();
  });

  it('pauses refreshes while the user types', async () => {
    session = makeSession();
    const release = session.watch();
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    session.markTyping();
    expect(session.getState().nextRefreshAt).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, FAST.refreshMs + 100));
    expect(quoteHits()).toHaveLength(1);
    release();
  });

  it('refuses a quote that does not answer the request', async () => {
    service.behaviour.tamper = (quote) => ({ ...quote, inAmount: '999' });
    session = makeSession();
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('error'));
    expect(session.getState().quote).toBeNull();
    expect(session.getState().error?.title).toBe('Quote is for a different amount');
  });

  it('refuses a quote whose minReceived is inconsistent with its slippage', async () => {
    service.behaviour.tamper = (quote) => ({ ...quote, minReceived: quote.outAmount });
    session = makeSession();
    session.setInput(input('1000'));
    await vi.waitFor(() => expect(session.getState().status).toBe('error'));
    expect(session.getState().error?.title).toBe('Minimum received does not match slippage');
  });

  it('turns a service error into a specific message and recovers on the next refresh', async () => {
    service.behaviour.quoteFailure = { status: 406, times: 1 };
    session = makeSession();
    const release = session.watch();
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('error'));
    expect(session.getState().error?.title).toBe('Slippage out of range');
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'), { timeout: 3_000 });
    release();
  });

  it('says "The swap service is busy, retrying in N s" while it waits out a 429, then shows the quote', async () => {
    service.behaviour.quoteFailure = { status: 429, times: 1, headers: { 'retry-after': '1' } };
    session = makeSession(FAST, { attempts: 0 });
    session.setInput(input('10'));
    await vi.waitFor(
      () => {
        expect(session.getState().status).toBe('ready');
      },
      { timeout: 3_000, interval: 20 },
    );
    const busy = persisted.find((state) => typeof state.busyRetryAt === 'number');
    expect(busy?.status).toBe('loading');
    expect(session.getState().busyRetryAt).toBeNull();
    expect(quoteHits()).toHaveLength(2);
  });

  it('a 429 it does not wait out (too long) is an error that holds the next refresh until allowed', async () => {
    service.behaviour.quoteFailure = { status: 429, times: 1, headers: { 'retry-after': '60' } };
    session = makeSession(FAST, { attempts: 0 });
    const release = session.watch();
    const before = Date.now();
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('error'));
    expect(session.getState().error?.title).toBe('The swap service is busy');
    expect(session.getState().nextRefreshAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(quoteHits()).toHaveLength(1);
    release();
  });

  it('resumes after a worker restart: an interrupted request is asked again, an old quote is stale', async () => {
    session = makeSession();
    session.restore({ ...INITIAL_SESSION_STATE, revision: 4, status: 'loading', input: input('3') });
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    expect(session.getState().revision).toBe(4);
    const saved = session.getState();
    session.dispose();

    session = makeSession();
    session.restore({ ...saved, receivedAt: Date.now() - 60_000 });
    expect(session.getState().status).toBe('stale');
  });

  it('marks an outdated quote stale and fetches a new one', async () => {
    session = makeSession();
    session.setInput(input('10'));
    await vi.waitFor(() => expect(session.getState().status).toBe('ready'));
    const firstBlock = session.getState().quote?.blockNumber;
    session.markOutdated('The service said the quote is outdated.');
    await vi.waitFor(() => expect(session.getState().quote?.blockNumber).not.toBe(firstBlock));
    expect(session.getState().status).toBe('ready');
  });

  it('clears everything on null input', async () => {
    session = makeSession();
    session.setInput(input('10'));
    session.setInput(null);
    expect(session.getState()).toMatchObject({ status: 'idle', input: null, quote: null });
    await new Promise((resolve) => setTimeout(resolve, FAST.debounceMs + 50));
    expect(quoteHits()).toHaveLength(0);
  });
});
