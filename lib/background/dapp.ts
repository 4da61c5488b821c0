// The background's side of the in-page provider. Every request arrives with the origin the
// BROWSER reported for the sending frame (never one the page wrote), is served by method class
// (lib/dapp/methods.ts), and answers a result or an EIP-1193 error. Requests that need the user
// wait in one bounded queue shown by one approval window (./dapp-approvals.ts).

import { getAddress, type Hex, recoverMessageAddress } from 'viem';
import { browser } from 'wxt/browser';
import { sameAddress } from '@/lib/api/schema';
import type { DappResponse } from '@/lib/dapp/approval';
import { DappRpcError, RPC_ERROR, toRpcError, unauthorized } from '@/lib/dapp/errors';
import { messageBytesHex } from '@/lib/dapp/message';
import { type ApprovalKind, classifyMethod } from '@/lib/dapp/methods';
import { parseParams } from '@/lib/dapp/params';
import { createRateLimiter } from '@/lib/dapp/rate-limit';
import { hexChainId, siteFor } from '@/lib/dapp/sites';
import { publicClientFor } from '@/lib/rpc/network';
import type { Settings } from '@/lib/settings/settings';
import type { DappSettings } from '@/lib/state/dapp';
import { dappSettingsItem } from '@/lib/storage/items';
import { dappAccounts } from './dapp-accounts';
import { createApprovalQueue } from './dapp-approvals';
import { prepareRequest } from './dapp-requests';
import {
  createSiteRegistry,
  type DappEvent,
  type Frame,
  readOnlyCall,
  type SiteRegistry,
} from './dapp-sites';
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
  now?: () => number;
}

export function createDappService(deps: DappDeps) {
  const now = deps.now ?? Date.now;
  const approvalQueue = createApprovalQueue({
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
  const context: ApprovalContext = { deps, ask, registry, accounts, unlocked, now };

  async function request(
    origin: string,
    frame: Frame | undefined,
    method: string,
    params: unknown,
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
      return await approvalMethod(context, origin, frameKey(frame), kind.approval, method, params);
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
}

/** Requests that need the user: connect, sign, typed data, transaction. */
async function approvalMethod(
  { deps, ask, registry, accounts, unlocked, now }: ApprovalContext,
  origin: string,
  frame: string | null,
  kind: ApprovalKind,
  method: string,
  params: unknown,
): Promise<DappResponse> {
  const all = await registry.sites();
  const site = siteFor(all, origin);
  if (kind === 'connect') {
    const wantsPermissions = method === 'wallet_requestPermissions';
    if (wantsPermissions) {
      const [asked] = parseParams(method, params);
      if (!Object.hasOwn(asked, 'eth_accounts')) {
        throw new DappRpcError(
          RPC_ERROR.invalidParams,
          'Invalid params: only eth_accounts can be requested.',
        );
      }
    }
    const answer = async () =>
      wantsPermissions ? registry.permissionsOf(origin) : accounts.orderedAccounts(origin, true);
    if (site && !wantsPermissions && (await unlocked())) return { result: await answer() };
    return ask(
      origin,
      kind,
      async () => ({
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
          const activated = await accounts.activateChosen(chosen);
          if (activated) await accountsChangedFor(registry, accounts, activated, unlocked, origin);
          return answer();
        },
      }),
      frame,
    );
  }
  if (!site) throw unauthorized();
  const chainId = site.chainId;
  return ask(
    origin,
    kind,
    async () => ({
      chainId,
      ...(await prepareRequest({
        kind,
        method,
        params,
        site,
        chainId,
        client: () => publicClientFor(chainId, deps.settings()),
        signer: () => deps.wallet.activeSigner(),
      })),
    }),
    frame,
  );
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
        return getAddress(
          await recoverMessageAddress({
            message: { raw: messageBytesHex(message) },
            signature: signature as Hex,
          }),
        );
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
