// The review: what the background's previewSwap froze (quote, network fee, balance changes,
// warnings), and Confirm, which sends the preview's digest and the acknowledged warnings so the
// background signs this quote or nothing.
import { useEffect, useState } from 'preact/hooks';
import { formatAmount } from '@/lib/amounts';
import { isNativeToken, type Token } from '@/lib/api/schema';
import { getChain } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { SwapPreview } from '@/lib/swap/preview';
import { useNow } from './hooks/useQuoteSession';
import { messageOf } from './messages';

export interface ConfirmedReview {
  approvalMode: 'exact' | 'unlimited';
  quoteDigest: string;
  acknowledged: string[];
}

export function ReviewSwap(props: {
  chainId: number;
  from: Token;
  to: Token;
  onConfirm: (review: ConfirmedReview) => Promise<string | null>;
  onCancel: () => void;
}) {
  const { from, to } = props;
  const [approvalMode, setApprovalMode] = useState<'exact' | 'unlimited'>('exact');
  const [preview, setPreview] = useState<SwapPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [acknowledged, setAcknowledged] = useState<string[]>([]);
  const now = useNow(preview !== null);
  const native = getChain(props.chainId)?.nativeSymbol ?? 'ETH';

  useEffect(() => {
    let live = true;
    setPreview(null);
    setError(null);
    setAcknowledged([]);
    callBackground({ type: 'previewSwap', approvalMode }).then(
      (result) => live && setPreview(result),
      (failure: unknown) => live && setError(messageOf(failure)),
    );
    return () => {
      live = false;
    };
  }, [approvalMode]);

  const expired = preview !== null && now >= preview.expiresAt;
  const needed = preview?.warnings.filter((w) => w.needsAcknowledgement) ?? [];
  const ready = preview !== null && !expired && needed.every((w) => acknowledged.includes(w.code));

  return (
    <section class="review" aria-label="Review swap" data-testid="review">
      <h2>Review</h2>
      {!preview && !error && <p aria-busy="true">Checking the swap…</p>}
      {preview && (
        <PreviewDetails
          preview={preview}
          from={from}
          to={to}
          native={native}
          now={now}
          acknowledged={acknowledged}
          setAcknowledged={setAcknowledged}
        />
      )}
      {!isNativeToken(from.address) && (
        <fieldset class="choice">
          <legend class="field-label">If {from.symbol} needs an approval</legend>
          <label>
            <input
              type="radio"
              name="approval"
              checked={approvalMode === 'exact'}
              onChange={() => setApprovalMode('exact')}
            />{' '}
            Exact amount
          </label>
          <label>
            <input
              type="radio"
              name="approval"
              checked={approvalMode === 'unlimited'}
              onChange={() => setApprovalMode('unlimited')}
            />{' '}
            Unlimited
          </label>
        </fieldset>
      )}
      <p class="muted">
        The transaction is checked and simulated before it is signed; nothing is sent if a check fails.
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {expired ? (
        <button
          type="button"
          class="primary wide"
          onClick={() => {
            callBackground({ type: 'refreshQuote' }).catch(() => undefined);
            props.onCancel(); // the new quote arrives on the form; Review swap opens it
          }}
        >
          Get a new quote
        </button>
      ) : (
        <button
          type="button"
          class="primary wide"
          disabled={!ready}
          onClick={async () => {
            if (!preview) return;
            setError(await props.onConfirm({ approvalMode, quoteDigest: preview.digest, acknowledged }));
          }}
        >
          Confirm swap
        </button>
      )}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </section>
  );
}

/** The frozen quote, the network fee, balance changes and warnings (ticks where needed). */
function PreviewDetails(props: {
  preview: SwapPreview;
  from: Token;
  to: Token;
  native: string;
  now: number;
  acknowledged: string[];
  setAcknowledged: (update: (list: string[]) => string[]) => void;
}) {
  const { preview, from, to, native, now, acknowledged, setAcknowledged } = props;
  const expired = now >= preview.expiresAt;
  const symbolOf = (token: string) =>
    isNativeToken(token)
      ? native
      : token.toLowerCase() === from.address.toLowerCase()
        ? from.symbol
        : to.symbol;
  return (
    <>
      <dl class="quote-figures">
        <dt>You pay</dt>
        <dd>
          {formatAmount(BigInt(preview.quote.inAmount), from.decimals)} {from.symbol}
        </dd>
        <dt>You receive (expected)</dt>
        <dd>
          {formatAmount(BigInt(preview.quote.outAmount), to.decimals)} {to.symbol}
        </dd>
        <dt>Minimum received</dt>
        <dd>
          {formatAmount(BigInt(preview.quote.minReceived), to.decimals)} {to.symbol}
        </dd>
        <dt>Network fee</dt>
        <dd data-testid="network-fee">
          {formatAmount(BigInt(preview.fees.totalExpected), 18)} {native} (at most{' '}
          {formatAmount(BigInt(preview.fees.totalMax), 18)} {native})
        </dd>
      </dl>
      {preview.balanceChanges.length > 0 && (
        <ul aria-label="Balance changes" class="balance-changes">
          {preview.balanceChanges.map((change) => (
            <li key={change.token}>
              {change.delta.startsWith('-') ? '−' : '+'}
              {formatAmount(BigInt(change.delta.replace('-', '')), change.decimals)}{' '}
              {change.symbol || symbolOf(change.token)}
            </li>
          ))}
        </ul>
      )}
      {preview.warnings.map((warning) => (
        <div key={warning.code} class={warning.level === 'info' ? 'muted' : 'error'} role="note">
          <p>{warning.message}</p>
          {warning.needsAcknowledgement && (
            <label>
              <input
                type="checkbox"
                checked={acknowledged.includes(warning.code)}
                onChange={(event) =>
                  setAcknowledged((list) =>
                    event.currentTarget.checked
                      ? [...list, warning.code]
                      : list.filter((code) => code !== warning.code),
                  )
                }
              />{' '}
              I understand
            </label>
          )}
        </div>
      ))}
      {!expired && (
        <p class="muted" data-testid="review-expiry">
          This quote is held for you for {Math.max(0, Math.ceil((preview.expiresAt - now) / 1000))} s.
        </p>
      )}
    </>
  );
}
