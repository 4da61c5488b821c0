import { formatAmount } from '@/lib/amounts';
import type { Token } from '@/lib/api/schema';
import { FeeReview, type ReviewedFee } from './FeeReview';

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
  native: (chainId: number) => { symbol: string; decimals: number };
  /** The revoke's review (its network fee, capped), then the reviewed revoke; answers in words. */
  onPreviewRevoke: (row: ApprovalRow) => Promise<ReviewedFee>;
  onRevoke: (reviewId: string) => Promise<string>;
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
export function ApprovalsList({
  rows,
  tokenOf,
  chainName,
  native,
  onPreviewRevoke,
  onRevoke,
}: ApprovalsListProps) {
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
              <FeeReview
                offered={left}
                once
                label={`Revoke ${token?.symbol ?? short(row.token)}`}
                confirmLabel="Confirm revoke"
                busyLabel="Revoking…"
                what={`Set the router's allowance for ${token?.symbol ?? short(row.token)} to zero.`}
                native={native(row.chainId)}
                preview={() => onPreviewRevoke(row)}
                confirm={onRevoke}
              />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
