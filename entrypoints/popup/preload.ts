// The popup's first requests: what its first frame needs (popupStart) and the quote-session port,
// sent at once. The popup is one module file (wxt.config.ts builds it alone), and send-first.ts,
// the first module it evaluates, calls `startPreload`: they travel while zod's schemas and the
// screens' modules are still being evaluated (that alone takes longer than a whole empty popup).
// The state lives on `globalThis` so a second start (tests, a reload) finds what was sent. Raw
// answers only: start.ts, their one reader, parses them with the protocol's schemas (and sends
// them itself if nothing did).
import { browser } from 'wxt/browser';

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
  start: Promise<unknown> | null;
  port: PreloadedPort | null;
}

const KEY = '__swaplanePopupPreload';
type Holder = { [KEY]?: Preload };
const holder = globalThis as Holder;

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

function openPort(): PreloadedPort | null {
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
    };
    const onDisconnect = () => {
      held.disconnected = true;
    };
    connected.onMessage.addListener(onMessage);
    connected.onDisconnect.addListener(onDisconnect);
    return held;
  } catch {
    return null;
  }
}

/** Sends the first requests unless this page already did. */
export function startPreload(): void {
  if (holder[KEY]) return;
  performance.mark('swaplane:popup-start-sent');
  const start = send({ type: 'popupStart' });
  start.then(
    () => performance.mark('swaplane:popup-start-answered'),
    () => undefined,
  );
  holder[KEY] = {
    start,
    port: openPort(),
  };
  warmLocalStorage();
}

/**
 * The first `localStorage` access of a page loads the origin's storage from the browser, a
 * synchronous round trip (10-20 ms in the profile of a loaded machine). Done here, it overlaps
 * popupStart's round trip and the modules' loading; the holdings snapshot's read in the first
 * render (holdings-snapshot.ts) then finds it loaded.
 */
function warmLocalStorage(): void {
  try {
    void globalThis.localStorage?.length;
  } catch {
    // No storage (a sandboxed page): the snapshot's reader copes on its own.
  }
}

/** The raw popupStart answer, once (later callers send their own). */
export function takePreloadedStart(): Promise<unknown> | undefined {
  const preload = holder[KEY];
  const answer = preload?.start ?? undefined;
  if (preload) preload.start = null;
  return answer;
}

/** The preloaded session port, once, still buffering until the taker calls `release`. */
export function takePreloadedPort(): PreloadedPort | null {
  const preload = holder[KEY];
  const taken = preload?.port ?? null;
  if (preload) preload.port = null;
  return taken;
}
