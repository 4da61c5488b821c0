import { useState } from 'preact/hooks';
import { formatAmount } from '@/lib/amounts';
import type { SwapState, SwapStatus, SwapStep } from '@/lib/state/pipeline-state';
import { FeeReview, type ReviewedFee } from './FeeReview';

const ETH = { symbol: 'ETH', decimals: 18 };

export interface ReplaceActions {
  preview: (kind: 'speed-up' | 'cancel') => Promise<ReviewedFee>;
  /** Signs the reviewed replacement; answers what happened, in words. */
  confirm: (kind: 'speed-up' | 'cancel', reviewId: string) => Promise<string>;
}

const STEPS: { status: SwapStatus; label: string }[] = [
  { status: 'building', label: 'Build the transaction' },
  { status: 'checking', label: 'Check the build, balances and simulation' },
  { status: 'approving', label: 'Approve the token' },
  { status: 'simulating', label: 'Simulate the swap' },
  { status: 'signing', label: 'Sign and send' },
  { status: 'sent', label: 'Wait for confirmation' },
];

/** Failures about the quote itself (too old, price moved, refused): a new quote is the way on. */
const NEW_QUOTE_MENDS: readonly string[] = [
  'QUOTE_OUTDATED',
  'PRICE_CHANGED',
  'QUOTE_FAILED',
  'QUOTE_REJECTED',
  'SIMULATED_OUTPUT_LOW',
];

const ORDER: SwapStatus[] = [
  'quoting',
  'building',
  'checking',
  'approving',
  'simulating',
  'signing',
  'sent',
  'confirmed',
];

/** The shown step a failure belongs to (failures name pipeline steps, the list shows statuses). */
const FAILED_AT: Record<SwapStep, SwapStatus> = {
  network: 'building',
  quote: 'building',
  build: 'building',
  check: 'checking',
  balance: 'checking',
  preflight: 'checking',
  approve: 'approving',
  simulate: 'simulating',
  sign: 'signing',
  send: 'signing',
  track: 'sent',
  resume: 'sent', // refined by failedStatus: a restart interrupts whatever step the swap was in
};

function failedStatus(swap: SwapState): SwapStatus {
  const step = swap.failure?.step ?? 'build';
  if (step !== 'resume') return FAILED_AT[step];
  if (swap.tx) return swap.tx.sentAt !== null ? 'sent' : 'signing';
  if (swap.approval?.txs.length) return 'approving';
  return swap.build ? 'checking' : 'building';
}

export interface SwapProgressProps {
  swap: SwapState;
  outSymbol: string;
  outDecimals: number;
  /** The RPC is on this machine: explorer links would show nothing. */
  localChain: boolean;
  onConsent: (router: string) => void;
  onDone: () => void;
  /** Closes the sheet and asks for a new quote (a failure that a new quote can mend). */
  onNewQuote?: (() => void) | undefined;
  /** The chain's native coin, for fee lines (ETH when absent). */
  native?: { symbol: string; decimals: number } | undefined;
  /** Revokes the approval a failed swap left behind: its review (fee), then the reviewed revoke. */
  revoke?:
    | { preview: () => Promise<ReviewedFee>; confirm: (reviewId: string) => Promise<string> }
    | undefined;
  /** Speeds up or cancels the sent swap (same nonce, higher fees): its review, then the reviewed one. */
  replace?: ReplaceActions | undefined;
}

/** A failed swap whose approval went through: the allowance is still there, unused. */
export function leftApproval(swap: SwapState): boolean {
  return (
    swap.status === 'failed' &&
    swap.approval !== null &&
    swap.approval.txs.some((tx) => tx.step === 'approve' && tx.status === 'confirmed')
  );
}

function RevokeLeftApproval({
  revoke,
  native,
}: {
  revoke: NonNullable<SwapProgressProps['revoke']>;
  native: { symbol: string; decimals: number };
}) {
  return (
    <div data-testid="revoke-left-approval">
      <p>The token approval for this swap went through and is still in place.</p>
      <FeeReview
        once
        label="Revoke the approval"
        confirmLabel="Confirm revoke"
        busyLabel="Revoking…"
        what="Set the router's allowance for this token back to zero."
        native={native}
        preview={revoke.preview}
        confirm={revoke.confirm}
      />
    </div>
  );
}

