import { useRef, useState } from 'preact/hooks';
import type { ConfirmRequest } from '@/components/ReviewSheet';
import { callBackground } from '@/lib/messaging/client';
import type { SwapState } from '@/lib/state/pipeline-state';
import { messageOf } from '../messages';

/** Starting a swap (Confirm, or the router consent that repeats the same request) and dismissing it. */
export function useSwapRun(swap: SwapState | null, onStarted: () => void) {
  const [error, setError] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  // The consent step repeats what was confirmed (approval mode, digest, acknowledgements).
  const lastConfirm = useRef<ConfirmRequest>({ approvalMode: 'exact', acknowledged: [] });
  const start = async (request: ConfirmRequest & { routerConsent?: string }) => {
    setError(null);
    lastConfirm.current = request;
    try {
      await callBackground({ type: 'startSwap', ...request });
      onStarted();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return {
    error,
    clearError: () => setError(null),
    start,
    consent: (router: string) => start({ ...lastConfirm.current, routerConsent: router }),
    active: swap && swap.id !== dismissed ? swap : null,
    dismiss: (id: string) => setDismissed(id),
  };
}
