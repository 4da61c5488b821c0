import { useEffect, useRef, useState } from 'preact/hooks';
import { TokenLogo } from '@/components/TokenLogo';
import { formatAmount } from '@/lib/amounts';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import { type HoldingRow, inShownOrder, summariseHoldings } from '@/lib/tokens/holdings';

export interface HoldingsProps {
  networkName: string;
  nativeSymbol: string;
  /** null: not read yet (first popup on this network and account). */
  rows: HoldingRow[] | null;
  /** The rows are the last popup's, being brought up to date. */
  updating: boolean;
  error: string | null;
  onRetry: () => void;
  /** Puts the token in "You pay". */
  onSwap: (address: string) => void;
  logoUrl: (logoURI: string) => string | null;
  /** Only the heading line (a swap pair is chosen): the list opens with Show. */
  collapsed: boolean;
  /** Some USD values are the last popup's, read at this time (0: unknown), until fresh ones land. */
  pricesAsOf?: number | null;
}

/** "10:42", or with the date when not today; an unknown time is "an earlier visit". */
export function asOfWords(at: number, now = Date.now()): string {
  if (at <= 0) return 'an earlier visit';
  const when = new Date(at);
  const time = when.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return new Date(now).toDateString() === when.toDateString()
    ? time
    : `${when.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}

/**
 * Rows the first frame renders: the home's box shows three (78 px, 26 px a row), and one more is
 * half in view. The rest are scrolled out of sight and join after the first frame, so a wallet with
 * many tokens does not put them between the popup's opening and its first screen.
 */
export const FIRST_FRAME_ROWS = 4;

/** Before any balance is read: rows the size of real ones, under a line that says why they are empty. */
function SkeletonRows() {
  return (
    <>
      <p class="muted holdings-note">Reading balances…</p>
      <ul class="holdings-list" aria-hidden="true">
        <li class="holding-skeleton" />
        <li class="holding-skeleton" />
      </ul>
    </>
  );
}

/** The heading line: the network, the total, and folded, Show or Hide (always there, so its height holds). */
function HoldingsHead({
  networkName,
  summary,
  error,
  folded,
  shown,
  onShown,
}: {
  networkName: string;
  summary: ReturnType<typeof summariseHoldings> | null;
  error: string | null;
  folded: boolean;
  shown: boolean;
  onShown: (shown: boolean) => void;
}) {
  return (
    <div class="holdings-head">
      <h2 id="holdings-title">Your tokens on {networkName}</h2>
      {summary && !summary.empty && (
        <span class="holdings-total" data-testid="holdings-total">
          {summary.total === null ? '' : `${formatUsd(summary.total)}${summary.partial ? '+' : ''}`}
        </span>
      )}
      {folded && !shown && error && <span class="holdings-total error">Not read</span>}
      {folded && (
        <button
          type="button"
          class="compact"
          aria-expanded={shown}
          aria-controls="holdings-body"
          onClick={() => onShown(!shown)}
        >
          {shown ? 'Hide' : 'Show'}
        </button>
      )}
    </div>
  );
}

/** The home: what the account holds on this network, with USD values and a total; Receive; Swap. */
export function Holdings(props: HoldingsProps) {
  const { networkName, nativeSymbol, rows, error } = props;
  const [shown, setShown] = useState(false);
  const [pastFirstFrame, setPastFirstFrame] = useState(false);
  // Effects run after the frame that showed the first render.
  useEffect(() => setPastFirstFrame(true), []);
  const open = !props.collapsed || shown;
  const summary = rows ? summariseHoldings(rows) : null;
  // The rows keep the order they were first shown in while the popup is open (see inShownOrder).
  const order = useRef<string[]>([]);
  const held = inShownOrder(summary?.rows.filter((row) => row.balance > 0n) ?? [], order.current);
  order.current = held.map((row) => row.address);
  // Folded to its heading line (one height whatever it says), or a box of one fixed height whatever
  // it holds (skeleton rows, the rows, the empty wallet's words, an error, the note on old prices):
  // the swap form under it never moves as they come, only on the user's own pick or Show.
  return (
    <section
      class={props.collapsed ? 'holdings holdings-folded' : 'holdings'}
      aria-labelledby="holdings-title"
      aria-busy={rows === null && !error}
    >
      <HoldingsHead
        networkName={networkName}
        summary={summary}
        error={error}
        folded={props.collapsed}
        shown={shown}
        onShown={setShown}
      />
      <div class="holdings-body" id="holdings-body" hidden={!open}>
        {rows === null && !error && <SkeletonRows />}
        {summary?.empty && (
          <p class="holdings-empty" data-testid="holdings-empty">
            This wallet holds nothing on {networkName} yet. To fund it, choose Receive (the QR code button at
            the top) and send {nativeSymbol} (for the network fees) or tokens to its address from an exchange
            or another wallet.
          </p>
        )}
        {held.length > 0 && (
          <ul id="holdings-list" class="holdings-list" aria-label={`Holdings on ${networkName}`}>
            {(pastFirstFrame ? held : held.slice(0, FIRST_FRAME_ROWS)).map((row) => (
              <li key={row.address} data-testid={`holding-${row.symbol}`}>
                <TokenLogo src={row.logoURI ? props.logoUrl(row.logoURI) : null} symbol={row.symbol} />
                <span class="holding-amount">
                  {formatAmount(row.balance, row.decimals, { maxSignificant: 6 })} {row.symbol}
                </span>
                <span class="holding-usd">{formatUsd(usdValue(row.balance, row.decimals, row.price))}</span>
                <button
                  type="button"
                  class="compact"
                  aria-label={`Swap ${row.symbol}`}
                  onClick={() => props.onSwap(row.address)}
                >
                  Swap
                </button>
              </li>
            ))}
          </ul>
        )}
        {/* After the rows, not over them: a note or an error that comes late never moves a row. */}
        {props.pricesAsOf != null && summary && !summary.empty && (
          <p class="muted holdings-note" data-testid="holdings-as-of">
            USD values as of {asOfWords(props.pricesAsOf)}
          </p>
        )}
        {error && (
          <div class="error" role="alert">
            <p>Balances could not be read: {error}</p>
            <button type="button" class="compact" onClick={props.onRetry}>
              Try again
            </button>
          </div>
        )}
      </div>
      {props.updating && rows !== null && (
        <span class="sr-only" role="status">
          Updating balances
        </span>
      )}
    </section>
  );
}
