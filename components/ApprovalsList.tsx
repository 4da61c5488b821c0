import { formatAmount } from '@/lib/amounts';
import type { Token } from '@/lib/api/schema';

export interface ApprovalRow {
  chainId: number;
  token: string;
  spender: string;
  /** Current on-chain allowance (smallest units), null when it could not be read. */
  allowance: string | null;
}

export interface ApprovalsListProps {
  rows: readonly ApprovalRow[];
  tokenOf: (chainId: number, address: string) => Token | undefined;
  chainName: (chainId: number) => string;
  /** Key of the row being revoked, and the last message per row. */
  busy: string | null;
  messages: Readonly<Record<string, string>>;
  onRevoke: (row: ApprovalRow) => void;
}

// Above this an allowance reads as unlimited (approve(type(uint256).max) and its near neighbours).
const UNLIMITED = 2n ** 255n;
const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
export const approvalKey = (row: ApprovalRow) => `${row.chainId}:${row.token}:${row.spender}`.toLowerCase();

function allowanceText(row: ApprovalRow, token: Token | undefined): string {
  if (row.allowance === null) return 'could not be read';
  const value = BigInt(row.allowance);
  if (value === 0n) return 'none left';
  if (value >= UNLIMITED) return 'unlimited';
  return token ? `${formatAmount(value, token.decimals)} ${token.symbol}` : `${row.allowance} units`;
}

/** The allowances Swaplane granted, with what is left of each and Revoke. */
export function ApprovalsList({ rows, tokenOf, chainName, busy, messages, onRevoke }: ApprovalsListProps) {
  return (
    <section class="stack" aria-labelledby="approvals-heading" data-testid="approvals">
      <h2 id="approvals-heading">Token approvals</h2>
      {rows.length === 0 && <p class="muted">Swaplane has not approved any token for spending yet.</p>}
      <ul class="activity">
        {rows.map((row) => {
          const token = tokenOf(row.chainId, row.token);
          const key = approvalKey(row);
          const left = row.allowance !== null && BigInt(row.allowance) > 0n;
          return (
            <li key={key} class="activity-item" data-token={row.token.toLowerCase()}>
              <strong>{token?.symbol ?? short(row.token)}</strong>
              <span class="muted">
                Router {short(row.spender)} may spend: {allowanceText(row, token)} · {chainName(row.chainId)}
              </span>
              {left && (
                <button
                  type="button"
                  disabled={busy !== null}
                  aria-label={`Revoke ${token?.symbol ?? short(row.token)}`}
                  onClick={() => onRevoke(row)}
                >
                  {busy === key ? 'Revoking…' : 'Revoke'}
                </button>
              )}
              {messages[key] && <span role="status">{messages[key]}</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
