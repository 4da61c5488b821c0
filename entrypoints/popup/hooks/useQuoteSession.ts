import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { QUOTE_SESSION_PORT, SessionPortMessageSchema } from '@/lib/messaging/protocol';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { type PreloadedPort, takePreloadedPort } from '../preload';

const RECONNECT_MS = 500;

type Port = ReturnType<typeof browser.runtime.connect>;
type Latest = { session: QuoteSessionState | null; swap: SwapState | null };

/**
 * The latest session and swap states among port messages (unparseable ones ignored). Read from the
 * newest back, so a burst of buffered messages costs one parse per kind, not one per message.
 */
function latestOf(messages: unknown[], start: Latest): Latest {
  const latest = { ...start };
  let session = false;
  let swap = false;
  for (let i = messages.length - 1; i >= 0 && !(session && swap); i--) {
    const kind = (messages[i] as { type?: unknown } | null)?.type;
    if ((kind === 'swap' && swap) || (kind === 'state' && session)) continue;
    const parsed = SessionPortMessageSchema.safeParse(messages[i]);
    if (!parsed.success) continue;
    if (parsed.data.type === 'swap') {
      latest.swap = parsed.data.state;
      swap = true;
    } else {
      latest.session = parsed.data.state;
      session = true;
    }
  }
  return latest;
}

/**
 * Follows the background's quote session through a port: the current state arrives at once.
 * If the worker stops, the port drops; reconnecting wakes the worker, which restores the session.
 * The first mount takes the port the popup opened before its bundle was evaluated (preload.ts),
 * with what it already received, and starts from `booted` (the popupStart answer) until the port
 * says more: port messages come in order, so the latest one is never older than what it replaces.
 */
export function useQuoteSession(booted: Latest | null = null): Latest {
  const [preloaded] = useState<PreloadedPort | null>(takePreloadedPort);
  const [initial] = useState(() => ({
    ...latestOf(preloaded?.messages ?? [], booted ?? { session: null, swap: null }),
    seen: preloaded?.messages.length ?? 0,
  }));
  const [state, setState] = useState<QuoteSessionState | null>(initial.session);
  const [swap, setSwap] = useState<SwapState | null>(initial.swap);
  useEffect(() => {
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let port: Port | undefined;
    const follow = (next: Port) => {
      port = next;
      next.onMessage.addListener((message: unknown) => {
        const latest = latestOf([message], { session: null, swap: null });
        if (latest.swap) setSwap(latest.swap);
        if (latest.session) setState(latest.session);
      });
      next.onDisconnect.addListener(() => {
        if (!closed) timer = setTimeout(connect, RECONNECT_MS);
      });
    };
    const connect = () => follow(browser.runtime.connect({ name: QUOTE_SESSION_PORT }));
    if (preloaded) {
      // Our listeners first, then stop buffering: nothing falls between the two.
      follow(preloaded.port);
      preloaded.release();
      const later = latestOf(preloaded.messages.slice(initial.seen), { session: null, swap: null });
      if (later.swap) setSwap(later.swap);
      if (later.session) setState(later.session);
      if (preloaded.disconnected && !closed) timer = setTimeout(connect, 0);
    } else connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      port?.disconnect();
    };
  }, [preloaded, initial]);
  return { session: state, swap };
}

/** Re-renders every second while `active`, for countdowns. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}
