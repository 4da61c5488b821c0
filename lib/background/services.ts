// The background's long-lived services, built once per worker start: settings, the API client,
// the token-list cache and the quote session. Everything that must survive the worker lives in
// storage; these objects are rebuilt from it after a restart.
import { browser } from 'wxt/browser';
import { createSwapApiClient, type SwapApiClient, type SwapApiClientOptions } from '@/lib/api/client';
import { userMessageFor } from '@/lib/api/messages';
import type { Quote, Token } from '@/lib/api/schema';
import { apiChainNameFor, getChain, UnknownChainError } from '@/lib/chains';
import { publicClientFor } from '@/lib/rpc/network';
import { DEFAULT_SETTINGS, type Settings } from '@/lib/settings/settings';
import { changesService } from '@/lib/settings/trust-fields';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { quoteSessionItem, settingsItem, tokenListItem } from '@/lib/storage/items';
import { createQuoteSession, type QuoteSession } from '@/lib/swap/session';
import { createTokenListCache, type TokenListCache, type TokenListView } from '@/lib/tokens/cache';
import {
  createTokenFactsReader,
  TokenFactsError,
  type TokenFactsReader,
  verifyQuoteDecimals,
  verifyTokenDecimals,
  verifyTokenList,
} from '@/lib/tokens/facts';
import { lookupToken, type TokenLookup } from '@/lib/tokens/import';
import { buildTokenSearchIndex, type TokenSearchIndex } from '@/lib/tokens/search';
import type { KdfParams } from '@/lib/wallet/vault';
import { createDappService, type DappDeps, type DappService, dappBrowserApis } from './dapp';
import {
  createExplorerHosts,
  type ExplorerHosts,
  type PermissionsApi,
  type ScriptingApi,
} from './explorer-hosts';
import { createSigning, type Signing } from './signing';
import { createSwapService, type SwapService } from './swaps';
import { changedTrustFields, restoredSettings, restoreStoredTrustValues } from './trust-restore';
import { entrySealer, type TrustSettings, trustCheckedWallet } from './trust-settings';
import { createWalletService, type WalletService } from './wallet';

export const TOKEN_LIST_TTL_MS = 6 * 60 * 60 * 1000;

export interface BackgroundServices {
  ready: Promise<void>;
  settings(): Settings;
  /** `confirmed`: the user confirmed a change of what the service or an RPC can do (seals it). */
  updateSettings(next: Settings, options?: { confirmed?: boolean }): Promise<Settings>;
  api(): SwapApiClient;
  tokens: TokenListCache;
  /** Search index of a chain's cached list, rebuilt when the list changes. */
  indexFor(chainId: number): Promise<{ view: TokenListView; index: TokenSearchIndex }>;
  lookupToken(chainId: number, address: string): Promise<TokenLookup>;
  /** decimals() and symbol() read on-chain, cached per chain and address. */
  facts: TokenFactsReader;
  session: QuoteSession;
  wallet: WalletService;
  /** The seal on the trust-deciding settings, checked before anything is signed. */
  trust: TrustSettings;
  /** The signing funnel every transaction goes through, with the user's fee ceilings. */
  signing: Signing;
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
  /** Token facts (tests without a chain pass their own); read on-chain by default. */
  facts?: TokenFactsReader;
}

export function apiChainName(chainId: number, settings: Settings): string {
  const overrides: Record<number, string> = {};
  for (const [key, value] of Object.entries(settings.chainNameOverrides)) overrides[Number(key)] = value;
  const name = apiChainNameFor(chainId, overrides);
  if (!name) throw new UnknownChainError(chainId);
  return name;
}

/** A quote refused for its decimals says so; every other error as the API client words it. */
function describeQuoteError(error: unknown) {
  return error instanceof TokenFactsError
    ? {
        title: 'Quote refused: wrong token decimals',
        detail: error.message,
        action: 'Check the swap service in Settings.',
      }
    : userMessageFor(error);
}

async function checkedQuote<T extends { quote: Quote }>(
  facts: TokenFactsReader,
  answer: Promise<T>,
): Promise<T> {
  const answered = await answer;
  await verifyQuoteDecimals(facts, answered.quote);
  return answered;
}

async function checkedSearch(facts: TokenFactsReader, chainId: number, search: () => Promise<Token | null>) {
  const found = await search();
  if (found) await verifyTokenDecimals(facts, chainId, found);
  return found;
}

/** A pasted address: the cached list first, else /search, whose decimals must be the chain's. */
async function lookupChecked(
  chainId: number,
  address: string,
  deps: {
    indexFor: BackgroundServices['indexFor'];
    facts: TokenFactsReader;
    search: (chainId: number, address: string) => Promise<Token | null>;
  },
): Promise<TokenLookup> {
  if (!getChain(chainId)) throw new UnknownChainError(chainId);
  const { view, index } = await deps.indexFor(chainId);
  return lookupToken(
    {
      findListed: (_chainId, candidate) => {
        const hit = index.byAddress(candidate);
        return hit === undefined ? undefined : view.tokens[hit];
      },
      // An imported token's decimals are the chain's too (the list's were checked when fetched).
      searchToken: (id, candidate) => checkedSearch(deps.facts, id, () => deps.search(id, candidate)),
    },
    chainId,
    address,
  );
}

