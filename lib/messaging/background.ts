// The background's side of the protocol: listeners registered synchronously at worker start,
// every message parsed before it is acted on, content scripts limited to their few calls.
import { type Browser, browser } from 'wxt/browser';
import { userMessageFor } from '@/lib/api/messages';
import { isNativeToken, NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import { createApprovalHandlers } from '@/lib/background/approvals';
import { CodedError } from '@/lib/background/errors';
import { createInsightHandlers } from '@/lib/background/insights';
import { createNetworkHandlers } from '@/lib/background/networks';
import type { BackgroundServices } from '@/lib/background/services';
import { getChain, UnknownChainError } from '@/lib/chains';
import { explorerChainForUrl } from '@/lib/explorer/user-hosts';
import { prefillItem } from '@/lib/storage/items';
import { SettingsSchema } from '@/lib/storage/settings';
import { checkOneClickAmount } from '@/lib/swap/one-click';
import { verifyFailureMessage, verifyMinReceived, verifyQuoteAnswersRequest } from '@/lib/swap/verify';
import { firstScreenAddresses, pickTokens } from '@/lib/tokens/first-screen';
import { KeyringError } from '@/lib/wallet/keyring';
import { VaultError } from '@/lib/wallet/vault';
import { type ErrorResult, QUOTE_SESSION_PORT, type Response, type ResultOf } from './protocol';
import { CONTENT_SCRIPT_REQUESTS, type Request, RequestSchema } from './requests';

export type SenderKind = 'view' | 'content-script' | 'unknown';

type Sender = Pick<Browser.runtime.MessageSender, 'id' | 'url' | 'tab'>;

/** Extension pages are views; a sender with a tab and a web URL is a content script. */
export function senderKind(
  sender: Sender | undefined,
  extensionId: string,
  extensionOrigin: string,
): SenderKind {
  if (!sender || sender.id !== extensionId) return 'unknown';
  if (sender.url?.startsWith(extensionOrigin)) return 'view';
  if (sender.tab) return 'content-script';
  return 'unknown';
}

const PREFILL_LIFETIME_MS = 5 * 60 * 1000;

export class HandlerError extends CodedError {
  override name = 'HandlerError';
}

function errorResult(error: unknown): ErrorResult {
  if (error instanceof CodedError || error instanceof VaultError) {
    return { code: error.code, message: error.message };
  }
  if (error instanceof KeyringError) {
    // The specific issue (which word, which length) is for the user's eyes only, never for logs.
    const issue = error.mnemonicIssue ?? error.privateKeyIssue;
    return {
      code: issue ? `${error.code}_${issue.code}` : error.code,
      message: issue?.message ?? error.message,
    };
  }
  if (error instanceof UnknownChainError) return { code: 'UNKNOWN_CHAIN', message: error.message };
  const user = userMessageFor(error);
  const code =
    typeof error === 'object' && error !== null && 'kind' in error
      ? String(error.kind).toUpperCase()
      : 'INTERNAL';
  return { code, message: user.title, user };
}

/** What the browser says about a sender, for the few handlers that depend on it. */
export interface SenderInfo {
  /** The sending frame's URL, as the browser reports it (a page cannot choose it). */
  url?: string;
}

type Handlers = {
  [T in Request['type']]: (
    request: Extract<Request, { type: T }>,
    sender: SenderInfo,
  ) => Promise<ResultOf<T>>;
};

export function createHandlers(services: BackgroundServices): Handlers {
  return {
    ping: async () => ({ version: browser.runtime.getManifest().version, startedAt: STARTED_AT }),
    getSettings: async () => services.settings(),
    updateSettings: async ({ settings }) => services.updateSettings(SettingsSchema.parse(settings)),
    getTokenList: async ({ chainId }) => services.tokens.get(chainId),
    refreshTokenList: async ({ chainId }) => services.tokens.refresh(chainId),
    lookupToken: async ({ chainId, address }) => services.lookupToken(chainId, address),
    whitelistedTokens: async ({ chainId, addresses }) => {
      const { index } = await services.indexFor(chainId);
      return addresses.filter((address) => index.byAddress(address) !== undefined);
    },
    getQuoteSession: async () => services.session.getState(),
    setQuoteInput: async ({ input }) => {
      services.session.setInput(input);
      return services.session.getState();
    },
    markTyping: async () => {
      services.session.markTyping();
      return null;
    },
    refreshQuote: async () => {
      services.session.refreshNow();
      return services.session.getState();
    },
    oneClickQuote: async ({ chainId, token }) => {
      // The page's token priced against the settings' amount of the chain's native coin.
      if (isNativeToken(token)) throw new HandlerError('SAME_TOKEN', 'This is the native coin itself.');
      const { view, index } = await services.indexFor(chainId);
      const hit = index.byAddress(token);
      if (hit === undefined)
        throw new HandlerError('NOT_WHITELISTED', 'This token is not on the swap service’s list.');
      const target = view.tokens[hit];
      const native = view.tokens.find((entry) => isNativeToken(entry.address));
      if (!target || !native || sameAddress(target.address, native.address)) {
        throw new HandlerError('NO_NATIVE', 'No native coin to quote against on this chain.');
      }
      const { oneClickAmount, slippage } = services.settings();
      const amount = checkOneClickAmount(oneClickAmount, native.decimals);
      if (!amount.ok) {
        throw new HandlerError(
          'BAD_AMOUNT',
          `The one-click amount in settings does not fit: ${amount.message}`,
        );
      }
      const request = {
        chainId,
        inToken: NATIVE_TOKEN_ADDRESS,
        outToken: target.address,
        inAmount: amount.value.toString(),
        slippage,
      };
      const { quote } = await services.api().quote(request);
      // The card shows this quote on the page: the same checks as the popup's session (SECURITY.md),
      // and the decimals the card formats with must be the list's, not whatever the service says.
      const answers = verifyQuoteAnswersRequest(request, quote);
      const consistent = answers.ok ? verifyMinReceived(quote) : answers;
      if (!consistent.ok) {
        throw new HandlerError('QUOTE_REJECTED', verifyFailureMessage(consistent.reason).title);
      }
      if (quote.inDecimals !== native.decimals || quote.outDecimals !== target.decimals) {
        throw new HandlerError(
          'QUOTE_REJECTED',
          'The swap service’s quote has the wrong decimals for these tokens.',
        );
      }
      return { quote, inSymbol: native.symbol, outSymbol: target.symbol };
    },
    openPopupPrefilled: async ({ chainId, token, amount }) => {
      // The card quoted the settings' one-click amount: the popup opens on that same amount.
      const oneClick = checkOneClickAmount(
        services.settings().oneClickAmount,
        getChain(chainId)?.nativeDecimals ?? 18,
      );
      const prefillAmount = amount ?? (oneClick.ok ? oneClick.value.toString() : undefined);
      await prefillItem.set({
        chainId,
        token,
        ...(prefillAmount !== undefined ? { amount: prefillAmount } : {}),
        createdAt: Date.now(),
      });
      try {
        await browser.action.openPopup();
        return { opened: true };
      } catch {
        // openPopup needs a focused window; a tab with the popup page is the fallback.
        await browser.tabs.create({ url: browser.runtime.getURL('/popup.html') });
        return { opened: false };
      }
    },
    popupStart: async () => {
      // Cached tokens only: a list that must be fetched first arrives later through getTokenList.
      const session = services.session.getState();
      const swap = services.swaps.current();
      const named = firstScreenAddresses(session, swap);
      const [list, wallet] = await Promise.all([
        named ? services.tokens.cached(named.chainId) : null,
        services.wallet.state(),
      ]);
      return {
        wallet,
        settings: services.settings(),
        session,
        swap,
        tokens:
          named && list ? { chainId: named.chainId, tokens: pickTokens(list.tokens, named.addresses) } : null,
      };
    },
    walletState: () => services.wallet.state(),
    walletStartCreate: ({ words }) => services.wallet.startCreate(words),
    walletConfirmCreate: (request) => services.wallet.confirmCreate(request),
    walletImport: (request) => services.wallet.importWallet(request),
    walletUnlock: ({ password }) => services.wallet.unlock(password),
    walletLock: () => services.wallet.lock(),
    walletAddAccount: ({ name }) => services.wallet.addAccount(name),
    walletImportKey: ({ privateKey, name }) => services.wallet.importKey(privateKey, name),
    walletRename: ({ id, name }) => services.wallet.rename(id, name),
    walletSetActive: ({ id }) => services.wallet.setActive(id),
    walletReveal: async ({ password, target }) => ({
      secret: await services.wallet.reveal(password, target),
    }),
    previewSwap: async () => {
      // The trust-boundary work builds the preview (build, checks, simulation, fees); until then
      // the popup keeps its current review.
      throw new HandlerError('PREVIEW_UNAVAILABLE', 'A swap preview is not available yet.');
    },
    startSwap: ({ approvalMode, routerConsent }) =>
      services.swaps.start({ approvalMode, ...(routerConsent ? { routerConsent } : {}) }),
    getSwap: async () => services.swaps.current(),
    dismissSwap: async () => {
      services.swaps.dismiss();
      return null;
    },
    getBalances: ({ chainId, tokens }) => services.swaps.balances(chainId, tokens),
    getHistory: () => services.swaps.history(),
    ...createInsightHandlers(services),
    ...createNetworkHandlers(services),
    ...createApprovalHandlers(services),
    explorerChain: async (_request, sender) => ({
      chainId: explorerChainForUrl(sender.url, services.settings().explorerHosts) ?? null,
    }),
    setExplorerHost: ({ host, chainId }) => services.explorerHosts.set(host, chainId),
    takePrefill: async () => {
      const prefill = await prefillItem.get();
      if (prefill) await prefillItem.remove();
      return prefill && Date.now() - prefill.createdAt < PREFILL_LIFETIME_MS ? prefill : null;
    },
  };
}

const STARTED_AT = Date.now();

export async function handleMessage(
  handlers: Handlers,
  services: Pick<BackgroundServices, 'ready' | 'wallet'>,
  message: unknown,
  kind: SenderKind,
  sender: SenderInfo = {},
): Promise<Response> {
  if (kind === 'unknown') return { ok: false, error: { code: 'FORBIDDEN', message: 'Unknown sender.' } };
  const parsed = RequestSchema.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: {
        code: 'BAD_MESSAGE',
        message: `Malformed request${issue ? ` (${issue.path.join('.')}: ${issue.message})` : ''}.`,
      },
    };
  }
  const request = parsed.data;
  if (kind === 'content-script' && !CONTENT_SCRIPT_REQUESTS.has(request.type)) {
    return { ok: false, error: { code: 'FORBIDDEN', message: `A page cannot ask for ${request.type}.` } };
  }
  try {
    await services.ready;
    // A view in use keeps the wallet unlocked; a page (content script) does not.
    if (kind === 'view') await services.wallet.touch();
    const handler = handlers[request.type] as (request: Request, sender: SenderInfo) => Promise<unknown>;
    return { ok: true, result: await handler(request, sender) };
  } catch (error) {
    return { ok: false, error: errorResult(error) };
  }
}

export function registerBackgroundHandlers(services: BackgroundServices): void {
  const handlers = createHandlers(services);
  const extensionOrigin = browser.runtime.getURL('/');
  const kindOf = (sender: Sender | undefined) => senderKind(sender, browser.runtime.id, extensionOrigin);

  browser.runtime.onMessage.addListener((message: unknown, sender: Browser.runtime.MessageSender) =>
    handleMessage(handlers, services, message, kindOf(sender), { url: sender.url }),
  );

  // Views follow the quote session through a port: state at once, then every change.
  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== QUOTE_SESSION_PORT || kindOf(port.sender) !== 'view') {
      port.disconnect();
      return;
    }
    let release: (() => void) | undefined;
    const unsubscribe = services.onSessionChange((state) => port.postMessage({ type: 'state', state }));
    const unsubscribeSwap = services.swaps.onChange((state) => port.postMessage({ type: 'swap', state }));
    services.ready.then(() => {
      release = services.session.watch();
      port.postMessage({ type: 'state', state: services.session.getState() });
      const swap = services.swaps.current();
      if (swap) port.postMessage({ type: 'swap', state: swap });
    });
    port.onDisconnect.addListener(() => {
      unsubscribe();
      unsubscribeSwap();
      release?.();
    });
  });
}
