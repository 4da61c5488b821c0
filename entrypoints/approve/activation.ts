// The primary button's activation delay: off for a moment after each new request is shown and
// after each time the window gains focus or becomes visible, so a click (or the second half of a
// double click) meant for something else never approves what just appeared under the cursor.
import { useLayoutEffect, useState } from 'preact/hooks';

export const ACTIVATION_DELAY_MS = 1000;

/** Nothing armed yet (distinct from every key, null included). */
const NONE = Symbol('none');

export function useActivationDelay(key: string | null): boolean {
  // Armed for one key only: a new request is off in its very first frame, not only once an effect
  // has caught up (the previous request's "armed" must never carry over to the next one).
  const [armedFor, setArmedFor] = useState<string | null | typeof NONE>(NONE);
  // A layout effect: the second counts from the frame that shows the request, not the one after.
  useLayoutEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const restart = () => {
      setArmedFor(NONE);
      clearTimeout(timer);
      timer = setTimeout(() => setArmedFor(key), ACTIVATION_DELAY_MS);
    };
    restart();
    window.addEventListener('focus', restart);
    document.addEventListener('visibilitychange', restart);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('focus', restart);
      document.removeEventListener('visibilitychange', restart);
    };
  }, [key]);
  return armedFor === key;
}
