// One row of Activity: a summary line (what, status, network, when, short hash) that opens into the
// detail a person checks after a swap: amounts paid, quoted, guaranteed and received, the fee paid,
// the whole hash with Copy, and the explorer link (none for a local devnet, whose hashes no public
// explorer knows).
import { useState } from 'preact/hooks';
import { formatAmount } from '@/lib/amounts';
import type { Token } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import type { HistoryEntry } from '@/lib/state/pipeline-state';
import { relativeTime, shortHash } from '@/lib/time/relative';

const STATUS_LABEL = { pending: 'Pending', confirmed: 'Confirmed', failed: 'Failed' } as const;

/** "Cancelled" and "Replaced" (dropped for another transaction at its nonce) are not plain failures. */
function statusLabel(entry: HistoryEntry): string {
  if (entry.failure?.code === 'CANCELLED') return 'Cancelled';
  if (entry.failure?.code === 'DROPPED') return 'Replaced';
  return STATUS_LABEL[entry.status];
}

export interface ActivityEntryProps {
  entry: HistoryEntry;
  tokenOf: (chainId: number, address: string) => Token | undefined;
  /** The chain's RPC is on this machine (a devnet): no public explorer link. */
  localChain: boolean;
  now: number;
  copy?: (text: string) => Promise<void>;
}

function titleOf(entry: HistoryEntry, symbol: (address: string) => string): string {
  if (entry.kind === 'swap') {
    const out = entry.received ?? entry.quotedOut;
    return `Swap ${formatAmount(BigInt(entry.inAmount), entry.inDecimals)} ${symbol(entry.inToken)} → ${formatAmount(BigInt(out), entry.outDecimals)} ${symbol(entry.outToken)}`;
  }
  const what = entry.reset ? 'Reset' : 'Approve';
  return entry.reset
    ? `${what} ${symbol(entry.token)} approval`
    : `${what}${entry.unlimited ? ' unlimited' : ''} ${symbol(entry.token)}`;
}

function allowanceText(amount: string, decimals: number | undefined): string {
  return decimals === undefined
    ? `${formatAmount(BigInt(amount), 0)} (smallest units)`
    : formatAmount(BigInt(amount), decimals);
}

/** Label/value pairs of the detail, in reading order. */
export function detailRows(
  entry: HistoryEntry,
  symbol: (address: string) => string,
  /** The token's decimals when the list knows it; an approval records its amount in smallest units. */
  decimalsOf: (address: string) => number | undefined = () => undefined,
): [string, string][] {
  const chain = getChain(entry.chainId);
  const rows: [string, string][] = [];
  if (entry.kind === 'swap') {
    const out = (amount: string) =>
      `${formatAmount(BigInt(amount), entry.outDecimals)} ${symbol(entry.outToken)}`;
    rows.push([
      'You paid',
      `${formatAmount(BigInt(entry.inAmount), entry.inDecimals)} ${symbol(entry.inToken)}`,
    ]);
    rows.push(['Quoted', out(entry.quotedOut)]);
    rows.push(['Minimum received', out(entry.minReceived)]);
    if (entry.received !== null) {
      const difference = BigInt(entry.received) - BigInt(entry.quotedOut);
      const sign = difference > 0n ? '+' : difference < 0n ? '−' : '±';
      const abs = difference < 0n ? -difference : difference;
      rows.push([
        'Received',
        `${out(entry.received)} (${sign}${formatAmount(abs, entry.outDecimals)} vs quote)`,
      ]);
    }
  } else {
    rows.push(['Token', symbol(entry.token)]);
    rows.push(['Spender', entry.spender]);
    rows.push([
      'Allowance',
      entry.unlimited
        ? 'unlimited'
        : entry.reset
          ? '0 (reset)'
          : allowanceText(entry.amount, decimalsOf(entry.token)),
    ]);
  }
  if (entry.gasPaid !== null)
    rows.push([
      'Network fee paid',
      `${formatAmount(BigInt(entry.gasPaid), 18)} ${chain?.nativeSymbol ?? ''}`.trim(),
    ]);
  rows.push(['Status', statusLabel(entry)]);
  rows.push(['Network', chain?.name ?? `Chain ${entry.chainId}`]);
  rows.push(['Sent', new Date(entry.createdAt).toLocaleString()]);
  return rows;
}

export function ActivityEntry({ entry, tokenOf, localChain, now, copy }: ActivityEntryProps) {
  const [copied, setCopied] = useState<string | null>(null);
  const symbol = (address: string) => tokenOf(entry.chainId, address)?.symbol ?? 'token';
  const chain = getChain(entry.chainId)?.name ?? `Chain ${entry.chainId}`;
  const link =
    entry.explorerUrl && !localChain && /^https:\/\//.test(entry.explorerUrl) ? entry.explorerUrl : null;
  return (
    <li
      class={`activity-item status-${entry.status}${entry.earlierChain ? ' earlier-chain' : ''}`}
      data-kind={entry.kind}
      data-status={entry.status}
    >
      <details>
        <summary>
          <strong>{titleOf(entry, symbol)}</strong>
          <span class="muted">
            {entry.earlierChain ? 'Earlier run of this network' : statusLabel(entry)} · {chain} ·{' '}
            <time
              dateTime={new Date(entry.createdAt).toISOString()}
              title={new Date(entry.createdAt).toLocaleString()}
            >
              {relativeTime(entry.createdAt, now)}
            </time>
          </span>
          {entry.failure && <span class="error">{entry.failure.title}</span>}
          {entry.hash && <code title={entry.hash}>{shortHash(entry.hash)}</code>}
        </summary>
        <dl class="details-list" aria-label="Transaction details">
          {detailRows(entry, symbol, (address) => tokenOf(entry.chainId, address)?.decimals).map(
            ([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ),
          )}
        </dl>
        {entry.earlierChain && (
          <p class="muted">
            This network was reset since (a restarted devnet): the transaction is not on it now, and the
            amounts are not your current balances.
          </p>
        )}
        {entry.hash && (
          <p class="hash-line">
            <span class="mono">{entry.hash}</span>{' '}
            <button
              type="button"
              onClick={() =>
                (copy ?? ((text: string) => navigator.clipboard.writeText(text)))(entry.hash as string).then(
                  () => setCopied('Hash copied.'),
                  () => setCopied('Could not copy the hash.'),
                )
              }
            >
              Copy hash
            </button>
            {copied && <span role="status">{copied}</span>}
          </p>
        )}
        {link ? (
          <a href={link} target="_blank" rel="noopener noreferrer">
            View on explorer
          </a>
        ) : (
          entry.hash && <p class="muted">No public explorer for this network.</p>
        )}
      </details>
    </li>
  );
}
