// The background's side of the in-page provider. Every request arrives with the origin the
// BROWSER reported for the sending frame (never one the page wrote), is served by method class
// (lib/dapp/methods.ts), and answers a result or an EIP-1193 error. Requests that need the user
// wait in one bounded queue shown by one approval window (./dapp-approvals.ts).

import type { Hex } from 'viem';
import { browser } from 'wxt/browser';
import { sameAddress } from '@/lib/api/schema';
import type { DappResponse } from '@/lib/dapp/approval';
import { DappRpcError, RPC_ERROR, toRpcError, unauthorized } from '@/lib/dapp/errors';
import { messageBytesHex } from '@/lib/dapp/message';
import { type ApprovalKind, classifyMethod } from '@/lib/dapp/methods';
import { parseParams } from '@/lib/dapp/params';
import { createRateLimiter } from '@/lib/dapp/rate-limit';
import { type ConnectedSite, hexChainId, siteFor } from '@/lib/dapp/sites';
import { publicClientFor } from '@/lib/rpc/network';
import { recoverMessageAddress } from '@/lib/rpc/recover-signer';
import type { Settings } from '@/lib/settings/settings';
import type { DappSettings } from '@/lib/state/dapp';
import { dappSettingsItem } from '@/lib/storage/items';
import { dappAccounts } from './dapp-accounts';
import { type AskedRequest, type Asker, createApprovalQueue, type PreparedApproval } from './dapp-approvals';
import { type QueueStore, type Revive, sessionQueueStore } from './dapp-queue-store';
import { createRecipientRecord, type RecipientRecord } from './dapp-recipients';
import { sessionRefusalStore } from './dapp-refusals';
import {
  prepareRequest,
  type RequestContext,
  revivedTransaction,
  type SiteKind,
  whileConnected,
} from './dapp-requests';
import {
  createSiteRegistry,
  type DappEvent,
  type Frame,
  readOnlyCall,
  type SiteRegistry,
} from './dapp-sites';
import { createSigning, type Signing } from './signing';
import type { TrustSettings } from './trust-settings';
import type { WalletService } from './wallet';

export { DEFAULT_DAPP_CHAIN_ID } from './dapp-sites';
export type { DappEvent, Frame };

export interface DappDeps {
  settings: () => Settings;
  wallet: WalletService;
  /** Opens the approval window (a popup window) and returns its id. */
  openWindow: () => Promise<number | undefined>;
  focusWindow: (id: number) => Promise<void>;
  closeWindow: (id: number) => Promise<void>;
  sendToFrame: (frame: Frame, event: DappEvent) => Promise<void>;
  /** The seal on the connected sites and the dapp settings (lib/background/trust-settings.ts). */
  seal?: Pick<TrustSettings, 'afterOwnChange' | 'trustedSites'>;
  /** The background's one signing funnel (lib/background/signing.ts); tests may leave it to the service. */
  signing?: Signing;
  /** Where waiting approvals and refusals outlive the worker: storage.session; null: memory only. */
  queueStore?: QueueStore | null;
  now?: () => number;
}

