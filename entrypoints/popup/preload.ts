// The popup's first requests, sent as the first thing of the popup's own chunk: the wallet state, the
// default chain's (cached) token list and the quote-session port, all at once, instead of one after
// the other from the effects of successive renders. (The shared chunk, preact and zod, is evaluated
// before any of the popup's code.) Raw answers only: boot.ts parses them with the protocol's schemas.
import { browser } from 'wxt/browser';

/** The chain the swap screen starts on (SwapScreen's DEFAULT_CHAIN_ID). */
export const PRELOAD_CHAIN_ID = 1;
/** QUOTE_SESSION_PORT of lib/messaging/protocol.ts, not imported: that module builds zod schemas. */
export const PRELOAD_PORT_NAME = 'quote-session';

type Port = ReturnType<typeof browser.runtime.connect>;

export interface PreloadedPort {
  port: Port;
  /** Messages received while buffering, oldest first (it keeps growing until `release`). */
  messages: unknown[];
  disconnected: boolean;
  /** Stops buffering: call once the taker's own listeners are on the port. */
  release(): void;
}

interface Preload {
  wallet: Promise<unknown> | null;
  tokenList: Promise<unknown> | null;
  port: PreloadedPort | null;
  firstPortMessage: Promise<void>;
}

let preload: Preload | null = null;

/** Sends now, synchronously: a microtask would wait until the whole bundle was evaluated. */
function send(request: unknown): Promise<unknown> {
  let answer: Promise<unknown>;
  try {
    answer = browser.runtime.sendMessage(request);
  } catch (error) {
    answer = Promise.reject(error);
  }
  answer.catch(() => undefined); // the taker sees the failure; never an unhandled rejection
  return answer;
}

export function startPreload(): void {
  if (preload) return;
  let first: () => void = () => undefined;
  const firstPortMessage = new Promise<void>((resolve) => {
    first = resolve;
  });
  let port: Preload['port'] = null;
  try {
    const connected = browser.runtime.connect({ name: PRELOAD_PORT_NAME });
    const held: PreloadedPort = {
      port: connected,
      messages: [],
      disconnected: false,
      release() {
        connected.onMessage.removeListener(onMessage);
        connected.onDisconnect.removeListener(onDisconnect);
      },
    };
    const onMessage = (message: unknown) => {
      held.messages.push(message);
      first();
    };
    const onDisconnect = () => {
      held.disconnected = true;
      first();
    };
    connected.onMessage.addListener(onMessage);
    connected.onDisconnect.addListener(onDisconnect);
    port = held;
  } catch {
    first();
  }
  preload = {
    wallet: send({ type: 'walletState' }),
    tokenList: send({ type: 'getTokenList', chainId: PRELOAD_CHAIN_ID }),
    port,
    firstPortMessage,
  };
}

/** The raw answer of a preloaded request, once (later callers send their own). */
export function takePreloaded(key: 'wallet' | 'tokenList'): Promise<unknown> | undefined {
  const answer = preload?.[key] ?? undefined;
  if (preload) preload[key] = null;
  return answer;
}

/** The preloaded session port, once, still buffering until the taker calls `release`. */
export function takePreloadedPort(): PreloadedPort | null {
  const taken = preload?.port ?? null;
  if (preload) preload.port = null;
  return taken;
}

/** Settles when the session port delivered its first message (or dropped); at once without preload. */
export function preloadedPortSettled(): Promise<void> {
  return preload?.firstPortMessage ?? Promise.resolve();
}
