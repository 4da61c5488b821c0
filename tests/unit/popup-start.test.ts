// The popup's start-up, view side (entrypoints/popup/start.ts): the one reader of what send-first.ts
// sent (the popupStart answer, the buffered quote-session port).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { PreloadedPort } from '@/entrypoints/popup/preload';
import { bootPopup, latestOf, takeSessionStart, takeStart } from '@/entrypoints/popup/start';
import { SessionPortMessageSchema } from '@/lib/messaging/protocol';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { INITIAL_SESSION_STATE } from '@/lib/state/session-state';

const KEY = '__swaplanePopupPreload';
const holder = globalThis as { [KEY]?: { start: Promise<unknown> | null; port: PreloadedPort | null } };

const WALLET = { status: 'none', accounts: [], activeId: null, lockAt: null, vaultError: null } as const;
const SESSION = { ...INITIAL_SESSION_STATE, revision: 3 };
const ANSWER = { wallet: WALLET, settings: DEFAULT_SETTINGS, session: SESSION, swap: null, tokens: null };

function preloaded(start: Promise<unknown> | null, messages: unknown[] = []): PreloadedPort {
  const port = { messages, disconnected: false, release: vi.fn(), port: {} as PreloadedPort['port'] };
  holder[KEY] = { start, port };
  return port;
}

beforeEach(() => {
  fakeBrowser.reset();
  delete holder[KEY];
});
afterEach(() => {
  delete holder[KEY];
});

describe('bootPopup and takeStart', () => {
  it('parses the preloaded answer once, for the first mount of each reader', async () => {
    preloaded(Promise.resolve({ ok: true, result: ANSWER }));
    await bootPopup(1_000);
    const app = takeStart('app');
    expect(app?.value?.wallet.status).toBe('none');
    expect(takeStart('swapScreen')?.value?.session.revision).toBe(3);
    // A later mount reads the live state instead.
    expect(takeStart('app')).toBeNull();
    expect(takeStart('swapScreen')).toBeNull();
  });

  it('sends popupStart itself when no script did', async () => {
    const sendMessage = vi
      .spyOn(fakeBrowser.runtime, 'sendMessage')
      .mockImplementation((() => Promise.resolve({ ok: true, result: ANSWER })) as never);
    vi.spyOn(fakeBrowser.runtime, 'connect').mockImplementation(() => {
      throw new Error('no port here');
    });
    await bootPopup(1_000);
    expect(sendMessage).toHaveBeenCalledWith({ type: 'popupStart' });
    expect(takeStart('app')?.value?.settings.slippage).toBe(DEFAULT_SETTINGS.slippage);
  });

  it('waits at most maxWaitMs, and a failed answer leaves the promise rejected for the reader', async () => {
    let fail: (error: Error) => void = () => undefined;
    preloaded(new Promise((_, reject) => (fail = reject)));
    await bootPopup(5); // resolves on the cap
    const started = takeStart('app');
    expect(started?.value).toBeUndefined();
    fail(new Error('worker gone'));
    await expect(started?.promise).rejects.toThrow(/did not answer/);
  });

  it('an unreadable answer is refused, not trusted', async () => {
    preloaded(Promise.resolve({ ok: true, result: { wallet: 'yes' } }));
    await bootPopup(1_000);
    await expect(takeStart('app')?.promise).rejects.toThrow(/cannot read/);
  });
});

describe('takeSessionStart', () => {
  it('hands over the buffered port once, its newest states over the start', () => {
    const newer = { ...SESSION, revision: 5 };
    const port = preloaded(null, [
      { type: 'state', state: { ...SESSION, revision: 4 } },
      { type: 'state', state: newer },
      { type: 'nonsense' },
    ]);
    const start = takeSessionStart({ session: SESSION, swap: null });
    expect(start.port).toBe(port);
    expect(start.latest.session?.revision).toBe(5);
    expect(start.latest.swap).toBeNull();
    expect(start.seen).toBe(3);
    expect(takeSessionStart(null).port).toBeNull();
  });

  it("takes the port's repeat of the booted session as parsed, and parses a changed one", async () => {
    preloaded(Promise.resolve({ ok: true, result: ANSWER }), [{ type: 'state', state: { ...SESSION } }]);
    await bootPopup(1_000);
    const booted = takeStart('swapScreen')?.value ?? null;
    const parse = vi.spyOn(SessionPortMessageSchema, 'safeParse');
    const start = takeSessionStart(booted);
    expect(start.latest.session).toBe(booted?.session);
    expect(parse).not.toHaveBeenCalled();

    const changed = { ...SESSION, status: 'loading' };
    preloaded(Promise.resolve({ ok: true, result: ANSWER }), [{ type: 'state', state: changed }]);
    await bootPopup(1_000);
    const again = takeSessionStart(takeStart('swapScreen')?.value ?? null);
    expect(again.latest.session?.status).toBe('loading');
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockRestore();
  });

  it('keeps the start when the port said nothing yet', () => {
    preloaded(null, []);
    expect(takeSessionStart({ session: SESSION, swap: null }).latest.session).toBe(SESSION);
  });
});

describe('latestOf', () => {
  it('reads the newest valid message of each kind and ignores what does not parse', () => {
    const latest = latestOf(
      [{ type: 'state', state: SESSION }, { type: 'state', state: { broken: true } }, null],
      { session: null, swap: null },
    );
    expect(latest.session?.revision).toBe(3);
  });
});
