// A form action's busy flag and its one error line: the action's failure becomes the protocol's
// human message (messages.ts), never a raw error.
import { useState } from 'preact/hooks';
import { messageOf } from '../messages';

export function useAttempt() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, attempt };
}
