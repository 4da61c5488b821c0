// One viem public client per chain and RPC URL. The URL is the settings override when there is
// one, else the registry default; clients are cached so every module shares one transport.
import { BaseError, createClient, http, type PublicClient } from 'viem';
import {
  getBlockNumber,
  getChainId,
  getTransaction,
  getTransactionCount,
  getTransactionReceipt,
  sendRawTransaction,
  simulateBlocks,
} from 'viem/actions';
import { requireChain } from '@/lib/chains';
import { viemChainFor } from '@/lib/chains/viem';
import type { Settings } from '@/lib/settings/settings';
import { estimateFeesPerGas, estimateGas, ethCall, getBalance, readContract } from './read-actions';

export type RpcSettings = Pick<Settings, 'rpcOverrides'>;

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

/**
 * The RPC calls the wallet makes: a subset of viem's PublicClient. Built from viem's
 * tree-shakeable actions rather than createPublicClient, whose every action (ENS, signatures,
 * CCIP, deployless bytecode) would otherwise ship in the background bundle; `call`,
 * `estimateFeesPerGas`, `estimateGas`, `readContract` and `getBalance` are slim ones of our own (./read-actions.ts) for the same reason.
 */
export type RpcClient = Pick<
  PublicClient,
  | 'call'
  | 'chain'
  | 'estimateFeesPerGas'
  | 'estimateGas'
  | 'getBalance'
  | 'getBlockNumber'
  | 'getChainId'
  | 'getTransaction'
  | 'getTransactionCount'
  | 'getTransactionReceipt'
  | 'readContract'
  | 'request'
  | 'sendRawTransaction'
  | 'simulateBlocks'
  | 'transport'
>;

const clients = new Map<string, RpcClient>();

/** The cached public client of a chain (keyed by chain and URL, so a settings change gets a new one). */
export function publicClientFor(
  chainId: number,
  settings?: RpcSettings,
  options: ClientOptions = {},
): RpcClient {
  const rpcUrl = rpcUrlFor(chainId, settings);
  const key = `${chainId} ${rpcUrl} ${options.timeoutMs ?? ''} ${options.retryCount ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    const base = createClient({
      chain: viemChainFor(chainId),
      transport: http(rpcUrl, {
        timeout: options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
        retryCount: options.retryCount ?? 1,
        retryDelay: 200,
        // A redirect is refused, never followed: the node is the URL the user set (rpc-failure.ts
        // names it). 'manual' answers it as status 0; 'error' would read as "unreachable".
        fetchOptions: { redirect: 'manual' },
      }),
      // Block numbers key the balance cache: viem's own block-number cache would hide new blocks.
      cacheTime: 0,
      pollingInterval: 1_000,
    });
    // The same wrapping viem's publicActions decorator does, for the actions above only.
    const c = base;
    client = {
      ...base,
      call: (args: Parameters<typeof ethCall>[1]) => ethCall(c, args),
      estimateFeesPerGas: () => estimateFeesPerGas(c),
      estimateGas: (args: Parameters<typeof estimateGas>[1]) => estimateGas(c, args),
      getBalance: (args: Parameters<typeof getBalance>[1]) => getBalance(c, args),
      getBlockNumber: (args?: Parameters<typeof getBlockNumber>[1]) => getBlockNumber(c, args),
      getChainId: () => getChainId(c),
      getTransaction: (args: Parameters<typeof getTransaction>[1]) => getTransaction(c, args),
      getTransactionCount: (args: Parameters<typeof getTransactionCount>[1]) => getTransactionCount(c, args),
      getTransactionReceipt: (args: Parameters<typeof getTransactionReceipt>[1]) =>
        getTransactionReceipt(c, args),
      readContract: (args: Parameters<typeof readContract>[1]) => readContract(c, args),
      sendRawTransaction: (args: Parameters<typeof sendRawTransaction>[1]) => sendRawTransaction(c, args),
      simulateBlocks: (args: Parameters<typeof simulateBlocks>[1]) => simulateBlocks(c, args),
    } as unknown as RpcClient;
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
  // An HTTP answer with a 4xx is a reachable node refusing (e.g. 429); 5xx or no status is "down",
  // and so is a refused redirect (status 0 in a browser, the 3xx in Node): no node at the URL set.
  const redirect = status === 0 || (status !== undefined && status >= 300 && status < 400);
  return status === undefined || redirect || status >= 500 || status === 429;
}
