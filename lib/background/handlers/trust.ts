// The trust boundary (the review and what may be signed): previewSwap freezes the quote the user
// reviews; startSwap signs that quote or nothing (lib/swap/review-binding.ts).
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

export function trustHandlers(
  services: BackgroundServices,
): Pick<Handlers, 'previewSwap' | 'startSwap' | 'walletChangePassword'> {
  return {
    walletChangePassword: (request) => services.wallet.changePassword(request),
    previewSwap: ({ approvalMode }) => services.swaps.preview(approvalMode),
    startSwap: ({ approvalMode, routerConsent, quoteDigest, acknowledged }) =>
      services.swaps.start({
        approvalMode,
        ...(routerConsent ? { routerConsent } : {}),
        ...(quoteDigest ? { quoteDigest } : {}),
        ...(acknowledged ? { acknowledged } : {}),
      }),
  };
}
