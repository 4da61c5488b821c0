// Every stored item of the extension, defined once. Bump an item's version together with a
// migration to it; tests/unit/storage.test.ts runs every migration.
import * as z from 'zod/mini';
import { AddressSchema, TokenSchema } from '@/lib/api/schema';
import { migrateOneClickAmounts } from '@/lib/settings/one-click';
import { DEFAULT_SETTINGS, SettingsSchema } from '@/lib/settings/settings';
import {
  type ConnectedSite,
  ConnectedSitesSchema,
  type DappSettings,
  DappSettingsSchema,
} from '@/lib/state/dapp';
import {
  type DappRefusals,
  DappRefusalsSchema,
  EMPTY_QUEUE,
  type StoredQueue,
  StoredQueueSchema,
} from '@/lib/state/dapp-queue';
import {
  type HistoryEntry,
  HistorySchema,
  PendingSwapsSchema,
  type RouterPinsMap,
  RouterPinsSchema,
  type SwapState,
} from '@/lib/state/pipeline-state';
import { type Prefill, PrefillSchema } from '@/lib/state/prefill';
import { type StoredPreparedSwap, StoredPreparedSwapSchema } from '@/lib/state/prepared-swap';
import { type SentToRecord, SentToRecordsSchema } from '@/lib/state/sent-to';
import { type QuoteSessionState, QuoteSessionStateSchema } from '@/lib/state/session-state';
import { AutoLockStateSchema } from '@/lib/wallet/autolock';
import { type KeyringMeta, KeyringMetaSchema } from '@/lib/wallet/keyring';
import { type TrustRecord, TrustRecordSchema } from '@/lib/wallet/trust-mac';
import { NO_BACKOFF, type UnlockBackoff, UnlockBackoffSchema } from '@/lib/wallet/unlock-backoff';
import { type Vault, VaultSchema } from '@/lib/wallet/vault';
import { defineStorageItem, type StorageItem } from './item';

export const settingsItem = defineStorageItem({
  area: 'local',
  key: 'settings',
  version: 4,
  schema: SettingsSchema,
  fallback: () => structuredClone(DEFAULT_SETTINGS),
  migrations: {
    // v1 kept slippage as a string and had no referral code or explorer hosts.
    2: (previous) => {
      const v1 = z.looseObject({ slippage: z.optional(z.union([z.string(), z.number()])) }).parse(previous);
      const slippage = Number(v1.slippage ?? DEFAULT_SETTINGS.slippage);
      return {
        ...DEFAULT_SETTINGS,
        ...v1,
        slippage: Number.isFinite(slippage) ? slippage : DEFAULT_SETTINGS.slippage,
      };
    },
    // v3 added the one-click quote amount (explorer pages), which v2 fixed at 1 native coin.
    3: (previous) => ({ ...(previous as object), oneClickAmount: DEFAULT_SETTINGS.oneClickAmount }),
    // v4: one-click amounts per chain (explorer pages).
    4: migrateOneClickAmounts,
  },
});

export const CachedTokenListSchema = z.object({
  chainId: z.int().check(z.positive()),
  /** The service (and chain name) the list came from. */
  source: z.string(),
  fetchedAt: z.number(),
  tokens: z.array(TokenSchema),
  refreshError: z.optional(z.string()),
  refreshFailedAt: z.optional(z.number()),
});
export type CachedTokenList = z.infer<typeof CachedTokenListSchema>;

const tokenListItems = new Map<number, StorageItem<CachedTokenList | null>>();

/** One item per chain, so refreshing one chain's list never rewrites another's. */
export function tokenListItem(chainId: number): StorageItem<CachedTokenList | null> {
  let item = tokenListItems.get(chainId);
  if (!item) {
    item = defineStorageItem<CachedTokenList | null>({
      area: 'local',
      key: `tokenList:${chainId}`,
      version: 2,
      // v1 lists did not record their service; '' matches no source, so they are fetched anew.
      migrations: { 2: (v1) => (v1 === null ? null : { ...(v1 as object), source: '' }) },
      schema: z.nullable(CachedTokenListSchema),
      fallback: () => null,
    });
    tokenListItems.set(chainId, item);
  }
  return item;
}

/** The quote session, in storage.session: survives a worker restart, not a browser restart. */
export const quoteSessionItem = defineStorageItem<QuoteSessionState | null>({
  area: 'session',
  key: 'quoteSession',
  version: 1,
  schema: z.nullable(QuoteSessionStateSchema),
  fallback: () => null,
});

