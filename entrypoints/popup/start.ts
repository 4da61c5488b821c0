// The popup's start-up, view side, in one place. send-first.ts (through preload.ts) sends
// `popupStart` and opens the quote-session port before the rest of the modules evaluate; this
// module is the only reader of both. `bootPopup` (main.tsx) parses the answer before the first
// render (capped), `takeStart` hands it to the first mount of each reader, and `takeSessionStart`
// hands over the port with what it buffered, merged with the answer's session and swap, so the same
// state never arrives by two roads. Every later change comes through the port (useQuoteSession).
import { callBackground } from '@/lib/messaging/client';
import { type ResultOf, SessionPortMessageSchema } from '@/lib/messaging/protocol';
import type { SwapState } from '@/lib/state/pipeline-state';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { type PreloadedPort, startPreload, takePreloadedPort, takePreloadedStart } from './preload';

export type PopupStart = ResultOf<'popupStart'>;
export type SessionAndSwap = { session: QuoteSessionState | null; swap: SwapState | null };

/** A started request: its value if it had already arrived, and the promise either way. */
export interface Booted<T> {
  value?: T;
  promise: Promise<T>;
}

/** Who reads the start: the shell (wallet state) and the swap screen (settings, session, tokens). */
export type StartReader = 'app' | 'swapScreen';

let started: Booted<PopupStart> | null = null;
/** The session of the raw popupStart answer, as sent: what the port's first message repeats. */
let startedRawSession: unknown;
const untaken = new Set<StartReader>();

function track<T>(promise: Promise<T>): Booted<T> {
  const booted: Booted<T> = { promise };
  promise.then(
    (value) => {
      booted.value = value;
    },
    () => undefined,
  );
  return booted;
}

/**
 * Parses the preloaded popupStart answer (sending it now if no script did); resolves when it is in
 * (or failed), or after `maxWaitMs` (a slow background then shows "Loading…", never a blank popup).
 */
export function bootPopup(maxWaitMs: number): Promise<void> {
  startPreload(); // does nothing when send-first.ts already sent it
  const raw = takePreloadedStart();
  startedRawSession = undefined;
  raw?.then(
    (answer) => {
      startedRawSession = (answer as { result?: { session?: unknown } } | null)?.result?.session;
    },
    () => undefined,
  );
  started = raw ? track(callBackground({ type: 'popupStart' }, raw)) : null;
  untaken.clear();
  if (started) for (const reader of ['app', 'swapScreen'] as const) untaken.add(reader);
  const answered = started
    ? started.promise.then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
  return Promise.race([answered, new Promise<void>((done) => setTimeout(done, maxWaitMs))]);
}

/** The booted start for `reader`'s first mount, once (a later mount reads the live state). */
export function takeStart(reader: StartReader): Booted<PopupStart> | null {
  if (!untaken.delete(reader)) return null;
  return started;
}

/** A session state already parsed, with the JSON it was parsed from. */
export interface KnownSession {
  json: string;
  state: QuoteSessionState;
}

/**
 * The latest session and swap states among port messages (unparseable ones ignored), over `start`.
 * Read from the newest back, so a burst of buffered messages costs one parse per kind. A session
 * state whose JSON is `known`'s is taken as parsed: the port's first message repeats the session
 * popupStart answered, and the start would otherwise parse the same object twice.
 */
export function latestOf(
  messages: readonly unknown[],
  start: SessionAndSwap,
  known?: KnownSession,
): SessionAndSwap {
  const latest = { ...start };
  let session = false;
  let swap = false;
  for (let i = messages.length - 1; i >= 0 && !(session && swap); i--) {
    const kind = (messages[i] as { type?: unknown } | null)?.type;
    if ((kind === 'swap' && swap) || (kind === 'state' && session)) continue;
    if (
      kind === 'state' &&
      known &&
      JSON.stringify((messages[i] as { state?: unknown }).state) === known.json
    ) {
      latest.session = known.state;
      session = true;
      continue;
    }
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

export interface SessionStart {
  /** The preloaded port, still buffering until the taker calls `release`; null: connect anew. */
  port: PreloadedPort | null;
  /** The start's session and swap, overridden by what the port already said (it is newer). */
  latest: SessionAndSwap;
  /** How many buffered messages `latest` covers; later ones are read after `release`. */
  seen: number;
}

/** The quote session's start for the first follower: the preloaded port and the newest state known. */
export function takeSessionStart(start: SessionAndSwap | null): SessionStart {
  const port = takePreloadedPort();
  const messages = port?.messages ?? [];
  // The booted answer's session, parsed, with the JSON it came as (only for that very start).
  const booted = start?.session && start.session === started?.value?.session ? start.session : null;
  const known =
    booted && startedRawSession !== undefined
      ? { json: JSON.stringify(startedRawSession), state: booted }
      : undefined;
  return {
    port,
    latest: latestOf(messages, start ?? { session: null, swap: null }, known),
    seen: messages.length,
  };
}