/** The API client for the service in the settings, made again when the service changes. */
function apiClientOf(options: BackgroundOptions, current: () => Settings): () => SwapApiClient {
  let client: SwapApiClient | undefined;
  return () => {
    const settings = current();
    if (!client || client.baseUrl !== settings.serviceBaseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')) {
      client = createSwapApiClient({
        ...options.api,
        baseUrl: settings.serviceBaseUrl,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    }
    return client;
  };
}

/**
 * The wallet, and the seal over what it signs from; a discarded outside change puts back the
 * confirmed values (lib/background/trust-restore.ts).
 */
function trustedWallet(
  options: BackgroundOptions,
  current: () => Settings,
  replace: (next: Settings) => Promise<void>,
  sealEntries: () => Promise<void>,
): { trust: TrustSettings; signingWallet: WalletService } {
  const wallet = createWalletService({
    autoLockMinutes: () => current().autoLockMinutes,
    ...(options.scheduleLock ? { scheduleLock: options.scheduleLock } : {}),
    ...(options.kdf ? { kdf: options.kdf } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return trustCheckedWallet(wallet, current, options.now, {
    restore: async (values) => {
      await restoreStoredTrustValues(values, (options.now ?? Date.now)());
      await replace(restoredSettings(current(), values));
    },
    sealEntries,
  });
}

/** The dapp service with the browser's windows and tabs, over the wallet, the seal and the one funnel. */
function browserDapp(deps: Pick<DappDeps, 'settings' | 'wallet' | 'seal' | 'signing'>): DappService {
  return createDappService({ ...deps, ...dappBrowserApis() });
}

export function createBackgroundServices(options: BackgroundOptions = {}): BackgroundServices {
  let settings: Settings = structuredClone(DEFAULT_SETTINGS);
  const sessionListeners = new Set<(state: QuoteSessionState) => void>();
  const api = apiClientOf(options, () => settings);

  // Token facts come from the chain: a list or quote the chain contradicts is refused.
  const facts = options.facts ?? createTokenFactsReader((chainId) => publicClientFor(chainId, settings));

  const tokens = createTokenListCache({
    fetchList: async (chainId, signal) =>
      verifyTokenList(facts, chainId, await api().listTokens(apiChainName(chainId, settings), { signal })),
    itemFor: tokenListItem,
    source: () => `${api().baseUrl} ${JSON.stringify(settings.chainNameOverrides)}`,
    ttlMs: TOKEN_LIST_TTL_MS,
  });

  const session = createQuoteSession({
    quote: (request, callOptions) => checkedQuote(facts, api().quote(request, callOptions)),
    describeError: describeQuoteError,
    refCode: () => settings.refCode,
    persist: (state) => quoteSessionItem.set(state),
    onChange: (state) => {
      for (const listener of sessionListeners) listener(state);
    },
  });

  const indexFor = searchIndexes(tokens);

  const { trust, signingWallet } = trustedWallet(
    options,
    () => settings,
    async (next) => {
      await settingsItem.set(next);
      settings = next;
    },
    () => swaps.sealHistory(),
  );

  const signing = createSigning(() => settings);

  const swaps = createSwapService({
    signing,
    api,
    settings: () => settings,
    session,
    wallet: signingWallet,
    onTrustWrite: () => trust.sealOnly(['routerPins']), // a pin written inside a swap that passed the check
    entrySealer: entrySealer(() => signingWallet.trustKey()),
    facts,
    ...(options.notify ? { notify: options.notify } : {}),
  });

  async function updateSettings(next: Settings, _change: { confirmed?: boolean } = {}): Promise<Settings> {
    const serviceChanged = changesService(settings, next);
    const hostsChanged = JSON.stringify(next.explorerHosts) !== JSON.stringify(settings.explorerHosts);
    // What this save changes is the user's own change (a service or RPC change was confirmed by the
    // handler); a field it leaves as it was is sealed only if it was intact.
    await trust.afterOwnChange(
      async () => {
        await settingsItem.set(next);
        settings = next;
      },
      changedTrustFields(settings, next),
    );
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

  const dapp = browserDapp({ settings: () => settings, wallet: signingWallet, seal: trust, signing });

  const ready = (async () => {
    settings = await settingsItem.get();
    await signingWallet.restore();
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
    lookupToken: (chainId, address) =>
      lookupChecked(chainId, address, {
        indexFor,
        facts,
        search: (id, candidate) => api().searchToken(apiChainName(id, settings), candidate),
      }),
    facts,
    session,
    wallet: signingWallet, // its signer checks the trust settings first
    trust,
    signing,
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
