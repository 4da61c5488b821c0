// A network can be reset under the wallet (a local devnet restarted, a test chain wiped): history
// recorded on it then names transactions the chain no longer has. Marked here so Activity does not
// show them as current. Per chain: the newest and the oldest confirmed entry are looked up; a
// missing newest one means the whole history up to it is from an earlier run; a missing oldest one
// with a present newest one means a reset in between, found by walking forward (bounded).
import type { HistoryEntry } from '@/lib/state/pipeline-state';

/** Is this transaction on the chain now? 'unknown' (an RPC failure) never marks anything. */
export type ReceiptProbe = (chainId: number, hash: string) => Promise<'found' | 'missing' | 'unknown'>;

const MAX_WALK = 25;

/** The entries, each from a chain that no longer has it marked `earlierChain` (same order). */
export async function markEarlierChains(
  entries: HistoryEntry[],
  probe: ReceiptProbe,
): Promise<HistoryEntry[]> {
  const cutoffs = new Map<number, number>(); // chainId -> entries created at or before this are earlier
  for (const chainId of new Set(entries.map((entry) => entry.chainId))) {
    // Newest first, as history is kept.
    const confirmed = entries.filter((e) => e.chainId === chainId && e.status === 'confirmed' && e.hash);
    const newest = confirmed[0];
    const oldest = confirmed[confirmed.length - 1];
    if (!newest || !oldest) continue;
    const atNewest = await probe(chainId, newest.hash as string);
    if (atNewest === 'missing') {
      cutoffs.set(chainId, newest.createdAt);
      continue;
    }
    if (atNewest === 'unknown' || oldest === newest) continue;
    if ((await probe(chainId, oldest.hash as string)) !== 'missing') continue;
    // A reset between them: the last missing one, walking from the oldest towards the newest.
    let boundary = oldest.createdAt;
    for (const entry of confirmed.slice(-MAX_WALK - 1, -1).reverse()) {
      if ((await probe(chainId, entry.hash as string)) !== 'missing') break;
      boundary = entry.createdAt;
    }
    cutoffs.set(chainId, boundary);
  }
  return entries.map((entry) => {
    const cutoff = cutoffs.get(entry.chainId);
    return cutoff !== undefined && entry.createdAt <= cutoff ? { ...entry, earlierChain: true } : entry;
  });
}
