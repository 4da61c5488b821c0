// What went wrong with a network node (RPC), named for the user: it did not answer in time, nothing
// answered at its address, it answered an HTTP error, it answered something that is not JSON-RPC,
// it redirected elsewhere (refused: Swaplane talks only to the URL set), or it serves another chain.
// Never a generic "check your internet connection": each names its cause and the RPC's host.
import { BaseError } from 'viem';
import type { UserMessage } from '@/lib/api/messages';
import { getChain } from '@/lib/chains';
import { publicClientFor, type RpcClient, type RpcSettings } from './network';

export type RpcFailureCause =
  | 'timeout'
  | 'unreachable'
  | 'http-status'
  | 'not-json'
  | 'redirect'
  | 'wrong-chain';

export interface RpcFailure {
  cause: RpcFailureCause;
  /** The RPC's host (and port), when the error says which URL it was. */
  host: string | null;
  /** The HTTP status of an 'http-status' failure. */
  status?: number;
  /** The chains of a 'wrong-chain' failure. */
  expectedChainId?: number;
  rpcChainId?: number;
}

/** The RPC at `url` answers for another chain than the one it is set for. */
export class RpcWrongChainError extends Error {
  constructor(
    readonly url: string,
    readonly expectedChainId: number,
    readonly rpcChainId: number,
  ) {
    super(`The RPC at ${url} answers for chain ${rpcChainId}, not ${expectedChainId}`);
    this.name = 'RpcWrongChainError';
  }
}

function hostOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

/**
 * The cause of `error` when it is a failure to get a JSON-RPC answer at all (a node answering with
 * a JSON-RPC error, e.g. a revert, is not one: null).
 */
export function rpcFailureOf(error: unknown): RpcFailure | null {
  if (error instanceof RpcWrongChainError)
    return {
      cause: 'wrong-chain',
      host: hostOf(error.url),
      expectedChainId: error.expectedChainId,
      rpcChainId: error.rpcChainId,
    };
  if (!(error instanceof BaseError)) {
    // Outside viem: fetch's own TypeError is the only "nothing answered" there is.
    if (error instanceof TypeError && /fetch|network/i.test(error.message))
      return { cause: 'unreachable', host: null };
    return null;
  }
  const found = error.walk((e) => {
    const name = (e as { name?: string }).name;
    return name === 'HttpRequestError' || name === 'TimeoutError';
  }) as (BaseError & { url?: string; status?: number; cause?: unknown }) | null;
  if (!found) return null;
  const host = hostOf(found.url);
  if (found.name === 'TimeoutError') return { cause: 'timeout', host };
  const status = found.status;
  // fetch with redirect: 'manual' (network.ts) answers a redirect as an opaque response, status 0,
  // in a browser; Node's fetch hands over the 3xx itself.
  if (status === 0 || (status !== undefined && status >= 300 && status < 400))
    return { cause: 'redirect', host };
  if (status !== undefined) return { cause: 'http-status', host, status };
  if (found.cause instanceof SyntaxError) return { cause: 'not-json', host };
  return { cause: 'unreachable', host };
}

const chainLabel = (chainId: number | undefined) => {
  if (chainId === undefined) return 'another chain';
  const chain = getChain(chainId);
  return chain ? `${chain.name} (chain ${chainId})` : `chain ${chainId}`;
};

/** The words for `failure`: the title names the cause (the popup's one-line errors show the title). */
export function rpcFailureMessage(failure: RpcFailure): UserMessage {
  const at = failure.host ? `The RPC at ${failure.host}` : 'The network’s RPC';
  const settings = 'Settings › Advanced › RPC URLs';
  switch (failure.cause) {
    case 'timeout':
      return {
        title: `${at} did not answer in time`,
        detail: 'It accepted the connection but sent no answer before Swaplane stopped waiting.',
        action: `Try again; if it stays slow, set another RPC in ${settings}.`,
      };
    case 'unreachable':
      return {
        title: `${at} could not be reached`,
        detail:
          'Nothing answered at that address: the node is not running, refused the connection, or its name does not resolve.',
        action: `Check that the node runs, or set another RPC in ${settings}.`,
      };
    case 'http-status':
      return {
        title: `${at} answered with HTTP error ${failure.status}`,
        detail:
          'It answered with an HTTP error instead of a JSON-RPC answer (the node or a proxy in front of it failed).',
        action: `Try again later, or set another RPC in ${settings}.`,
      };
    case 'not-json':
      return {
        title: `${at} answered with something that is not JSON-RPC`,
        detail: 'Its answer is not JSON (often a web page): the URL may not be an RPC endpoint.',
        action: `Check the RPC URL in ${settings}.`,
      };
    case 'redirect':
      return {
        title: `${at} answered from another address; Swaplane refused it`,
        detail:
          'It redirected the request elsewhere. Swaplane talks only to the RPC URL you set, never where it points.',
        action: `Set the RPC’s final address in ${settings}.`,
      };
    case 'wrong-chain':
      return {
        title: `${at} is for ${chainLabel(failure.rpcChainId)}, not ${chainLabel(failure.expectedChainId)}`,
        detail:
          'The RPC URL set for this network serves a different chain, so nothing it says about this one can be used.',
        action: `Fix the RPC URL in ${settings}.`,
      };
  }
}

/** Clients whose node said which chain it serves (clients are cached per chain and URL). */
const servedChain = new WeakMap<object, number>();

/** Fails with RpcWrongChainError unless the client's RPC serves `chainId` (asked once per client). */
export function chainCheckFor(
  client: Pick<RpcClient, 'getChainId' | 'transport'>,
  chainId: number,
): () => Promise<void> {
  return async () => {
    if (servedChain.get(client) === chainId) return;
    const rpcChainId = await client.getChainId();
    if (rpcChainId !== chainId)
      throw new RpcWrongChainError(String(client.transport.url ?? ''), chainId, rpcChainId);
    servedChain.set(client, chainId);
  };
}

/**
 * The RPC client of `chainId` once its node has said it serves that chain: for every figure the
 * user reads (balances, fees, allowances), so another chain's answers are never shown as this one's.
 */
export async function checkedClientFor(chainId: number, settings?: RpcSettings): Promise<RpcClient> {
  const client = publicClientFor(chainId, settings);
  await chainCheckFor(client, chainId)();
  return client;
}
