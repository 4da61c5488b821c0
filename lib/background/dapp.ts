// The background's side of the in-page provider. Every request arrives with the origin the
// BROWSER reported for the sending frame (never one the page wrote), is served by method class
// (lib/dapp/methods.ts), and answers a result or an EIP-1193 error. Requests that need the user
// wait in one bounded queue shown by one approval window; closing the window rejects them (4001).
import { RpcRequestError } from 'viem';
import { browser } from 'wxt/browser';
import { getChain } from '@/lib/chains';
import type { ApprovalDetail, ApprovalsState, ApprovalView, DappResponse } from '@/lib/dapp/approval';
import { DappRpcError, RPC_ERROR, rejected, toRpcError, unauthorized } from '@/lib/dapp/errors';
import { type ApprovalKind, classifyMethod } from '@/lib/dapp/methods';
import { originWarnings } from '@/lib/dapp/origin';
import { parseParams, ReadParamsSchema } from '@/lib/dapp/params';
import { current, enqueue, type Queued, removeFromQueue } from '@/lib/dapp/queue';
import type { DappSettings } from '@/lib/dapp/settings';
import {
  type ConnectedSite,
  connectSite,
  disconnectSite,
  hexChainId,
  parseHexChainId,
  permittedAccounts,
  siteFor,
  withChain,
} from '@/lib/dapp/sites';
import { connectedSitesItem, dappSettingsItem } from '@/lib/storage/items';
import type { Settings } from '@/lib/storage/settings';
import { publicClientFor } from '@/lib/wallet/network';
import { prepareRequest } from './dapp-requests';
import type { WalletService } from './wallet';

export interface Frame {
  tabId: number;
  frameId: number;
}

export interface DappEvent {
  type: 'swaplane:dapp-event';
  origin: string;
  event: 'accountsChanged' | 'chainChanged';
  data: unknown;
}

export interface DappDeps {
  settings: () => Settings;
  wallet: WalletService;
  /** Opens the approval window (a popup window) and returns its id. */
  openWindow: () => Promise<number | undefined>;
  focusWindow: (id: number) => Promise<void>;
  sendToFrame: (frame: Frame, event: DappEvent) => Promise<void>;
  now?: () => number;
}

/** The chain of a site that never connected (or before it does). */
export const DEFAULT_DAPP_CHAIN_ID = 1;

interface Pending extends Queued {
  kind: ApprovalKind;
  view: ApprovalView;
  /** Runs once the user approved (the wallet is unlocked by then); its value goes to the page. */
  run: () => Promise<unknown>;
  settle: (response: DappResponse) => void;
}

