import type { ComponentChildren } from 'preact';
import { formatAmount } from '@/lib/amounts';
import type { Token } from '@/lib/api/schema';

export interface AmountPanelProps {
  /** "You pay" or "You receive": the panel's name. */
  label: string;
  token: Token | undefined;
  /** Undefined while unknown. */
  balance: bigint | undefined;
  /**
   * Why the balance could not be read (the RPC's failure, named): "not read" instead of a balance;
   * the cause is said under the form (BalanceNotice), where its lines move nothing the user aims at.
   */
  balanceError?: string | null | undefined;
  /** Shows "Max" when given. */
  onMax?: (() => void) | undefined;
  maxTitle?: string | undefined;
  /** The USD line under the amount, already formatted ('' when there is nothing to price). */
  usd: string;
  usdTestId: string;
  /** Extra words after the USD line (e.g. that Max keeps the fee). */
  note?: string | undefined;
  /** The amount (input or quoted output) and the token button. */
  children: ComponentChildren;
}

/** One side of the swap: label, balance and Max, the amount with its token button, and the USD line. */
export function AmountPanel(props: AmountPanelProps) {
  const { label, token, balance } = props;
  return (
    <section class="swap-panel" aria-label={label}>
      <div class="panel-row">
        <span class="field-label">{label}</span>
        {token && (
          <span class="panel-balance">
            <span class="muted balance" data-testid={`balance-${token.symbol}`}>
              Balance:{' '}
              {balance !== undefined
                ? `${formatAmount(balance, token.decimals)} ${token.symbol}`
                : props.balanceError
                  ? 'not read'
                  : '…'}
            </span>
            {props.onMax && (
              <button type="button" class="link" onClick={props.onMax} title={props.maxTitle}>
                Max
              </button>
            )}
          </span>
        )}
      </div>
      <div class="panel-row panel-main">{props.children}</div>
      <div class="panel-row">
        <span class="muted usd" data-testid={props.usdTestId}>
          {props.usd}
        </span>
        {props.note && <span class="muted note">{props.note}</span>}
      </div>
    </section>
  );
}

/** The pay side's balance could not be read: its cause, named (shown under the form, never inside it). */
export function BalanceNotice({ token, error }: { token: Token | undefined; error: string | null }) {
  if (!token || !error) return null;
  return (
    <p class="error balance-error" role="alert">
      Balance could not be read: {error}
    </p>
  );
}

/** Swaps the two sides. The glyph is a graphic: --fg on --surface (3:1 checked in a11y.spec.ts). */
export function FlipButton({ onFlip }: { onFlip: () => void }) {
  return (
    <button type="button" class="flip" aria-label="Swap the from and to tokens" onClick={onFlip}>
      <svg class="flip-glyph" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        <path
          d="M5 13V3M2 6l3-3 3 3M11 3v10M8 10l3 3 3-3"
          fill="none"
          stroke="currentColor"
          stroke-width="1.6"
          stroke-linecap="round"
          stroke-linejoin="round"
        />
      </svg>
    </button>
  );
}
