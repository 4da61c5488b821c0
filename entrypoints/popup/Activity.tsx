import { useEffect, useState } from 'preact/hooks';
import { ActivityEntry } from '@/components/ActivityEntry';
import { type ApprovalRow, ApprovalsList } from '@/components/ApprovalsList';
import type { Token } from '@/lib/api/schema';
import { getChain, isLocalRpcUrl } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { HistoryEntry } from '@/lib/state/pipeline-state';
import { messageOf } from './messages';
import { nativeOf, REVOKE_WORDS } from './swap-actions';

/** The approvals Swaplane granted, with Revoke (above the activity list). */
function Approvals({ tokenOf }: { tokenOf: (chainId: number, address: string) => Token | undefined }) {
  const [rows, setRows] = useState<ApprovalRow[] | null>(null);
  const load = () => callBackground({ type: 'listApprovals' }).then(setRows, () => setRows([]));
  useEffect(() => {
    load();
  }, []);
  if (!rows) return null;
  const revoke = async (reviewId: string) => {
    try {
      const result = await callBackground({ type: 'revokeApproval', reviewId });
      return REVOKE_WORDS[result.status];
    } finally {
      await load();
    }
  };
  return (
    <ApprovalsList
      rows={rows}
      tokenOf={tokenOf}
      chainName={(chainId) => getChain(chainId)?.name ?? `Chain ${chainId}`}
      native={nativeOf}
      onPreviewRevoke={({ chainId, token, spender }) =>
        callBackground({ type: 'previewRevoke', chainId, token, spender })
      }
      onRevoke={revoke}
    />
  );
}

export function Activity() {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [symbols, setSymbols] = useState<Map<string, Token>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [localChains, setLocalChains] = useState<Set<number>>(new Set());
  const now = Date.now();

  useEffect(() => {
    callBackground({ type: 'getSettings' }).then(
      (settings) =>
        setLocalChains(
          new Set(
            Object.entries(settings.rpcOverrides)
              .filter(([, url]) => isLocalRpcUrl(url))
              .map(([chainId]) => Number(chainId)),
          ),
        ),
      () => undefined,
    );
    callBackground({ type: 'getHistory' }).then(
      async (history) => {
        setEntries(history);
        const chains = [...new Set(history.map((entry) => entry.chainId))];
        const known = new Map<string, Token>();
        for (const chainId of chains) {
          const list = await callBackground({ type: 'getTokenList', chainId }).catch(() => null);
          for (const token of list?.tokens ?? [])
            known.set(`${chainId}:${token.address.toLowerCase()}`, token);
        }
        setSymbols(known);
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, []);

  const tokenOf = (chainId: number, address: string) => symbols.get(`${chainId}:${address.toLowerCase()}`);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!entries) return <p class="muted">Loading activity…</p>;
  return (
    <div class="stack">
      <Approvals tokenOf={tokenOf} />
      <h2>Activity</h2>
      {entries.length === 0 && <p class="muted">No swaps yet.</p>}
      {entries.some((entry) => entry.earlierChain) && (
        <p class="muted" data-testid="earlier-chain-note">
          Some activity is from an earlier run of a network that was reset since: those transactions are not
          on it now.
        </p>
      )}
      <ul class="activity" aria-label="Activity" data-testid="activity">
        {entries.map((entry) => (
          <ActivityEntry
            key={entry.id}
            entry={entry}
            tokenOf={tokenOf}
            localChain={localChains.has(entry.chainId)}
            now={now}
          />
        ))}
      </ul>
    </div>
  );
}
