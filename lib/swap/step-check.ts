// Swap step 3: the build checks (lib/swap/build-checks.ts) and the router pin. A new or changed
// router halts the run at needs-consent; any other failed check stops it.
import type { Address, Hex } from 'viem';
import type { BuildResult, Quote, QuoteRequest } from '@/lib/api/schema';
import { buildCheckMessage, checkBuild, isConsentReason } from './build-checks';
import { Halt, SwapFailure } from './failure';
import type { RouterPins } from './router-pins';
import type { Ledger } from './swap-ledger';

export interface CheckInput {
  chainId: number;
  request: QuoteRequest;
  from: Address;
  routerConsent?: string | undefined;
  unreadable?: 'refuse' | 'allow' | undefined;
}

export interface CheckedSwap {
  router: Address;
  /** The swap transaction as it will be signed (gas comes later). */
  swapCall: { to: Address; data: Hex; value: bigint };
  /** A known router family reads the calldata. */
  readable: boolean;
}

export async function checkSwap({
  ledger,
  pins,
  input,
  quote,
  build,
}: {
  ledger: Ledger;
  pins: RouterPins;
  input: CheckInput;
  quote: Quote;
  build: BuildResult;
}): Promise<CheckedSwap> {
  await ledger.moveTo('checking');
  const checked = checkBuild({
    request: input.request,
    quote,
    build,
    account: input.from,
    pinnedRouter: await pins.get(input.chainId),
    unreadable: input.unreadable ?? 'refuse',
    ...(input.routerConsent ? { consentRouter: input.routerConsent } : {}),
  });
  if (!checked.ok) {
    if (isConsentReason(checked.reason)) {
      const reason = checked.reason;
      await ledger.moveTo('needs-consent', {
        consent: {
          kind: reason.code,
          router: reason.router,
          pinned: reason.code === 'ROUTER_CHANGED' ? reason.pinned : null,
        },
      });
      throw new Halt();
    }
    const words = buildCheckMessage(checked.reason);
    throw new SwapFailure({
      code: checked.reason.code === 'QUOTE_MISMATCH' ? 'QUOTE_REJECTED' : 'BUILD_REJECTED',
      step: 'check',
      detail: JSON.stringify(checked.reason),
      user: words,
    });
  }
  if (checked.pin) await pins.pin(input.chainId, checked.router);
  const router = checked.router;
  return {
    router,
    swapCall: { to: router, data: build.transaction as Hex, value: BigInt(build.value) },
    readable: checked.calldata.readable,
  };
}
