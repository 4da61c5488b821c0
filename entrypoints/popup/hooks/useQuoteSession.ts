import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { QUOTE_SESSION_PORT, SessionPortMessageSchema } from '@/lib/messaging/protocol';
import type { SwapState } from '@/lib/swap/pipeline-state';
import type { QuoteSessionState } from '@/lib/swap/session-state';

const RECONNECT_MS = 500;

/**
 * Follows the background's quote session through a port: the current state arrives at once.
 * If the worker stops, the port drops; reconnecting wakes the worker, which restores the session.
 */
export function useQuoteSession(): { session: QuoteSessionState | null; swap: SwapState | null } {
  const [state, setState] = useState<QuoteSessionState | null>(null);
  const [swap, setSwap] = useState<SwapState | null>(null);
  useEffect(() => {
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let port: ReturnType<typeof browser.runtime.connect> | undefined;
    const connect = () => {
      port = browser.runtime.connect({ name: QUOTE_SESSION_PORT });
      port.onMessage.addListener((message: unknown) => {
        const parsed = SessionPortMessageSchema.safeParse(message);
        if (!parsed.success) return;
        const data = parsed.data;
        if (data.type === 'swap') setSwap(data.state);
        else setState(data.state);
      });
      port.onDisconnect.addListener(() => {
        if (!closed) timer = setTimeout(connect, RECONNECT_MS);
      });
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      port?.disconnect();
    };
  }, []);
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
