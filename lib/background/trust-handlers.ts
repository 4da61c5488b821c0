// Handlers of the trust boundary (the review and what may be signed): previewSwap freezes the
// quote the user reviews; startSwap signs that quote or nothing (lib/swap/review-binding.ts).
import type { BackgroundServices } from './services';

export function trustHandlers(services: BackgroundServices) {
  return {
    previewSwap: ({ approvalMode }: { approvalMode: 'exact' | 'unlimited' }) =>
      services.swaps.preview(approvalMode),
    startSwap: ({
      approvalMode,
      routerConsent,
      quoteDigest,
      acknowledged,
    }: {
      approvalMode: 'exact' | 'unlimited';
      routerConsent?: string | undefined;
      quoteDigest?: string | undefined;
      acknowledged?: string[] | undefined;
    }) =>
      services.swaps.start({
        approvalMode,
        ...(routerConsent ? { routerConsent } : {}),
        ...(quoteDigest ? { quoteDigest } : {}),
        ...(acknowledged ? { acknowledged } : {}),
      }),
  };
}
