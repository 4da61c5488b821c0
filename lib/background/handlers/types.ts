// What every handler file shares: the handler signature per request type. Each file of this folder
// exports a function returning the handlers of one concern; lib/background/router.ts assembles them.
import type { ResultOf } from '@/lib/messaging/protocol';
import type { Request, RequestType } from '@/lib/messaging/requests';

/** What the browser says about a sender, for the few handlers that depend on it. */
export interface SenderInfo {
  /** The sending frame's URL, as the browser reports it (a page cannot choose it). */
  url?: string;
  /** The sending frame's origin, as the browser reports it (Chrome). */
  origin?: string;
  tabId?: number;
  frameId?: number;
  /** The URL of the sending tab's top page, as the browser reports it (a frame's embedder). */
  topUrl?: string;
}

export type Handlers = {
  [T in RequestType]: (request: Extract<Request, { type: T }>, sender: SenderInfo) => Promise<ResultOf<T>>;
};
