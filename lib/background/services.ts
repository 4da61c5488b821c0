// The background's long-lived services, built once per worker start: settings, the API client,
// the token-list cache and the quote session. Everything that must survive the worker lives in
// storage; these objects are rebuilt from it after a restart.
import { browser } from 'wxt/browser';
import { createSwapApiClient, type SwapApiClient, type SwapApiClientOptions } from '@/lib/api/client';
import { userMessageFor } from '@/lib/api/messages';
import type { Token } from '@/lib/api/schema';
import { apiChainNameFor, getChain, UnknownChainError } from '@/lib/chains';
import { DEFAULT_SETTINGS, type Settings } from '@/lib/settings/settings';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { quoteSessionItem, settingsItem, tokenListItem } from '@/lib/storage/items';
import { createQuoteSession, type QuoteSession } from '@/lib/swap/session';
import { createTokenListCache, type TokenListCache, type TokenListView } from '@/lib/tokens/cache';
import { lookupToken, type TokenLookup } from '@/lib/tokens/import';
import { buildTokenSearchIndex, type TokenSearchIndex } from '@/lib/tokens/search';
import type { KdfParams } from '@/lib/wallet/vault';
import { createDappService, type DappService, dappBrowserApis } from './dapp';
import {
  createExplorerHosts,
  type ExplorerHosts,
  type PermissionsApi,
  type ScriptingApi,
} from './explorer-hosts';
import { createSwapService, type SwapService } from './swaps';
import { createWalletService, type WalletService } from './wallet';

export const TOKEN_LIST_TTL_MS = 6 * 60 * 60 * 1000;

export interface BackgroundServices {
  ready: Promise<void>;
  settings(): Settings;
  updateSettings(next: Settings): Promise<Settings>;
  api(): SwapApiClient;
  tokens: TokenListCache;
  /** Search index of a chain's cached list, rebuilt when the list changes. */
  indexFor(chainId: number): Promise<{ view: TokenListView; index: TokenSearchIndex }>;
  lookupToken(chainId: number, address: string): Promise<TokenLookup>;
  session: QuoteSession;
  wallet: WalletService;
  swaps: SwapService;
  /** Explorer hosts the user added: settings, permission, dynamically registered content script. */
  explorerHosts: ExplorerHosts;
  /** The in-page provider's requests, approval queue and connected sites. */
  dapp: DappService;
  onSessionChange(listener: (state: QuoteSessionState) => void): () => void;
}

export interface BackgroundOptions {
  fetch?: typeof fetch;
  /** The API client's timeout and retry policy (tests shorten them; the defaults are the product's). */
  api?: Pick<SwapApiClientOptions, 'timeoutMs' | 'retry'>;
  /** Schedules the wallet's auto-lock check (browser.alarms in the worker). */
  scheduleLock?: (at: number | null) => void;
  /** Tests use fewer PBKDF2 iterations and their own clock. */
  kdf?: KdfParams;
  now?: () => number;
  notify?: (title: string, message: string) => void;
  /** The browser's scripting and permissions APIs (tests pass their own). */
  scripting?: () => ScriptingApi | undefined;
  permissions?: () => PermissionsApi | undefined;
}

export function apiChainName(chainId: number, settings: Settings): string {
  const overrides: Record<number, string> = {};
  for (const [key, value] of Object.entries(settings.chainNameOverrides)) overrides[Number(key)] = value;
  const name = apiChainNameFor(chainId, overrides);
  if (!name) throw new UnknownChainError(chainId);
  return name;
}