/** What the content script asked the popup to open with; consumed by the next popup. */
export const prefillItem = defineStorageItem<Prefill | null>({
  area: 'session',
  key: 'prefill',
  version: 1,
  schema: z.nullable(PrefillSchema),
  fallback: () => null,
});

/** The encrypted vault (docs/ARCHITECTURE.md, "Before anything is signed"): the only secret material in storage.local. */
export const vaultItem = defineStorageItem<Vault | null>({
  area: 'local',
  key: 'vault',
  version: 1,
  schema: z.nullable(VaultSchema),
  fallback: () => null,
});

/** Account names and addresses: no secrets, readable while locked. */
export const keyringMetaItem = defineStorageItem<KeyringMeta | null>({
  area: 'local',
  key: 'keyringMeta',
  version: 1,
  schema: z.nullable(KeyringMetaSchema),
  fallback: () => null,
});

/** The account list as last verified against the vault's secrets (lib/wallet/keyring-restore.ts):
 * what is shown while locked. storage.session is reachable from Swaplane's own pages and worker only
 * (in Chrome and Firefox), so nothing outside can plant an address here; it is empty again after a
 * browser restart, and nothing is shown until the next unlock. */
export const VerifiedAccountsSchema = z.object({
  accounts: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['derived', 'imported']),
      address: AddressSchema,
      name: z.string(),
    }),
  ),
  activeId: z.nullable(z.string()),
});
export type VerifiedAccounts = z.infer<typeof VerifiedAccountsSchema>;
export const verifiedAccountsItem = defineStorageItem<VerifiedAccounts | null>({
  area: 'session',
  key: 'verifiedAccounts',
  version: 1,
  schema: z.nullable(VerifiedAccountsSchema),
  fallback: () => null,
});

/**
 * The user's own saves of sealed fields made while locked (no key to seal them): field -> its saved value
 * as canonical JSON. storage.session is reachable from Swaplane's own pages and worker only, so nothing
 * outside can vouch for a value here; the next unlocked check seals each field still holding it
 * (lib/background/trust-settings.ts).
 */
export const lockedSavesItem = defineStorageItem<Record<string, string>>({
  area: 'session',
  key: 'lockedSaves',
  version: 1,
  schema: z.record(z.string(), z.string()),
  fallback: () => ({}),
});

/**
 * A copied recovery phrase to clear from the clipboard (lib/background/clipboard-clear.ts): the SHA-256
 * of what was copied, never the phrase, and when. In storage.session so a restarted worker still clears it.
 */
export const clipboardClearItem = defineStorageItem<{ digest: string; at: number } | null>({
  area: 'session',
  key: 'clipboardClear',
  version: 1,
  schema: z.nullable(z.object({ digest: z.string().check(z.regex(/^[0-9a-f]{64}$/)), at: z.number() })),
  fallback: () => null,
});

/** The open swap review's prepared swap (lib/swap/prepare.ts), amounts as decimal strings: a review
 * opened before the worker stopped still confirms after it restarts. storage.session, so only
 * Swaplane's own pages and worker can write it; removed when the review closes. */
export const preparedSwapItem = defineStorageItem<StoredPreparedSwap | null>({
  area: 'session',
  key: 'preparedSwap',
  version: 1,
  schema: z.nullable(StoredPreparedSwapSchema),
  fallback: () => null,
});

/**
 * Route shape -> the swap gas last simulated for it (lib/swap/network-fee.ts): the swap screen's
 * fallback fee after a worker restart. storage.session (Swaplane's own pages and worker only); a
 * bounded map of decimal gas figures, parsed back like every read.
 */
export const swapGasMemoryItem = defineStorageItem<Record<string, string>>({
  area: 'session',
  key: 'swapGasMemory',
  version: 1,
  schema: z
    .record(z.string().check(z.maxLength(2_000)), z.string().check(z.regex(/^[1-9]\d{0,8}$/)))
    .check(z.refine((memory) => Object.keys(memory).length <= 64, 'at most 64 route shapes')),
  fallback: () => ({}),
});

/** The unlocked session: the vault key and the auto-lock deadline, for worker restarts only. */
export const WalletSessionSchema = z.object({
  sessionKey: z.string().check(z.minLength(1)),
  autoLock: AutoLockStateSchema,
});
export const walletSessionItem = defineStorageItem<z.infer<typeof WalletSessionSchema> | null>({
  area: 'session',
  key: 'walletSession',
  version: 1,
  schema: z.nullable(WalletSessionSchema),
  fallback: () => null,
});