export function createDappService(deps: DappDeps) {
  const now = deps.now ?? Date.now;
  // The context is complete before the queue revives anything: revival runs on first use.
  const context = {} as ApprovalContext;
  const approvalQueue = createApprovalQueue({
    ...(deps.queueStore === null
      ? {}
      : { store: deps.queueStore ?? sessionQueueStore, refusalStore: sessionRefusalStore }),
    revive: reviver(context),
    openWindow: deps.openWindow,
    focusWindow: deps.focusWindow,
    closeWindow: deps.closeWindow,
    walletStatus: async () => (await deps.wallet.state()).status,
    unlock: (password) => deps.wallet.unlock(password),
    now,
  });
  const ask = approvalQueue.ask;
  const registry = createSiteRegistry(deps.sendToFrame, deps.seal);
  const { sites, chainOf } = registry;
  const unlocked = async () => (await deps.wallet.state()).status === 'unlocked';
  const accounts = dappAccounts(deps.wallet, sites);
  const { orderedAccounts } = accounts;
  const walletMethod = async (origin: string, method: string, params: unknown) =>
    method === 'eth_accounts'
      ? orderedAccounts(origin, await unlocked())
      : answerWalletMethod(registry, origin, method, params);

  const readLimiter = createRateLimiter(now);
  const signing = deps.signing ?? createSigning(deps.settings);
  const recipients = createRecipientRecord(() => deps.wallet.trustKey());
  Object.assign(context, {
    deps,
    ask,
    registry,
    accounts,
    unlocked,
    now,
    signing,
    recipients,
  } satisfies ApprovalContext);

  async function request(
    origin: string,
    frame: Frame | undefined,
    method: string,
    params: unknown,
    /** The bridge's key for the request: how its answer is asked for again after a worker restart. */
    key?: string,
    embeddedIn?: string | null, // a frame of another origin's top page (null: cannot be named)
  ): Promise<DappResponse> {
    registry.rememberFrame(origin, frame);
    try {
      const kind = classifyMethod(method);
      if (kind === 'unsupported') {
        throw new DappRpcError(
          RPC_ERROR.unsupportedMethod,
          `Swaplane does not support ${method.slice(0, 60)}.`,
        );
      }
      if (kind === 'read') {
        if (!readLimiter.take(origin)) {
          throw new DappRpcError(
            RPC_ERROR.limitExceeded,
            'This site is making too many requests: slow down.',
          );
        }
        const client = publicClientFor(await chainOf(origin), deps.settings());
        return { result: await readOnlyCall(client, method, params) };
      }
      if (kind === 'wallet') return { result: await walletMethod(origin, method, params) };
      const asked = { method, params, key: key ?? null };
      const from = { origin, frame: frameKey(frame), embeddedIn };
      return await approvalMethod(context, from, kind.approval, asked);
    } catch (error) {
      return { error: toRpcError(error) };
    }
  }

  async function init(origin: string): Promise<{ exposeWindowEthereum: boolean; chainId: string }> {
    const settings = await dappSettingsItem.get();
    return {
      exposeWindowEthereum: settings.exposeWindowEthereum,
      chainId: hexChainId(await chainOf(origin)),
    };
  }

  return {
    init,
    request,
    approvals: approvalQueue.approvals,
    decide: approvalQueue.decide,
    /** A page's bridge asks again for the answer to `key` (its first message died with the worker). */
    resume: (origin: string, frame: Frame, key: string) =>
      approvalQueue.resume(origin, frameKey(frame) ?? '', key),
    /** A tab navigated (its page reloaded or left) or closed: its waiting requests are rejected. */
    tabNavigated: (tabId: number) => approvalQueue.rejectTab(tabId),
    /**
     * The user switched the active account: sites granted it hear accountsChanged with it first
     * (as eth_accounts answers); other sites hear nothing.
     */
    activeAccountChanged: (address: string) => accountsChangedFor(registry, accounts, address, unlocked),
    windowClosed: approvalQueue.windowClosed,
    sites,
    disconnect: registry.disconnect,
    dappSettings: () => dappSettingsItem.get(),
    async setDappSettings(next: DappSettings): Promise<DappSettings> {
      // The user's own change from the settings page: sealed (while unlocked) as confirmed.
      const write = () => dappSettingsItem.set(next);
      await (deps.seal ? deps.seal.afterOwnChange(write, ['dappSettings']) : write());
      return next;
    },
  };
}

export type DappService = ReturnType<typeof createDappService>;

const frameKey = (frame: Frame | undefined): string | null =>
  frame ? `${frame.tabId}:${frame.frameId}` : null;

interface ApprovalContext {
  deps: DappDeps;
  ask: ReturnType<typeof createApprovalQueue>['ask'];
  registry: SiteRegistry;
  accounts: ReturnType<typeof dappAccounts>;
  unlocked: () => Promise<boolean>;
  now: () => number;
  signing: Signing;
  recipients: RecipientRecord;
}

/** A connect request's window content and what approving it does (also for one revived). */
function connectApproval(
  { registry, accounts, now, unlocked }: ApprovalContext,
  origin: string,
  wantsPermissions: boolean,
): () => Promise<PreparedApproval> {
  const answer = async () =>
    wantsPermissions ? registry.permissionsOf(origin) : accounts.orderedAccounts(origin, true);
  return async () => ({
    chainId: await registry.chainOf(origin),
    detail: {
      kind: 'connect',
      chainId: await registry.chainOf(origin),
      accounts: await accounts.offeredAccounts(),
    },
    check: (choice) => accounts.chosenAccounts(choice),
    run: async (choice) => {
      const chosen = await accounts.chosenAccounts(choice);
      await registry.connect(origin, chosen, now());
      // Only the active account signs: a connect that leaves it out makes the first chosen one active.
      const activated = await accounts.activateChosen(chosen);
      if (activated) await accountsChangedFor(registry, accounts, activated, unlocked, origin);
      return answer();
    },
  });
}

/** What a site's request is prepared (or revived) with: the site's chain, client, signer and funnel. */
function requestContext(
  context: ApprovalContext,
  site: ConnectedSite,
  kind: SiteKind,
  asked: Pick<AskedRequest, 'method' | 'params'>,
): RequestContext {
  return {
    kind,
    method: asked.method,
    params: asked.params,
    site,
    chainId: site.chainId,
    client: () => publicClientFor(site.chainId, context.deps.settings()),
    signer: () => context.deps.wallet.activeSigner(),
    signing: context.signing,
    recipients: context.recipients,
  };
}

/** A sign, typed-data or transaction request of a connected site: its window content and its run. */
async function siteRequest(
  context: ApprovalContext,
  site: ConnectedSite,
  kind: SiteKind,
  asked: AskedRequest,
) {
  const prepared = await prepareRequest(requestContext(context, site, kind, asked));
  return whileConnected(prepared, site.origin, context.registry.sites);
}