export function createBackgroundServices(options: BackgroundOptions = {}): BackgroundServices {
  let settings: Settings = structuredClone(DEFAULT_SETTINGS);
  let client: SwapApiClient | undefined;
  const sessionListeners = new Set<(state: QuoteSessionState) => void>();

  function api(): SwapApiClient {
    if (!client || client.baseUrl !== settings.serviceBaseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')) {
      client = createSwapApiClient({
        ...options.api,
        baseUrl: settings.serviceBaseUrl,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    }
    return client;
  }

  const tokens = createTokenListCache({
    fetchList: (chainId, signal) =>
      api().listTokens(apiChainName(chainId, settings), signal ? { signal } : {}),
    itemFor: tokenListItem,
    source: () => `${api().baseUrl} ${JSON.stringify(settings.chainNameOverrides)}`,
    ttlMs: TOKEN_LIST_TTL_MS,
  });

  const session = createQuoteSession({
    quote: (request, callOptions) => api().quote(request, callOptions),
    describeError: userMessageFor,
    refCode: () => settings.refCode,
    persist: (state) => quoteSessionItem.set(state),
    onChange: (state) => {
      for (const listener of sessionListeners) listener(state);
    },
  });

  const indexFor = searchIndexes(tokens);

  const wallet = createWalletService({
    autoLockMinutes: () => settings.autoLockMinutes,
    ...(options.scheduleLock ? { scheduleLock: options.scheduleLock } : {}),
    ...(options.kdf ? { kdf: options.kdf } : {}),
    ...(options.now ? { now: options.now } : {}),
  });

  const swaps = createSwapService({
    api,
    settings: () => settings,
    session,
    wallet,
    ...(options.notify ? { notify: options.notify } : {}),
  });

  async function updateSettings(next: Settings): Promise<Settings> {
    const serviceChanged =
      next.serviceBaseUrl !== settings.serviceBaseUrl ||
      JSON.stringify(next.chainNameOverrides) !== JSON.stringify(settings.chainNameOverrides);
    const hostsChanged = JSON.stringify(next.explorerHosts) !== JSON.stringify(settings.explorerHosts);
    await settingsItem.set(next);
    settings = next;
    // A quote from the previous service must not stay on screen as if it came from this one.
    if (serviceChanged) session.refreshNow();
    if (hostsChanged) void explorerHosts.sync();
    return settings;
  }

  const explorerHosts = createExplorerHosts({
    scripting: options.scripting ?? (() => browser.scripting as unknown as ScriptingApi | undefined),
    permissions: options.permissions ?? (() => browser.permissions as PermissionsApi | undefined),
    settings: () => settings,
    saveSettings: updateSettings,
  });

  const dapp = createDappService({
    settings: () => settings,
    wallet,
    ...dappBrowserApis(),
  });

  const ready = (async () => {
    settings = await settingsItem.get();
    await wallet.restore();
    // Tracking a swap sent before the worker stopped continues behind the scenes.
    void swaps.resume().catch(() => undefined);
    const saved = await quoteSessionItem.read();
    if (saved.ok && saved.value) session.restore(saved.value);
  })();

  return {
    ready,
    settings: () => settings,
    updateSettings,
    api,
    tokens,
    indexFor,
    async lookupToken(chainId, address) {
      if (!getChain(chainId)) throw new UnknownChainError(chainId);
      const { view, index } = await indexFor(chainId);
      return lookupToken(
        {
          findListed: (_chainId, candidate) => {
            const hit = index.byAddress(candidate);
            return hit === undefined ? undefined : view.tokens[hit];
          },
          searchToken: (id, candidate) => api().searchToken(apiChainName(id, settings), candidate),
        },
        chainId,
        address,
      );
    },
    session,
    wallet,
    swaps,
    explorerHosts,
    dapp,
    onSessionChange(listener) {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
  };
}

/** Each chain's search index, rebuilt only when the cached list changes. */
function searchIndexes(tokens: TokenListCache): BackgroundServices['indexFor'] {
  const indexes = new Map<number, { fetchedAt: number; tokens: Token[]; index: TokenSearchIndex }>();
  return async (chainId) => {
    const view = await tokens.get(chainId);
    const cached = indexes.get(chainId);
    if (cached && cached.fetchedAt === view.fetchedAt && cached.tokens === view.tokens)
      return { view, index: cached.index };
    const index = buildTokenSearchIndex(view.tokens);
    indexes.set(chainId, { fetchedAt: view.fetchedAt, tokens: view.tokens, index });
    return { view, index };
  };
}
