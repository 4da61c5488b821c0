// What the popup's first render starts from: the preloaded popupStart answer (preload.ts), parsed
// with the protocol's schema: wallet, settings, quote session, swap and the session's tokens. main.tsx
// waits for it (capped) before the first render, so the first frame is the real screen, not
// "Loading…" followed by more rounds of effects. The session port brings every later change.
import { callBackground } from '@/lib/messaging/client';
import type { ResultOf } from '@/lib/messaging/protocol';
import { takePreloadedStart } from './preload';

export type PopupStart = ResultOf<'popupStart'>;

/** A started request: its value if it had already arrived, and the promise either way. */
export interface Booted<T> {
  value?: T;
  promise: Promise<T>;
}

let forApp: Booted<PopupStart> | null = null;
let forSwapScreen: Booted<PopupStart> | null = null;

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
 * Parses the preloaded answer; resolves when it is in (or failed), or after `maxWaitMs` (a slow
 * background then shows "Loading…" as before, never a blank popup for long).
 */
export function boot(maxWaitMs: number): Promise<void> {
  const raw = takePreloadedStart();
  const start = raw ? track(callBackground({ type: 'popupStart' }, raw)) : null;
  forApp = start;
  forSwapScreen = start;
  const answered = start
    ? start.promise.then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
  return Promise.race([answered, new Promise<void>((done) => setTimeout(done, maxWaitMs))]);
}

/** The booted start for the shell (wallet state), once. */
export function takeBootForApp(): Booted<PopupStart> | null {
  const taken = forApp;
  forApp = null;
  return taken;
}

/** The booted start for the swap screen's first mount (settings, the session's tokens), once. */
export function takeBootForSwapScreen(): Booted<PopupStart> | null {
  const taken = forSwapScreen;
  forSwapScreen = null;
  return taken;
}
