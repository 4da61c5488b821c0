// The protocol's dapp requests. dappInit and dappRequest come from the bridge content script: the
// origin is taken from what the browser says about the sender, never from the message.
import { originOf } from '@/lib/dapp/sites';
import type { DappService } from '../dapp';
import { CodedError } from '../errors';
import type { Handlers } from './types';

function senderOrigin(sender: { url?: string; origin?: string }): string {
  // Chrome reports the frame's origin; Firefox its URL. An opaque origin ("null") is refused.
  // An opaque origin (sandboxed frame, data: URL) has no identity to connect: never its URL's.
  if (sender.origin === 'null')
    throw new CodedError('FORBIDDEN', 'Pages with an opaque origin cannot use the provider.');
  const origin = originOf(sender.origin ?? sender.url);
  if (!origin) throw new CodedError('FORBIDDEN', 'Only http(s) pages can use the provider.');
  return origin;
}

/**
 * The top page's origin when a frame of another origin asks (null: a page Swaplane cannot name);
 * undefined for the top page itself or a frame of its own origin.
 */
function embedderOf(
  sender: { frameId?: number; topUrl?: string },
  origin: string,
): string | null | undefined {
  if (!sender.frameId) return undefined;
  const top = originOf(sender.topUrl);
  return top === origin ? undefined : top;
}

const frameOf = (sender: { tabId?: number; frameId?: number }) =>
  sender.tabId !== undefined ? { tabId: sender.tabId, frameId: sender.frameId ?? 0 } : undefined;

export function dappHandlers(
  dapp: DappService,
): Pick<
  Handlers,
  | 'dappInit'
  | 'dappRequest'
  | 'dappResume'
  | 'dappApprovals'
  | 'dappDecide'
  | 'dappSites'
  | 'dappDisconnect'
  | 'dappGetSettings'
  | 'dappSetSettings'
> {
  return {
    dappInit: async (_request, sender) => dapp.init(senderOrigin(sender)),
    dappRequest: async ({ method, params, key }, sender) => {
      const origin = senderOrigin(sender);
      return dapp.request(origin, frameOf(sender), method, params, key, embedderOf(sender, origin));
    },
    // The frame asking again is the browser's, as is the origin: a page can only resume its own.
    dappResume: async ({ key }, sender) => {
      const frame = frameOf(sender);
      if (!frame) throw new CodedError('FORBIDDEN', 'Only a page can resume its request.');
      return dapp.resume(senderOrigin(sender), frame, key);
    },
    dappApprovals: ({ selected }) => dapp.approvals(selected),
    dappDecide: ({ id, approve, password, acknowledged, accounts }) =>
      dapp.decide(id, approve, password, acknowledged, accounts ? { accounts } : {}),
    dappSites: () => dapp.sites(),
    dappDisconnect: ({ origin }) => dapp.disconnect(origin),
    dappGetSettings: () => dapp.dappSettings(),
    dappSetSettings: ({ settings }) => dapp.setDappSettings(settings),
  };
}
