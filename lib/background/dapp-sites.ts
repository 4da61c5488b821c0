// Connected sites and their chains, and the frames that hear their events. A site's chain lives
// in its stored record; a site that never connected keeps its chain in memory only (harmless to
// lose). Events go to the frames of the origin concerned only: no other page learns of them.
import { RpcRequestError } from 'viem';
import { getChain } from '@/lib/chains';
import { DappRpcError, RPC_ERROR } from '@/lib/dapp/errors';
import { ReadParamsSchema } from '@/lib/dapp/params';
import {
  type ConnectedSite,
  connectSite,
  disconnectSite,
  hexChainId,
  parseHexChainId,
  siteFor,
  withChain,
} from '@/lib/dapp/sites';
import type { RpcClient } from '@/lib/rpc/network';
import { connectedSitesItem } from '@/lib/storage/items';
import type { TrustSettings } from './trust-settings';

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

/** The chain of a site that never connected (or before it does). */
export const DEFAULT_DAPP_CHAIN_ID = 1;
const FRAMES_PER_ORIGIN = 50;

export function createSiteRegistry(
  sendToFrame: (frame: Frame, event: DappEvent) => Promise<void>,
  seal?: Pick<TrustSettings, 'afterOwnChange' | 'trustedSites'>,
) {
  const unconnectedChains = new Map<string, number>();
  const frames = new Map<string, Map<string, Frame>>();
  // Only the sites the seal vouches for (while unlocked): a site added or rewritten in storage.local
  // from outside is not connected, so it gets no account without the approval window.
  const sites = async () => {
    const stored = await connectedSitesItem.get();
    return seal ? seal.trustedSites(stored) : stored;
  };
  // Every write is built from the vouched list plus the user's own action: it is sealed as confirmed.
  const save = (next: ConnectedSite[]) => {
    const write = () => connectedSitesItem.set(next);
    return seal ? seal.afterOwnChange(write, ['connectedSites']) : write();
  };

  async function chainOf(origin: string): Promise<number> {
    return siteFor(await sites(), origin)?.chainId ?? unconnectedChains.get(origin) ?? DEFAULT_DAPP_CHAIN_ID;
  }

  function notify(origin: string, event: DappEvent['event'], data: unknown): void {
    for (const [key, frame] of frames.get(origin) ?? []) {
      sendToFrame(frame, { type: 'swaplane:dapp-event', origin, event, data }).catch(() =>
        frames.get(origin)?.delete(key),
      );
    }
  }

  return {
    sites,
    chainOf,
    notify,
    /** The frame a request came from (as the browser reported it) hears its origin's events. */
    rememberFrame(origin: string, frame: Frame | undefined): void {
      if (!frame) return;
      const known = frames.get(origin) ?? new Map<string, Frame>();
      frames.set(origin, known);
      if (known.size < FRAMES_PER_ORIGIN) known.set(`${frame.tabId}:${frame.frameId}`, frame);
    },
    async permissionsOf(origin: string) {
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
    },
    /** Configured chains only (4902 for any other); chainChanged to the origin's frames. */
    async switchChain(origin: string, raw: string): Promise<null> {
      const chainId = parseHexChainId(raw);
      if (chainId === null) throw new DappRpcError(RPC_ERROR.invalidParams, `Invalid params: chainId ${raw}`);
      if (!getChain(chainId)) {
        throw new DappRpcError(RPC_ERROR.unrecognizedChain, `Swaplane is not configured for chain ${raw}.`);
      }
      if ((await chainOf(origin)) === chainId) return null;
      const all = await sites();
      if (siteFor(all, origin)) await save(withChain(all, origin, chainId));
      else unconnectedChains.set(origin, chainId);
      notify(origin, 'chainChanged', hexChainId(chainId));
      return null;
    },
    async connect(origin: string, accounts: string[], now: number): Promise<void> {
      await save(connectSite(await sites(), origin, accounts, await chainOf(origin), now));
      unconnectedChains.delete(origin);
      notify(origin, 'accountsChanged', accounts);
    },
    async disconnect(origin: string): Promise<ConnectedSite[]> {
      const next = disconnectSite(await sites(), origin);
      await save(next);
      notify(origin, 'accountsChanged', []);
      return next;
    },
  };
}

export type SiteRegistry = ReturnType<typeof createSiteRegistry>;

/** A read-only call passed to the chain's RPC; the node's own JSON-RPC error (a revert) is the dapp's. */
export async function readOnlyCall(client: RpcClient, method: string, params: unknown): Promise<unknown> {
  const parsed = ReadParamsSchema.safeParse(params);
  if (!parsed.success) throw new DappRpcError(RPC_ERROR.invalidParams, 'Invalid params: expected an array.');
  try {
    return await client.request({ method, params: parsed.data } as never);
  } catch (error) {
    const node =
      error instanceof Error && 'walk' in error
        ? (error as RpcRequestError).walk((e) => e instanceof RpcRequestError)
        : null;
    if (node instanceof RpcRequestError) throw new DappRpcError(node.code, node.details.slice(0, 300));
    throw new DappRpcError(RPC_ERROR.resourceUnavailable, 'The network did not answer.');
  }
}
