// The primary button's activation delay: off for a moment after each new request is shown and
// after each time the window gains focus or becomes visible, so a click (or the second half of a
// double click) meant for something else never approves what just appeared under the cursor.
import { useEffect, useState } from 'preact/hooks';

export const ACTIVATION_DELAY_MS = 1000;

export function useActivationDelay(key: string | null): boolean {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const restart = () => {
      setArmed(false);
      clearTimeout(timer);
      timer = setTimeout(() => setArmed(true), ACTIVATION_DELAY_MS);
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
  return armed;
}