export function SwapProgress({
  swap,
  outSymbol,
  outDecimals,
  localChain,
  onConsent,
  onDone,
  onNewQuote,
  native = ETH,
  revoke,
  replace,
}: SwapProgressProps) {
  const reached = ORDER.indexOf(swap.status === 'failed' ? failedStatus(swap) : swap.status);
  const approvalNeeded = swap.approval !== null && swap.approval.plan !== 'none';
  return (
    <section class="progress" aria-live="polite" data-testid="swap-progress" data-status={swap.status}>
      <ol>
        {STEPS.filter((step) => step.status !== 'approving' || approvalNeeded).map((step) => {
          const index = ORDER.indexOf(step.status);
          const state =
            swap.status === 'confirmed' || index < reached
              ? 'done'
              : index === reached
                ? swap.status === 'failed'
                  ? 'failed'
                  : 'active'
                : 'todo';
          return (
            <li key={step.status} class={`step step-${state}`}>
              <span aria-hidden="true">
                {state === 'done' ? '✓' : state === 'failed' ? '✕' : state === 'active' ? '…' : '○'}
              </span>{' '}
              {step.label}
              <span class="sr-only"> ({state})</span>
            </li>
          );
        })}
      </ol>
      {swap.tx && (
        <p class="muted">
          Transaction <code>{`${swap.tx.hash.slice(0, 10)}…${swap.tx.hash.slice(-6)}`}</code>
          {swap.tx.explorerUrl && /^https:\/\//i.test(swap.tx.explorerUrl) && !localChain && (
            <>
              {' '}
              <a href={swap.tx.explorerUrl} target="_blank" rel="noreferrer noopener">
                View on explorer
              </a>
            </>
          )}
          {localChain && ' (local devnet: no public explorer)'}
        </p>
      )}
      {swap.status === 'sent' && replace && <PendingActions swap={swap} replace={replace} native={native} />}
      {swap.status === 'confirmed' && swap.outcome && (
        <div class="success" role="status" data-testid="swap-confirmed">
          <strong>Swap confirmed.</strong>{' '}
          {swap.outcome.received !== null &&
            `You received ${formatAmount(BigInt(swap.outcome.received), outDecimals)} ${outSymbol}.`}
          <button type="button" onClick={onDone}>
            Done
          </button>
        </div>
      )}
      {swap.status === 'failed' && swap.failure && (
        <div class="error" role="alert" data-testid="swap-failed">
          <strong>{swap.failure.message.title}</strong>
          <p>{swap.failure.message.detail}</p>
          <p>{swap.failure.message.action}</p>
          {revoke && leftApproval(swap) && <RevokeLeftApproval revoke={revoke} native={native} />}
          {onNewQuote && NEW_QUOTE_MENDS.includes(swap.failure.code) ? (
            <button type="button" class="primary" onClick={onNewQuote}>
              Get a new quote
            </button>
          ) : (
            <button type="button" onClick={onDone}>
              Back to the quote
            </button>
          )}
        </div>
      )}
      {swap.status === 'needs-consent' && swap.consent && (
        <RouterConsent consent={swap.consent} onConsent={onConsent} onCancel={onDone} />
      )}
    </section>
  );
}

/**
 * Trusting a router: on first use a plain question; when the service's router differs from the one
 * trusted before for this service and network, a deliberate step (a tick, then the button), because
 * a changed contract is how a compromised service would take funds.
 */
function RouterConsent({
  consent,
  onConsent,
  onCancel,
}: {
  consent: NonNullable<SwapState['consent']>;
  onConsent: (router: string) => void;
  onCancel: () => void;
}) {
  const [understood, setUnderstood] = useState(false);
  const changed = consent.kind === 'ROUTER_CHANGED';
  return (
    <div class={changed ? 'error' : 'warning'} role="alert" data-testid="swap-consent">
      {changed ? (
        <>
          <strong>This swap service's contract is not the one you trusted</strong>
          <p>
            On this network the service now sends swaps to a different router contract than the one you
            trusted for it before. A contract decides what happens to the tokens you send it: a changed one is
            what a hacked or malicious service would use to take them. Swaplane still checks this swap's
            outcome by simulation, but it cannot vouch for the new contract.
          </p>
        </>
      ) : (
        <p>This is the first swap with this service on this network. The service sends it to this router:</p>
      )}
      <p>
        {changed ? 'New router: ' : ''}
        <code class="address">{consent.router}</code>
      </p>
      {consent.pinned && (
        <p>
          Trusted until now: <code class="address">{consent.pinned}</code>
        </p>
      )}
      {changed && (
        <label class="check">
          <input
            type="checkbox"
            checked={understood}
            onChange={(event) => setUnderstood((event.target as HTMLInputElement).checked)}
          />
          The service's operator told me the contract changed, and I trust the new one
        </label>
      )}
      <button
        type="button"
        class={changed ? 'danger' : 'primary'}
        disabled={changed && !understood}
        onClick={() => onConsent(consent.router)}
      >
        {changed ? 'Trust the new router and swap' : 'Trust this router and swap'}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

const REPLACED_WORDS = { 'speed-up': 'Sped up', cancel: 'Cancel sent' } as const;

/**
 * While the swap waits to be mined: Speed up (the same swap with higher fees) or Cancel transaction
 * (a 0-value transfer to yourself at the same nonce). Either way only one of them can be mined.
 */
function PendingActions({
  swap,
  replace,
  native,
}: {
  swap: SwapState;
  replace: ReplaceActions;
  native: { symbol: string; decimals: number };
}) {
  const last = swap.replacements?.at(-1);
  return (
    <div class="pending-actions" data-testid="pending-actions">
      <p class="muted" role="status">
        {last
          ? `Pending · ${REPLACED_WORDS[last.kind]} (replaced ${swap.replacements?.length ?? 0}×): waiting for the network.`
          : 'Pending: waiting for the network to include the swap.'}
      </p>
      <FeeReview
        label="Speed up"
        confirmLabel="Confirm speed up"
        busyLabel="Speeding up…"
        what="Send the same swap again at its nonce with a higher fee."
        native={native}
        preview={() => replace.preview('speed-up')}
        confirm={(reviewId) => replace.confirm('speed-up', reviewId)}
      />{' '}
      <FeeReview
        label="Cancel transaction"
        confirmLabel="Confirm cancel"
        busyLabel="Cancelling…"
        what="Send 0 to yourself at the swap's nonce with a higher fee: if it is mined first, the swap is not."
        native={native}
        preview={() => replace.preview('cancel')}
        confirm={(reviewId) => replace.confirm('cancel', reviewId)}
      />
    </div>
  );
}
