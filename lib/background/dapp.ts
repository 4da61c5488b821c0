// The background's side of the in-page provider. Every request arrives with the origin the
// BROWSER reported for the sending frame (never one the page wrote), is served by method class
// (lib/dapp/methods.ts), and answers a result or an EIP-1193 error. Requests that need the user
// wait in one bounded queue shown by one approval window (./dapp-approvals.ts).
import { browser } from 'wxt/browser';
import type { DappResponse } from '@/lib/dapp/approval';
import { DappRpcError, RPC_ERROR, toRpcError, unauthorized } from '@/lib/dapp/errors';
import { type ApprovalKind, classifyMethod } from '@/lib/dapp/methods';
import { parseParams } from '@/lib/dapp/params';
import { hexChainId, permittedAccounts, siteFor } from '@/lib/dapp/sites';
import { publicClientFor } from '@/lib/rpc/network';
import type { Settings } from '@/lib/settings/settings';
import type { DappSettings } from '@/lib/state/dapp';
import { dappSettingsItem } from '@/lib/storage/items';
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
  const walletMethod = (origin: string, method: string, params: unknown) =>
    answerWalletMethod(registry, unlocked, origin, method, params);

  async function approvalMethod(
    origin: string,
    kind: ApprovalKind,
    method: string,
    params: unknown,
  ): Promise<DappResponse> {
    const all = await sites();
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
        wantsPermissions ? registry.permissionsOf(origin) : permittedAccounts(await sites(), origin, true);
      if (site && !wantsPermissions && (await unlocked())) return { result: await answer() };
      return ask(origin, kind, { kind: 'connect', chainId: await chainOf(origin) }, async () => {
        const state = await deps.wallet.state();
        const active = state.accounts.find((account) => account.id === state.activeId);
        if (!active) throw new DappRpcError(RPC_ERROR.unauthorized, 'Swaplane has no account to connect.');
        await registry.connect(origin, [active.address], now());
        return answer();
      });
    }
    if (!site) throw unauthorized();
    const chainId = site.chainId;
    const prepared = await prepareRequest({
      kind,
      method,
      params,
      site,
      chainId,
      client: () => publicClientFor(chainId, deps.settings()),
      signer: () => deps.wallet.activeSigner(),
    });
    return ask(origin, kind, prepared.detail, prepared.run);
  }

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
        const client = publicClientFor(await chainOf(origin), deps.settings());
        return { result: await readOnlyCall(client, method, params) };
      }
      if (kind === 'wallet') return { result: await walletMethod(origin, method, params) };
      return await approvalMethod(origin, kind.approval, method, params);
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

/** Methods the wallet answers itself, without a window. */
async function answerWalletMethod(
  registry: SiteRegistry,
  unlocked: () => Promise<boolean>,
  origin: string,
  method: string,
  params: unknown,
): Promise<unknown> {
  switch (method) {
    case 'eth_accounts':
      return permittedAccounts(await registry.sites(), origin, await unlocked());
    case 'eth_chainId':
      return hexChainId(await registry.chainOf(origin));
    case 'net_version':
      return String(await registry.chainOf(origin));
    case 'wallet_switchEthereumChain':
      return registry.switchChain(origin, parseParams(method, params)[0].chainId);
    case 'wallet_addEthereumChain':
      // Only chains Swaplane is configured for: "adding" one of them switches to it.
      return registry.switchChain(origin, parseParams(method, params)[0].chainId);
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
