import { useEffect, useState } from 'preact/hooks';
import { formatAmount } from '@/lib/amounts';
import type { Token } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { HistoryEntry } from '@/lib/state/pipeline-state';
import { messageOf } from './messages';

const STATUS_LABEL = { pending: 'Pending', confirmed: 'Confirmed', failed: 'Failed' } as const;

export function Activity() {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [symbols, setSymbols] = useState<Map<string, Token>>(new Map());
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
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
  if (entries.length === 0) return <p class="muted">No swaps yet.</p>;
  return (
    <ul class="activity" aria-label="Activity" data-testid="activity">
      {entries.map((entry) => {
        const chain = getChain(entry.chainId)?.name ?? `Chain ${entry.chainId}`;
        let title: string;
        if (entry.kind === 'swap') {
          const inSymbol = tokenOf(entry.chainId, entry.inToken)?.symbol ?? 'token';
          const outSymbol = tokenOf(entry.chainId, entry.outToken)?.symbol ?? 'token';
          const out = entry.received ?? entry.quotedOut;
          title = `Swap ${formatAmount(BigInt(entry.inAmount), entry.inDecimals)} ${inSymbol} → ${formatAmount(BigInt(out), entry.outDecimals)} ${outSymbol}`;
        } else {
          const symbol = tokenOf(entry.chainId, entry.token)?.symbol ?? 'token';
          title = entry.reset
            ? `Reset ${symbol} approval`
            : `Approve ${entry.unlimited ? 'unlimited' : ''} ${symbol}`.replace('  ', ' ');
        }
        return (
          <li
            key={entry.id}
            class={`activity-item status-${entry.status}`}
            data-kind={entry.kind}
            data-status={entry.status}
          >
            <strong>{title}</strong>
            <span class="muted">
              {STATUS_LABEL[entry.status]} · {chain} · {new Date(entry.createdAt).toLocaleString()}
            </span>
            {entry.failure && <span class="error">{entry.failure.title}</span>}
            {entry.hash && <code class="address">{entry.hash}</code>}
          </li>
        );
      })}
    </ul>
  );
}