/** Requests that need the user: connect, sign, typed data, transaction. */
async function approvalMethod(
  context: ApprovalContext,
  from: Asker,
  kind: ApprovalKind,
  asked: AskedRequest,
): Promise<DappResponse> {
  const { ask, registry, accounts, unlocked } = context;
  const { origin } = from;
  const site = siteFor(await registry.sites(), origin);
  if (kind === 'connect') {
    const wantsPermissions = asked.method === 'wallet_requestPermissions';
    if (wantsPermissions) {
      const [permissions] = parseParams('wallet_requestPermissions', asked.params);
      if (!Object.hasOwn(permissions, 'eth_accounts')) {
        throw new DappRpcError(
          RPC_ERROR.invalidParams,
          'Invalid params: only eth_accounts can be requested.',
        );
      }
    }
    if (site && !wantsPermissions && (await unlocked()))
      return { result: await accounts.orderedAccounts(origin, true) };
    return ask(from, kind, connectApproval(context, origin, wantsPermissions), asked);
  }
  if (!site) throw unauthorized();
  const chainId = site.chainId;
  const prepare = async () => ({ chainId, ...(await siteRequest(context, site, kind, asked)) });
  return ask(from, kind, prepare, asked);
}

/**
 * A request a worker before this one left waiting (storage.session), made runnable again: a
 * connect as it was; a signature parsed again from what the page sent; a transaction with exactly
 * the plan its window shows, reviewed by the funnel again. Refused if the site is gone or moved.
 */
function reviver(context: ApprovalContext): Revive {
  return async (entry, view) => {
    if (entry.kind === 'connect') {
      const wantsPermissions = entry.method === 'wallet_requestPermissions';
      return connectApproval(context, entry.origin, wantsPermissions)();
    }
    const site = siteFor(await context.registry.sites(), entry.origin);
    if (!site || site.chainId !== view.chainId) throw unauthorized();
    if (entry.kind !== 'transaction') return siteRequest(context, site, entry.kind, entry);
    if (view.detail.kind !== 'transaction' || !entry.transaction) throw unauthorized();
    const revived = revivedTransaction(
      requestContext(context, site, 'transaction', entry),
      view.detail,
      entry.transaction,
    );
    return whileConnected(revived, site.origin, context.registry.sites);
  };
}

/** Sites granted `address` (but `except`, which gets its answer) hear accountsChanged, active first. */
async function accountsChangedFor(
  registry: SiteRegistry,
  accounts: ReturnType<typeof dappAccounts>,
  address: string,
  unlocked: () => Promise<boolean>,
  except?: string,
): Promise<void> {
  for (const site of await registry.sites()) {
    if (site.origin === except) continue;
    if (!site.accounts.some((account) => sameAddress(account, address))) continue;
    registry.notify(
      site.origin,
      'accountsChanged',
      await accounts.orderedAccounts(site.origin, await unlocked()),
    );
  }
}

/** Methods the wallet answers itself, without a window. */
async function answerWalletMethod(
  registry: SiteRegistry,
  origin: string,
  method: string,
  params: unknown,
): Promise<unknown> {
  switch (method) {
    case 'eth_chainId':
      return hexChainId(await registry.chainOf(origin));
    case 'net_version':
      return String(await registry.chainOf(origin));
    case 'wallet_switchEthereumChain':
      return registry.switchChain(origin, parseParams(method, params)[0].chainId);
    case 'wallet_addEthereumChain':
      // Only chains Swaplane is configured for: "adding" one of them switches to it.
      return registry.switchChain(origin, parseParams(method, params)[0].chainId);
    case 'personal_ecRecover': {
      const [message, signature] = parseParams(method, params);
      try {
        return recoverMessageAddress(messageBytesHex(message), signature as Hex);
      } catch {
        throw new DappRpcError(
          RPC_ERROR.invalidParams,
          'Invalid params: signature does not recover an address.',
        );
      }
    }
    case 'wallet_getPermissions':
      return registry.permissionsOf(origin);
    case 'wallet_revokePermissions':
      parseParams(method, params);
      await registry.disconnect(origin);
      return null;
    default:
      throw new DappRpcError(RPC_ERROR.unsupportedMethod, `Swaplane does not support ${method}.`);
  }
}

/** How long a forgotten approval window may take to close itself before the background closes it. */
const FORGOTTEN_WINDOW_GRACE_MS = 1_000;

/** The approval window and event delivery through the browser's windows and tabs APIs. */
export function dappBrowserApis(): Pick<
  DappDeps,
  'openWindow' | 'focusWindow' | 'closeWindow' | 'sendToFrame'
> {
  return {
    openWindow: async () => {
      const created = await browser.windows.create({
        url: browser.runtime.getURL('/approve.html'),
        type: 'popup',
        width: 400,
        height: 640,
        focused: true,
      });
      return created?.id;
    },
    focusWindow: async (id) => {
      await browser.windows.update(id, { focused: true });
    },
    closeWindow: async (id) => {
      // The window closes itself once its answer renders; this only sweeps one that did not (it was
      // showing a request that arrived as it was being forgotten). Closing it at once would pull the
      // page away under the click that answered.
      await new Promise((resolve) => setTimeout(resolve, FORGOTTEN_WINDOW_GRACE_MS));
      await browser.windows.remove(id);
    },
    sendToFrame: async (frame, event) => {
      await browser.tabs.sendMessage(frame.tabId, event, { frameId: frame.frameId });
    },
  };
}
