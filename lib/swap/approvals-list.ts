// The allowances Swaplane granted, from its own history: one row per (network, token, spender) the
// active account approved through a swap. Their current value is read on-chain by the background.
import { sameAddress } from '@/lib/api/schema';
import type { HistoryEntry } from '@/lib/state/pipeline-state';

export interface GrantedApproval {
  chainId: number;
  token: string;
  spender: string;
}

export function grantedApprovals(history: readonly HistoryEntry[], account: string): GrantedApproval[] {
  const seen = new Set<string>();
  const result: GrantedApproval[] = [];
  for (const entry of history) {
    if (entry.kind !== 'approval' || entry.reset || entry.status === 'failed') continue;
    if (!sameAddress(entry.account, account)) continue;
    const key = `${entry.chainId}:${entry.token.toLowerCase()}:${entry.spender.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ chainId: entry.chainId, token: entry.token, spender: entry.spender });
  }
  return result;
}

export function isGranted(granted: readonly GrantedApproval[], wanted: GrantedApproval): boolean {
  return granted.some(
    (entry) =>
      entry.chainId === wanted.chainId &&
      sameAddress(entry.token, wanted.token) &&
      sameAddress(entry.spender, wanted.spender),
  );
}
