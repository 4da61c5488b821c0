import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { QUOTE_SESSION_PORT } from '@/lib/messaging/protocol';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { latestOf, type SessionAndSwap, takeSessionStart } from '../start';

const RECONNECT_MS = 500;

type Port = ReturnType<typeof browser.runtime.connect>;
const NOTHING: SessionAndSwap = { session: null, swap: null };

/**
 * Follows the background's quote session through a port: the current state arrives at once.
 * If the worker stops, the port drops; reconnecting wakes the worker, which restores the session.
 * The first mount takes the port the popup opened before its bundle was evaluated, with what it
 * already received, and starts from `booted` (the popupStart answer) until the port says more
 * (both through start.ts): port messages come in order, so the latest one is never older than what it replaces.
 */
export function useQuoteSession(booted: SessionAndSwap | null = null): SessionAndSwap {
  // The start-up module's port and state (start.ts), taken once at mount.
  const [initial] = useState(() => takeSessionStart(booted));
  const preloaded = initial.port;
  const [state, setState] = useState<QuoteSessionState | null>(initial.latest.session);
  const [swap, setSwap] = useState<SwapState | null>(initial.latest.swap);
  useEffect(() => {
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let port: Port | undefined;
    const follow = (next: Port) => {
      port = next;
      next.onMessage.addListener((message: unknown) => {
        const latest = latestOf([message], NOTHING);
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
      const later = latestOf(preloaded.messages.slice(initial.seen), NOTHING);
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

/**
 * Re-renders every second while `active`, for countdowns. The time returned is read at render, not
 * kept from the last tick: a countdown that becomes active (a quote arrives) starts from the real
 * time, never from when the popup opened (which showed 105 s, then 12 s a second later).
 */
export function useNow(active: boolean): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((tick) => tick + 1), 1_000);
    return () => clearInterval(timer);
  }, [active]);
  return Date.now();
}
