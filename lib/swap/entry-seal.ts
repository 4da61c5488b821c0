// History entries are sealed one by one (lib/wallet/trust-mac.ts's key): revoke reads the history,
// so an entry written into storage.local from outside (an approve(spender, 0) aimed at an NFT
// contract) must not be taken for one Swaplane recorded. The seal covers what an entry never
// changes after it is first recorded; status, fees paid and links are updated in place under it.

import type { HistoryEntry } from '@/lib/state/pipeline-state';
import { canonicalJson } from '@/lib/wallet/trust-mac';

export interface EntrySealer {
  /** The seal of `core`, or null while the wallet is locked. */
  sign(core: unknown): Promise<string | null>;
  /** Whether `seal` is `core`'s; null while locked (nothing can be checked). */
  verify(core: unknown, seal: string): Promise<boolean | null>;
}

/** Fields updated after an entry is first recorded (a swap's hash changes with a speed up). */
const UPDATED: ReadonlySet<string> = new Set([
  'status',
  'explorerUrl',
  'gasPaid',
  'failure',
  'updatedAt',
  'received',
  'earlierChain',
  'seal',
]);

/** What an entry's seal covers: every field of whatever shape, but the updated ones. */
export function historyCore(entry: HistoryEntry): unknown {
  const core: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(entry)) {
    if (UPDATED.has(field) || (entry.kind === 'swap' && field === 'hash')) continue;
    core[field] = value;
  }
  return core;
}

/** The entry with its seal: the previous version's when the sealed fields did not change, else a new one. */
export async function sealedEntry(
  entry: HistoryEntry,
  previous: HistoryEntry | undefined,
  sealer: EntrySealer,
): Promise<HistoryEntry> {
  const { seal: _dropped, ...bare } = entry;
  const core = historyCore(bare);
  if (previous?.seal && canonicalJson(historyCore(previous)) === canonicalJson(core))
    return { ...bare, seal: previous.seal };
  const seal = await sealer.sign(core);
  return seal ? { ...bare, seal } : bare;
}

/** The entries whose seal verifies (none can be checked while locked: none are returned). */
export async function verifiedEntries(
  entries: readonly HistoryEntry[],
  sealer: EntrySealer,
): Promise<HistoryEntry[]> {
  const kept: HistoryEntry[] = [];
  for (const entry of entries) {
    if (entry.seal && (await sealer.verify(historyCore(entry), entry.seal)) === true) kept.push(entry);
  }
  return kept;
}
