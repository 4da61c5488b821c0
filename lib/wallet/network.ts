// One viem public client per chain and RPC URL. The URL is the settings override when there is
// one, else the registry default; clients are cached so every module shares one transport.
import { BaseError, createPublicClient, http, type PublicClient } from 'viem';
import { isLocalRpcUrl, requireChain } from '@/lib/chains';
import { viemChainFor } from '@/lib/chains/viem';
import type { Settings } from '@/lib/storage/settings';

export type RpcSettings = Pick<Settings, 'rpcOverrides'>;

export interface NetworkInfo {
  chainId: number;
  rpcUrl: string;
  /** The RPC runs on this machine (a devnet): the UI labels the chain "local". */
  local: boolean;
  /** The URL comes from the user's settings, not the registry. */
  overridden: boolean;
}

export interface ClientOptions {
  /** Per request; an unreachable RPC must fail fast enough for a popup to say so. */
  timeoutMs?: number;
  retryCount?: number;
}

export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

/** The RPC URL for a chain: the non-blank settings override, else the registry default. */
export function rpcUrlFor(chainId: number, settings?: RpcSettings): string {
  const override = settings?.rpcOverrides[String(chainId)]?.trim();
  return override || requireChain(chainId).defaultRpcUrl;
}

export function networkInfo(chainId: number, settings?: RpcSettings): NetworkInfo {
  const rpcUrl = rpcUrlFor(chainId, settings);
  return {
    chainId,
    rpcUrl,
    local: isLocalRpcUrl(rpcUrl),
    overridden: Boolean(settings?.rpcOverrides[String(chainId)]?.trim()),
  };
}

const clients = new Map<string, PublicClient>();

/** The cached public client of a chain (keyed by chain and URL, so a settings change gets a new one). */
export function publicClientFor(
  chainId: number,
  settings?: RpcSettings,
  options: ClientOptions = {},
): PublicClient {
  const rpcUrl = rpcUrlFor(chainId, settings);
  const key = `${chainId} ${rpcUrl} ${options.timeoutMs ?? ''} ${options.retryCount ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({
      chain: viemChainFor(chainId),
      transport: http(rpcUrl, {
        timeout: options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
        retryCount: options.retryCount ?? 1,
        retryDelay: 200,
      }),
      // Block numbers key the balance cache: viem's own block-number cache would hide new blocks.
      cacheTime: 0,
      pollingInterval: 1_000,
    }) as PublicClient;
    clients.set(key, client);
  }
  return client;
}

/** Drops every cached client (tests, or after the user edits RPC settings). */
export function clearPublicClients(): void {
  clients.clear();
}

/**
 * True when an error means the RPC could not be reached or did not answer (as opposed to the
 * node answering with an error): connection refused, DNS, timeout, HTTP 5xx, a non-JSON body.
 */
export function isRpcUnavailable(error: unknown): boolean {
  if (!(error instanceof BaseError)) {
    return error instanceof TypeError && /fetch failed|network/i.test(error.message);
  }
  const found = error.walk((e) => {
    const name = (e as { name?: string }).name;
    return name === 'HttpRequestError' || name === 'TimeoutError' || name === 'WebSocketRequestError';
  });
  if (!found) return false;
  const status = (found as { status?: number }).status;
  // An HTTP answer with a 4xx is a reachable node refusing (e.g. 429); 5xx or no status is "down".
  return status === undefined || status >= 500 || status === 429;
}
