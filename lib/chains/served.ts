// Which networks the configured swap service and RPCs actually serve: a network is offered only
// when the service lists tokens for it and its RPC answers with the right chain id.

export interface NetworkStatus {
  chainId: number;
  served: boolean;
  /** Why not, in plain words (null when served). */
  reason: string | null;
}

export type Probe<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function networkStatus(
  chainId: number,
  tokens: Probe<{ count: number }>,
  rpc: Probe<number>,
  unsupported: (error: unknown) => boolean,
): NetworkStatus {
  if (!tokens.ok) {
    const reason = unsupported(tokens.error)
      ? 'Not offered by this swap service'
      : 'The swap service did not answer for this network';
    return { chainId, served: false, reason };
  }
  if (tokens.value.count === 0)
    return { chainId, served: false, reason: 'The swap service lists no tokens here' };
  if (!rpc.ok) return { chainId, served: false, reason: 'This network’s RPC did not answer' };
  if (rpc.value !== chainId)
    return { chainId, served: false, reason: `The RPC serves another network (id ${rpc.value})` };
  return { chainId, served: true, reason: null };
}

export async function probe<T>(run: () => Promise<T>): Promise<Probe<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}
