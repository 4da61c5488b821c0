// The service worker's transport: listeners registered synchronously at worker start, every
// message parsed before it is acted on, content scripts limited to their few calls, the quote-session
// port. What each request does lives in handlers/, one file per concern.
import { type Browser, browser } from 'wxt/browser';
import { userMessageFor } from '@/lib/api/messages';
import { UnknownChainError } from '@/lib/chains';
import { type ErrorResult, QUOTE_SESSION_PORT, type Response } from '@/lib/messaging/protocol';
import { CONTENT_SCRIPT_REQUESTS, type Request, RequestSchema } from '@/lib/messaging/requests';
import { rpcFailureMessage, rpcFailureOf } from '@/lib/rpc/rpc-failure';
import { SwapFailure } from '@/lib/swap/failure';
import { TokenFactsError } from '@/lib/tokens/facts';
import { KeyringError } from '@/lib/wallet/keyring';
import { VaultError } from '@/lib/wallet/vault';
import { CodedError } from './errors';
import { createApprovalHandlers } from './handlers/approvals';
import { dappHandlers } from './handlers/dapp';
import { explorerHandlers } from './handlers/explorer';
import { createFeeHandlers } from './handlers/fee';
import { createInsightHandlers } from './handlers/insights';
import { createNetworkHandlers } from './handlers/networks';
import { popupHandlers } from './handlers/popup';
import { safetyHandlers } from './handlers/safety';
import { sessionHandlers } from './handlers/session';
import { settingsHandlers } from './handlers/settings';
import { swapHandlers } from './handlers/swaps';
import { tokenHandlers } from './handlers/tokens';
import { trustHandlers } from './handlers/trust';
import type { Handlers, SenderInfo } from './handlers/types';
import { walletHandlers } from './handlers/wallet';
import type { BackgroundServices } from './services';

export type { Handlers, SenderInfo } from './handlers/types';

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

function errorResult(error: unknown): ErrorResult {
  if (error instanceof SwapFailure)
    return { code: error.code, message: error.message, ...(error.user ? { user: error.user } : {}) };
  if (error instanceof TokenFactsError) return { code: error.code, message: error.message };
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
  // A node that did not answer, or not as one: its cause, never "Something went wrong".
  const rpc = rpcFailureOf(error);
  if (rpc) {
    const words = rpcFailureMessage(rpc);
    return {
      code: rpc.cause === 'wrong-chain' ? 'RPC_WRONG_CHAIN' : 'RPC_UNAVAILABLE',
      message: words.title,
      user: words,
    };
  }
  const user = userMessageFor(error);
  const code =
    typeof error === 'object' && error !== null && 'kind' in error
      ? String(error.kind).toUpperCase()
      : 'INTERNAL';
  return { code, message: user.title, user };
}

/** Every request type's handler: one spread per concern. */
export function createHandlers(services: BackgroundServices): Handlers {
  return {
    ...settingsHandlers(services),
    ...tokenHandlers(services),
    ...sessionHandlers(services),
    ...popupHandlers(services),
    ...walletHandlers(services),
    ...swapHandlers(services),
    ...trustHandlers(services),
    ...explorerHandlers(services),
    // Informed swaps: USD prices and price impact, the network fee, served networks, approvals.
    ...createInsightHandlers(services),
    ...createFeeHandlers(services),
    ...createNetworkHandlers(services),
    ...createApprovalHandlers(services),
    ...dappHandlers(services.dapp),
    ...safetyHandlers(services),
  };
}

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
    // A view in use keeps the wallet unlocked; a page (content script) does not, and neither does
    // a view's own polling (the approval window asks every second while open, unattended or not).
    if (kind === 'view') {
      if (PASSIVE_REQUESTS.has(request.type)) await services.wallet.checkAutoLock();
      else await services.wallet.touch();
    }
    const handler = handlers[request.type] as (request: Request, sender: SenderInfo) => Promise<unknown>;
    return { ok: true, result: await handler(request, sender) };
  } catch (error) {
    return { ok: false, error: errorResult(error) };
  }
}

/** Requests a view sends on a timer, not because the user did something. */
const PASSIVE_REQUESTS: ReadonlySet<string> = new Set(['dappApprovals']);

export function registerBackgroundHandlers(services: BackgroundServices): void {
  const handlers = createHandlers(services);
  const extensionOrigin = browser.runtime.getURL('/');
  const kindOf = (sender: Sender | undefined) => senderKind(sender, browser.runtime.id, extensionOrigin);

  // Answered through sendResponse (and `return true`), which Chrome and Firefox both support natively:
  // the background runs on the browser's own API, not the promise-returning listeners of the polyfill.
  browser.runtime.onMessage.addListener(
    (message: unknown, sender: Browser.runtime.MessageSender, sendResponse: (response: Response) => void) => {
      handleMessage(handlers, services, message, kindOf(sender), {
        url: sender.url,
        origin: sender.origin,
        tabId: sender.tab?.id,
        frameId: sender.frameId,
        topUrl: sender.tab?.url,
      }).then(sendResponse, (error: unknown) => sendResponse({ ok: false, error: errorResult(error) }));
      return true;
    },
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
