// What the swap service (./swaps.ts) takes, and what a start carries: its own module, so the
// service's parts (./swaps-review.ts, ./swaps-network.ts) import it without importing the service.
import type { SwapApiClient } from '@/lib/api/client';
import type { Settings } from '@/lib/settings/settings';
import type { EntrySealer } from '@/lib/swap/entry-seal';
import type { QuoteSession } from '@/lib/swap/session';
import type { TokenFactsReader } from '@/lib/tokens/facts';
import type { Signing } from './signing';
import type { WalletService } from './wallet';

export interface SwapServiceDeps {
  api: () => SwapApiClient;
  settings: () => Settings;
  session: QuoteSession;
  wallet: WalletService;
  /** The signing funnel: every transaction of a swap, and its speed up or cancel, goes through it. */
  signing: Signing;
  facts: TokenFactsReader;
  notify?: (title: string, message: string) => void;
  /** After a router pin is written (the trust settings are re-sealed). */
  onTrustWrite?: () => Promise<unknown>;
  /** Seals history entries as they are recorded, and checks them as they are read (revoke reads them). */
  entrySealer?: EntrySealer;
}

export interface StartSwapOptions {
  approvalMode: 'exact' | 'unlimited';
  routerConsent?: string;
  /** Digest of the reviewed preview's quote: nothing else is signed. */
  quoteDigest?: string;
  acknowledged?: string[];
}
