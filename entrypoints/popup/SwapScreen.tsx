import { useCallback, useState } from 'preact/hooks';
import { Holdings } from '@/components/Holdings';
import { QuoteCard } from '@/components/QuoteCard';
import { SlippageControl } from '@/components/SlippageControl';
import { formatAmount } from '@/lib/amounts';
import { isNativeToken, type Quote, sameAddress, type Token } from '@/lib/api/schema';
import { getChain, isLocalRpcUrl } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import { safeLogoUrl } from '@/lib/tokens/import';
import { useHoldings } from './hooks/useHoldings';
import { usePickerShortlist } from './hooks/usePickerShortlist';
import { useNow } from './hooks/useQuoteSession';
import { useSwapFigures } from './hooks/useSwapFigures';
import { useSwapForm } from './hooks/useSwapForm';
import { useSwapRun } from './hooks/useSwapRun';
import { NetworkBar } from './NetworkBar';
import { payChecks, reviewLabel } from './pay-checks';
import { ListNotices, ProgressSheet, ReviewStep, SwapFields } from './SwapParts';
import { lookupToken } from './swap-actions';

/** The quote is for the form's pair (the session may still hold the previous pair's). */
const fitsPair = (quote: Quote, from: Token, to: Token) =>
  sameAddress(quote.inToken, from.address) && sameAddress(quote.outToken, to.address);
const refreshQuote = () => callBackground({ type: 'refreshQuote' }).catch(() => undefined);

/** The swap screen: the form's state lives in useSwapForm; this puts the figures and sheets around it. */
export function SwapScreen({ account, onReceive }: { account: string | null; onReceive: () => void }) {
  const form = useSwapForm();
  const { session, settings, chainId, from, to, parsed, findToken } = form;
  const [reviewing, setReviewing] = useState(false);
  const now = useNow(session?.status === 'ready' || reviewing);
  const serviceOrigin = settings?.serviceBaseUrl ?? null;
  const rpcUrl = settings?.rpcOverrides[String(chainId)] ?? getChain(chainId)?.defaultRpcUrl ?? '';
  const localChain = isLocalRpcUrl(rpcUrl);
  const swapStatus = form.swap?.status;
  const chosen = [from?.token.address, to?.token.address].filter((token): token is string => Boolean(token));
  const { balanceOf, priceOf, figures } = useSwapFigures(chainId, chosen, session, swapStatus);
  const shortlist = usePickerShortlist(chainId, form.index !== null, swapStatus);
  const chain = getChain(chainId);
  const native = { symbol: chain?.nativeSymbol ?? 'ETH', decimals: chain?.nativeDecimals ?? 18 };
  const payingNative = from ? isNativeToken(from.token.address) : false;
  const { refusal, maxText, maxNote } = payChecks({
    from: from?.token,
    amountText: form.amount,
    parsed,
    balanceOf,
    fee: figures?.fee?.expected,
    native,
  });
  const holdings = useHoldings(chainId, account, findToken, form.index !== null, swapStatus);
  const run = useSwapRun(form.swap, () => setReviewing(false));
  const activeSwap = run.active;

  const logoUrl = useCallback(
    (logoURI: string) => (serviceOrigin ? safeLogoUrl(logoURI, serviceOrigin) : null),
    [serviceOrigin],
  );
  const quote = session?.quote ?? null;
  const quoteFits = quote && from && to && fitsPair(quote, from.token, to.token);
  const usdText = (raw: bigint | null, token: Token | undefined) =>
    raw === null || !token ? '' : formatUsd(usdValue(raw, token.decimals, priceOf(token.address)));
  const review = reviewLabel({
    tokensChosen: Boolean(from && to),
    amountText: form.amount,
    parsed,
    refusal,
    sessionStatus: session?.status,
    quoteFits: Boolean(quoteFits),
  });
  const swapFrom = (address: string) => {
    const token = findToken(address);
    if (!token) return;
    form.pickFrom({ token, whitelisted: true });
    document.getElementById('amount')?.focus();
  };
  const sessionToken = (address: string | undefined) => (address ? (findToken(address) ?? null) : null);

  return (
    <>
      <NetworkBar chainId={chainId} localChain={localChain} onChange={form.changeChain} />
      <Holdings
        networkName={chain?.name ?? `Network ${chainId}`}
        nativeSymbol={native.symbol}
        rows={holdings.rows}
        updating={!holdings.fresh}
        error={holdings.error}
        onRetry={holdings.retry}
        onReceive={onReceive}
        onSwap={swapFrom}
        logoUrl={logoUrl}
        collapsed={Boolean(from && to)}
      />
      <ListNotices
        error={form.listError}
        refreshError={Boolean(form.list?.refreshError)}
        onRetry={form.retryList}
      />
      <SwapFields
        form={form}
        picker={{
          tokens: form.list?.tokens ?? [],
          index: form.index,
          shortlist,
          onLookup: (address: string) => lookupToken(chainId, address),
          logoUrl,
          compact: true,
          unavailable: form.listError,
        }}
        balanceOf={balanceOf}
        maxText={maxText}
        maxNote={maxNote}
        feeSymbol={payingNative ? native.symbol : undefined}
        usdIn={usdText(parsed?.ok ? parsed.value : null, from?.token)}
        usdOut={usdText(quoteFits ? BigInt(quote.outAmount) : null, to?.token)}
        outText={
          quoteFits && to
            ? `${formatAmount(BigInt(quote.outAmount), to.token.decimals)} ${to.token.symbol}`
            : null
        }
      />
      {session && (
        <QuoteCard
          state={session}
          inToken={from?.token ?? sessionToken(session.input?.inToken)}
          outToken={to?.token ?? sessionToken(session.input?.outToken)}
          now={now}
          symbolOf={(address) => findToken(address)?.symbol}
          onRefresh={refreshQuote}
          figures={figures}
          native={native}
        />
      )}
      <details class="slippage-details">
        <summary>Slippage tolerance {form.slippage}%</summary>
        <SlippageControl value={form.slippage} onChange={form.setSlippage} />
      </details>

      {from && to && !activeSwap && (
        <ReviewStep
          canReview={review.enabled}
          label={review.label}
          reviewing={reviewing}
          onReviewing={setReviewing}
          quote={quote}
          receivedAt={session?.receivedAt ?? null}
          from={from.token}
          to={to.token}
          native={native}
          figures={figures}
          priceOf={priceOf}
          now={now}
          onRefresh={refreshQuote}
          run={run}
        />
      )}
      {!(from && to) && !activeSwap && (
        <button type="button" class="primary wide review-button" disabled>
          {review.label}
        </button>
      )}
      {activeSwap && (
        <ProgressSheet
          swap={activeSwap}
          findToken={findToken}
          localChain={localChain}
          run={run}
          onConfirmedDone={() => form.setAmount('')}
        />
      )}
    </>
  );
}