export function createDappService(deps: DappDeps) {
  const now = deps.now ?? Date.now;
  let queue: Pending[] = [];
  let windowId: number | null = null;
  let nextId = 0;
  const unconnectedChains = new Map<string, number>();
  const frames = new Map<string, Map<string, Frame>>();

  const sites = () => connectedSitesItem.get();
  async function chainOf(origin: string): Promise<number> {
    return siteFor(await sites(), origin)?.chainId ?? unconnectedChains.get(origin) ?? DEFAULT_DAPP_CHAIN_ID;
  }
  async function unlocked(): Promise<boolean> {
    return (await deps.wallet.state()).status === 'unlocked';
  }

  function rememberFrame(origin: string, frame: Frame | undefined): void {
    if (!frame) return;
    const known = frames.get(origin) ?? new Map<string, Frame>();
    frames.set(origin, known);
    if (known.size < 50) known.set(`${frame.tabId}:${frame.frameId}`, frame);
  }

  /** Pushes an event to the frames of one origin only: no other page learns of it. */
  function notify(origin: string, event: DappEvent['event'], data: unknown): void {
    for (const [key, frame] of frames.get(origin) ?? []) {
      deps
        .sendToFrame(frame, { type: 'swaplane:dapp-event', origin, event, data })
        .catch(() => frames.get(origin)?.delete(key));
    }
  }

  async function permissionsOf(origin: string) {
    const site = siteFor(await sites(), origin);
    if (!site) return [];
    return [
      {
        invoker: origin,
        parentCapability: 'eth_accounts',
        caveats: [{ type: 'restrictReturnedAccounts', value: site.accounts }],
        date: site.connectedAt,
      },
    ];
  }

  async function switchChain(origin: string, raw: string): Promise<null> {
    const chainId = parseHexChainId(raw);
    if (chainId === null) throw new DappRpcError(RPC_ERROR.invalidParams, `Invalid params: chainId ${raw}`);
    if (!getChain(chainId)) {
      throw new DappRpcError(RPC_ERROR.unrecognizedChain, `Swaplane is not configured for chain ${raw}.`);
    }
    if ((await chainOf(origin)) === chainId) return null;
    const all = await sites();
    if (siteFor(all, origin)) await connectedSitesItem.set(withChain(all, origin, chainId));
    else unconnectedChains.set(origin, chainId);
    notify(origin, 'chainChanged', hexChainId(chainId));
    return null;
  }

  async function disconnect(origin: string): Promise<ConnectedSite[]> {
    const next = disconnectSite(await sites(), origin);
    await connectedSitesItem.set(next);
    notify(origin, 'accountsChanged', []);
    return next;
  }

  async function walletMethod(origin: string, method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case 'eth_accounts':
        return permittedAccounts(await sites(), origin, await unlocked());
      case 'eth_chainId':
        return hexChainId(await chainOf(origin));
      case 'net_version':
        return String(await chainOf(origin));
      case 'wallet_switchEthereumChain':
        return switchChain(origin, parseParams(method, params)[0].chainId);
      case 'wallet_addEthereumChain':
        // Only chains Swaplane is configured for: "adding" one of them switches to it.
        return switchChain(origin, parseParams(method, params)[0].chainId);
      case 'wallet_getPermissions':
        return permissionsOf(origin);
      case 'wallet_revokePermissions':
        parseParams(method, params);
        await disconnect(origin);
        return null;
      default:
        throw new DappRpcError(RPC_ERROR.unsupportedMethod, `Swaplane does not support ${method}.`);
    }
  }

  async function readMethod(origin: string, method: string, params: unknown): Promise<unknown> {
    const parsed = ReadParamsSchema.safeParse(params);
    if (!parsed.success)
      throw new DappRpcError(RPC_ERROR.invalidParams, 'Invalid params: expected an array.');
    const client = publicClientFor(await chainOf(origin), deps.settings());
    try {
      return await client.request({ method, params: parsed.data } as never);
    } catch (error) {
      // The node's own JSON-RPC error (a revert, a bad block tag) is the dapp's to see.
      const node =
        error instanceof Error && 'walk' in error
          ? (error as RpcRequestError).walk((e) => e instanceof RpcRequestError)
          : null;
      if (node instanceof RpcRequestError) throw new DappRpcError(node.code, node.details.slice(0, 300));
      throw new DappRpcError(RPC_ERROR.resourceUnavailable, 'The network did not answer.');
    }
  }

  let opening: Promise<void> | null = null;
  /** One window for the whole queue: concurrent requests share the one being opened. */
  function ensureWindow(): Promise<void> {
    opening ??= (async () => {
      if (windowId !== null) {
        const focused = await deps.focusWindow(windowId).then(
          () => true,
          () => false,
        );
        if (focused) return;
      }
      windowId = (await deps.openWindow()) ?? null;
    })().finally(() => {
      opening = null;
    });
    return opening;
  }

  function ask(origin: string, kind: ApprovalKind, detail: ApprovalDetail, run: () => Promise<unknown>) {
    return new Promise<DappResponse>((settle) => {
      const id = `${now().toString(36)}-${(nextId++).toString(36)}`;
      const view: ApprovalView = { id, origin, warnings: originWarnings(origin), detail };
      const added = enqueue(queue, { id, origin, kind, view, run, settle });
      if (!added.ok) {
        settle({
          error: {
            code: RPC_ERROR.limitExceeded,
            message:
              added.reason === 'origin-full'
                ? 'This site already has requests waiting for the user.'
                : 'Too many requests are waiting for the user.',
          },
        });
        return;
      }
      queue = added.queue;
      void ensureWindow().catch(() => undefined);
    });
  }

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
        wantsPermissions ? permissionsOf(origin) : permittedAccounts(await sites(), origin, true);
      if (site && !wantsPermissions && (await unlocked())) return { result: await answer() };
      return ask(origin, kind, { kind: 'connect', chainId: await chainOf(origin) }, async () => {
        const state = await deps.wallet.state();
        const active = state.accounts.find((account) => account.id === state.activeId);
        if (!active) throw new DappRpcError(RPC_ERROR.unauthorized, 'Swaplane has no account to connect.');
        await connectedSitesItem.set(
          connectSite(await sites(), origin, [active.address], await chainOf(origin), now()),
        );
        unconnectedChains.delete(origin);
        notify(origin, 'accountsChanged', [active.address]);
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
    rememberFrame(origin, frame);
    try {
      const kind = classifyMethod(method);
      if (kind === 'unsupported') {
        throw new DappRpcError(
          RPC_ERROR.unsupportedMethod,
          `Swaplane does not support ${method.slice(0, 60)}.`,
        );
      }
      if (kind === 'read') return { result: await readMethod(origin, method, params) };
      if (kind === 'wallet') return { result: await walletMethod(origin, method, params) };
      return await approvalMethod(origin, kind.approval, method, params);
    } catch (error) {
      return { error: toRpcError(error) };
    }
  }

  async function approvals(): Promise<ApprovalsState> {
    const head = current(queue);
    return {
      wallet: (await deps.wallet.state()).status,
      current: head?.view ?? null,
      waiting: queue.slice(1).map(({ id, origin, kind }) => ({ id, origin, kind })),
    };
  }

  async function decide(id: string, approve: boolean, password?: string): Promise<ApprovalsState> {
    const pending = queue.find((entry) => entry.id === id);
    if (!pending) throw new DappRpcError(RPC_ERROR.resourceUnavailable, 'This request is no longer waiting.');
    if (!approve) {
      queue = removeFromQueue(queue, id);
      pending.settle({ error: toRpcError(rejected()) });
      return approvals();
    }
    // A wrong password keeps the request waiting: the window says so and asks again.
    if (!(await unlocked())) {
      if (!password) throw new DappRpcError(RPC_ERROR.unauthorized, 'Unlock Swaplane first.');
      await deps.wallet.unlock(password);
    }
    queue = removeFromQueue(queue, id);
    try {
      pending.settle({ result: await pending.run() });
    } catch (error) {
      pending.settle({ error: toRpcError(error) });
      throw error;
    }
    return approvals();
  }

  /** The window went away (closed by the user): everything it was asking about is rejected. */
  function windowClosed(id: number): void {
    if (id !== windowId) return;
    windowId = null;
    const dropped = queue;
    queue = [];
    for (const pending of dropped) pending.settle({ error: toRpcError(rejected()) });
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
    approvals,
    decide,
    windowClosed,
    sites,
    disconnect,
    dappSettings: () => dappSettingsItem.get(),
    async setDappSettings(next: DappSettings): Promise<DappSettings> {
      await dappSettingsItem.set(next);
      return next;
    },
  };
}

export type DappService = ReturnType<typeof createDappService>;

/** The approval window and event delivery through the browser's windows and tabs APIs. */
export function dappBrowserApis(): Pick<DappDeps, 'openWindow' | 'focusWindow' | 'sendToFrame'> {
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
    sendToFrame: async (frame, event) => {
      await browser.tabs.sendMessage(frame.tabId, event, { frameId: frame.frameId });
    },
  };
}