/** Wrong unlock passwords so far and when the next attempt may run (survives worker and browser restarts). */
export const unlockBackoffItem = defineStorageItem<UnlockBackoff>({
  area: 'local',
  key: 'unlockBackoff',
  version: 1,
  schema: UnlockBackoffSchema,
  fallback: () => ({ ...NO_BACKOFF }),
});

/** Routers the user trusted, per (service origin, chain) (pinned on first use; a change needs consent). */
export const routerPinsItem = defineStorageItem<RouterPinsMap>({
  area: 'local',
  key: 'routerPins',
  version: 2,
  schema: RouterPinsSchema,
  fallback: () => ({}),
  migrations: {
    // v1 pins were per chain only and did not record which service they were trusted with: none
    // can be carried to a (service, chain) key safely, so the next swap on each chain asks again.
    2: () => ({}),
  },
});

/**
 * The trust-deciding settings as the user last confirmed them, with their HMAC (lib/wallet/trust-mac.ts):
 * checked before anything is signed.
 */
export const trustRecordItem = defineStorageItem<TrustRecord | null>({
  area: 'local',
  key: 'trustRecord',
  version: 2,
  schema: z.nullable(TrustRecordSchema),
  fallback: () => null,
  migrations: {
    // v1 had one MAC over five fields; it is checked, and each field sealed on its own, on the first
    // unlocked check (the key is not at hand here).
    2: (v1) => {
      if (v1 === null) return null;
      const { snapshot, mac, sealedAt } = z
        .object({ snapshot: z.record(z.string(), z.unknown()), mac: z.string(), sealedAt: z.number() })
        .parse(v1);
      return { snapshot, macs: {}, legacyMac: mac, sealedAt };
    },
  },
});

/** chainId -> tokens swapped lately there, newest first (lib/tokens/recent.ts). */
export const recentTokensItem = defineStorageItem<Record<string, string[]>>({
  area: 'local',
  key: 'recentTokens',
  version: 1,
  schema: z.record(z.string().check(z.regex(/^\d+$/)), z.array(AddressSchema).check(z.maxLength(8))),
  fallback: () => ({}),
});

/** Swap and approval history, newest first, bounded (lib/swap/history.ts trims it). */
export const swapHistoryItem = defineStorageItem<HistoryEntry[]>({
  area: 'local',
  key: 'swapHistory',
  version: 1,
  schema: HistorySchema,
  fallback: () => [],
});

/** Swaps in flight, persisted after every step so a restarted worker can resume tracking them. */
export const pendingSwapsItem = defineStorageItem<SwapState[]>({
  area: 'local',
  key: 'pendingSwaps',
  version: 1,
  schema: PendingSwapsSchema,
  fallback: () => [],
});

// ----- Dapps (EIP-1193 provider): connected sites and the provider's own settings -----

/** Origins the user connected, with the accounts each may see and its chain (lib/dapp/sites.ts). */
export const connectedSitesItem = defineStorageItem<ConnectedSite[]>({
  area: 'local',
  key: 'connectedSites',
  version: 1,
  schema: ConnectedSitesSchema,
  fallback: () => [],
});

/**
 * Requests waiting for the user, in storage.session (trusted contexts only): the approval window
 * still shows them after the browser stops the worker, and their answers still reach their pages.
 */
export const dappQueueItem = defineStorageItem<StoredQueue>({
  area: 'session',
  key: 'dappQueue',
  version: 1,
  schema: StoredQueueSchema,
  fallback: () => ({ ...EMPTY_QUEUE, requests: [] }),
});

/**
 * When the user last refused each site's requests (lib/background/dapp-approvals.ts REFUSALS), in
 * storage.session: a restarted worker still holds a window-bombing page to its cool-down.
 */
export const dappRefusalsItem = defineStorageItem<DappRefusals>({
  area: 'session',
  key: 'dappRefusals',
  version: 1,
  schema: DappRefusalsSchema,
  fallback: () => [],
});

/** Addresses each account sent a dapp transaction to, sealed per record (lib/state/sent-to.ts). */
export const sentToItem = defineStorageItem<SentToRecord[]>({
  area: 'local',
  key: 'sentTo',
  version: 1,
  schema: SentToRecordsSchema,
  fallback: () => [],
});

export const dappSettingsItem = defineStorageItem<DappSettings>({
  area: 'local',
  key: 'dappSettings',
  version: 1,
  schema: DappSettingsSchema,
  fallback: () => ({ exposeWindowEthereum: false }),
});
