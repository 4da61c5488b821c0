// Every stored item of the extension, defined once. Bump an item's version together with a
// migration to it; tests/unit/storage.test.ts runs every migration.
import { z } from 'zod';
import { AddressSchema, ChainIdSchema, TokenSchema } from '@/lib/api/schema';
import { type QuoteSessionState, QuoteSessionStateSchema } from '@/lib/swap/session-state';
import { defineStorageItem, type StorageItem } from './item';
import { DEFAULT_SETTINGS, SettingsSchema } from './settings';

export const settingsItem = defineStorageItem({
  area: 'local',
  key: 'settings',
  version: 2,
  schema: SettingsSchema,
  fallback: () => structuredClone(DEFAULT_SETTINGS),
  migrations: {
    // v1 kept slippage as a string and had no referral code or explorer hosts.
    2: (previous) => {
      const v1 = z.looseObject({ slippage: z.union([z.string(), z.number()]).optional() }).parse(previous);
      const slippage = Number(v1.slippage ?? DEFAULT_SETTINGS.slippage);
      return {
        ...DEFAULT_SETTINGS,
        ...v1,
        slippage: Number.isFinite(slippage) ? slippage : DEFAULT_SETTINGS.slippage,
      };
    },
  },
});

export const CachedTokenListSchema = z.object({
  chainId: z.number().int().positive(),
  /** The service (and chain name) the list came from. */
  source: z.string(),
  fetchedAt: z.number(),
  tokens: z.array(TokenSchema),
  refreshError: z.string().optional(),
  refreshFailedAt: z.number().optional(),
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
      schema: CachedTokenListSchema.nullable(),
      fallback: () => null,
    });
    tokenListItems.set(chainId, item);
  }
  return item;
}

export const PrefillSchema = z.object({
  chainId: ChainIdSchema,
  token: AddressSchema,
  createdAt: z.number(),
});
export type Prefill = z.infer<typeof PrefillSchema>;

export const ImportedTokenSchema = TokenSchema.extend({
  whitelisted: z.boolean(),
  importedAt: z.number(),
});
export type ImportedToken = z.infer<typeof ImportedTokenSchema>;

export const importedTokensItem = defineStorageItem({
  area: 'local',
  key: 'importedTokens',
  version: 1,
  schema: z.array(ImportedTokenSchema).max(500),
  fallback: () => [] as ImportedToken[],
});

/** The quote session, in storage.session: survives a worker restart, not a browser restart. */
export const quoteSessionItem = defineStorageItem<QuoteSessionState | null>({
  area: 'session',
  key: 'quoteSession',
  version: 1,
  schema: QuoteSessionStateSchema.nullable(),
  fallback: () => null,
});

/** What the content script asked the popup to open with; consumed by the next popup. */
export const prefillItem = defineStorageItem<Prefill | null>({
  area: 'session',
  key: 'prefill',
  version: 1,
  schema: PrefillSchema.nullable(),
  fallback: () => null,
});
