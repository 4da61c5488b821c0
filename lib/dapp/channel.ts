// The window.postMessage channel between the in-page provider (MAIN world) and the bridge content
// script (isolated world). The page can post anything on it: the bridge accepts only well-formed
// requests from its own window, and what it posts back carries nothing a page could not ask for
// itself. No zod here: both scripts are budgeted (provider <= 10 kB gzip).

export const TO_BRIDGE = 'swaplane:bridge';
export const TO_PROVIDER = 'swaplane:provider';
/** The provider's start-up question (window.ethereum allowed?, the site's chain). */
export const INIT_METHOD = 'swaplane_init';

export interface ChannelRequest {
  target: typeof TO_BRIDGE;
  id: number;
  method: string;
  params?: unknown;
}

export type ChannelReply =
  | { target: typeof TO_PROVIDER; id: number; result: unknown }
  | { target: typeof TO_PROVIDER; id: number; error: { code: number; message: string } }
  | { target: typeof TO_PROVIDER; event: 'accountsChanged' | 'chainChanged'; data: unknown };

/** A request the bridge forwards, or null for anything else a page (or another script) posted. */
export function parseChannelRequest(data: unknown): ChannelRequest | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.target !== TO_BRIDGE) return null;
  const { id, method, params } = message;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null;
  if (typeof method !== 'string' || method.length === 0 || method.length > 100) return null;
  if (params !== undefined && (typeof params !== 'object' || params === null)) return null;
  return params === undefined ? { target: TO_BRIDGE, id, method } : { target: TO_BRIDGE, id, method, params };
}

/** The background's answer for one request, checked by hand (no zod in content scripts). */
export function replyFor(id: number, answer: unknown): ChannelReply {
  const fail = (code: number, message: string): ChannelReply => ({
    target: TO_PROVIDER,
    id,
    error: { code, message },
  });
  if (typeof answer !== 'object' || answer === null) return fail(4900, 'Swaplane is not reachable.');
  const response = answer as { ok?: unknown; result?: unknown; error?: { message?: unknown } };
  if (response.ok !== true) {
    const message =
      typeof response.error?.message === 'string' ? response.error.message : 'Swaplane refused the request.';
    return fail(-32603, message);
  }
  const inner = response.result as { result?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (inner && typeof inner === 'object' && 'error' in inner && inner.error) {
    const { code, message } = inner.error;
    return fail(
      typeof code === 'number' ? code : -32603,
      typeof message === 'string' ? message : 'Request failed.',
    );
  }
  if (inner && typeof inner === 'object' && 'result' in inner)
    return { target: TO_PROVIDER, id, result: inner.result };
  return { target: TO_PROVIDER, id, result: response.result };
}
