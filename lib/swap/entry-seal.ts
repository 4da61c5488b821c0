// History entries and pending swaps are sealed one by one (lib/wallet/trust-mac.ts's key): revoke
// reads the history and speed up / cancel read a pending swap, so a record written into
// storage.local from outside (an approve(spender, 0) aimed at an NFT contract, a "stuck" swap with
// forged fees) must not be taken for one Swaplane recorded. The seal covers what a record never
// changes after Swaplane signs it; status, fees paid and links are updated in place under it.

import type { HistoryEntry, SwapState } from '@/lib/state/pipeline-state';
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

/**
 * What a pending swap's seal covers: who, where and what was signed (each transaction's hash, nonce,
 * raw bytes and fee fields). These change only when Swaplane signs (unlocked); tracking (status,
 * receipts), possibly while locked, keeps the seal.
 */
export function pendingCore(state: SwapState): unknown {
  const signed = (tx: {
    hash: string;
    nonce: number;
    raw: string;
    gasLimit: string;
    maxFeePerGas: string;
  }) => ({
    hash: tx.hash,
    nonce: tx.nonce,
    raw: tx.raw,
    gasLimit: tx.gasLimit,
    maxFeePerGas: tx.maxFeePerGas,
  });
  return {
    id: state.id,
    chainId: state.chainId,
    account: state.account,
    createdAt: state.createdAt,
    request: state.request,
    tx: state.tx ? signed(state.tx) : null,
    approvalTxs: (state.approval?.txs ?? []).map(signed),
    replacements: state.replacements ?? [],
  };
}

/** `state` with its seal: the previous one when the sealed fields did not change, else a new one. */
export async function sealedSwap(
  state: SwapState,
  previous: SwapState | undefined,
  sealer: EntrySealer,
): Promise<SwapState> {
  const { seal: _dropped, ...bare } = state;
  const core = canonicalJson(pendingCore(bare));
  if (previous?.seal && canonicalJson(pendingCore(previous)) === core)
    return { ...bare, seal: previous.seal };
  const seal = await sealer.sign(pendingCore(bare));
  return seal ? { ...bare, seal } : bare;
}
