import { useCallback, useRef, useState } from 'preact/hooks';
import { BalanceNotice } from '@/components/AmountPanel';
import { QuoteCard } from '@/components/QuoteCard';
import { formatAmount } from '@/lib/amounts';
import { isNativeToken, type Quote, sameAddress, type Token } from '@/lib/api/schema';
import { getChain, isLocalRpcUrl } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import { safeLogoUrl } from '@/lib/tokens/import';
import { HomeHoldings } from './HomeHoldings';
import { usePickerShortlist } from './hooks/usePickerShortlist';
import { useNow } from './hooks/useQuoteSession';
import { useSwapFigures } from './hooks/useSwapFigures';
import { useSwapForm } from './hooks/useSwapForm';
import { useSwapRun } from './hooks/useSwapRun';
import { NetworkBar } from './NetworkBar';
import { payChecks, reviewLabel } from './pay-checks';
import {
  ListNotices,
  NoReviewButton,
  ProgressSheet,
  ReviewStep,
  SlippageDetails,
  SwapFields,
} from './SwapParts';
import { lookupToken } from './swap-actions';

/** The quote is for the form's pair (the session may still hold the previous pair's). */
const fitsPair = (quote: Quote, from: Token, to: Token) =>
  sameAddress(quote.inToken, from.address) && sameAddress(quote.outToken, to.address);
const refreshQuote = () => callBackground({ type: 'refreshQuote' }).catch(() => undefined);

/** The pickers' shared props: the list, its index and shortlist, lookups by address, logos. */
const pickerProps = (
  form: ReturnType<typeof useSwapForm>,
  shortlist: ReturnType<typeof usePickerShortlist>,
  logoUrl: (logoURI: string) => string | null,
) => ({
  tokens: form.list?.tokens ?? [],
  index: form.index,
  shortlist,
  onLookup: (address: string) => lookupToken(form.chainId, address),
  logoUrl,
  compact: true,
  unavailable: form.listError,
});

const outTextOf = (quote: Quote, to: Token) =>
  `${formatAmount(BigInt(quote.outAmount), to.decimals)} ${to.symbol}`;

/**
 * The last expected output shown for this pair: while the next quote loads it stays, dimmed,
 * instead of dropping to 0.0.
 */
function useLastOut(live: string | null, pair: string): string | null {
  const last = useRef<{ pair: string; text: string } | null>(null);
  if (live !== null) last.current = { pair, text: live };
  return last.current?.pair === pair ? last.current.text : null;
}

/** The swap screen: the form's state lives in useSwapForm; this puts the figures and sheets around it. */
export function SwapScreen({ account }: { account: string | null }) {
  const form = useSwapForm();
  const { session, settings, chainId, from, to, parsed, findToken } = form;
  const [reviewing, setReviewing] = useState(false);
  const now = useNow(session?.status === 'ready' || reviewing);
  const serviceOrigin = settings?.serviceBaseUrl ?? null;
  const rpcUrl = settings?.rpcOverrides[String(chainId)] ?? getChain(chainId)?.defaultRpcUrl ?? '';
  const localChain = isLocalRpcUrl(rpcUrl);
  const swapStatus = form.swap?.status;
  const chosen = [from?.token.address, to?.token.address].filter((token): token is string => Boolean(token));
  const { balanceOf, balanceError, priceOf, figures } = useSwapFigures(chainId, chosen, session, swapStatus);
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
  const review = reviewLabel(form, refusal, Boolean(quoteFits));
  const sessionToken = (address: string | undefined) => (address ? (findToken(address) ?? null) : null);
  const liveOut = quoteFits && to ? outTextOf(quote, to.token) : null;
  const lastOut = useLastOut(liveOut, `${chainId}:${from?.token.address}:${to?.token.address}`);
  const nextLoading = session?.status === 'loading' || session?.status === 'debouncing';

  return (
    <>
      <NetworkBar chainId={chainId} localChain={localChain} onChange={form.changeChain} />
      <HomeHoldings
        form={form}
        account={account}
        networkName={chain?.name ?? `Network ${chainId}`}
        nativeSymbol={native.symbol}
        swapStatus={swapStatus}
        logoUrl={logoUrl}
      />
      <SwapFields
        form={form}
        picker={pickerProps(form, shortlist, logoUrl)}
        balanceOf={balanceOf}
        balanceError={balanceError}
        maxText={maxText}
        maxNote={maxNote}
        feeSymbol={payingNative ? native.symbol : undefined}
        usdIn={usdText(parsed?.ok ? parsed.value : null, from?.token)}
        usdOut={usdText(quoteFits ? BigInt(quote.outAmount) : null, to?.token)}
        outText={liveOut}
        pendingOut={!liveOut && nextLoading && form.amount !== '' ? lastOut : null}
      />
      <BalanceNotice
        token={from?.token}
        error={balanceOf(from?.token.address) === undefined ? balanceError : null}
      />
      <ListNotices
        error={form.listError}
        refreshError={Boolean(form.list?.refreshError)}
        onRetry={form.retryList}
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
      <SlippageDetails value={form.slippage} onChange={form.setSlippage} />

      {from && to && !activeSwap && (
        <ReviewStep
          canReview={review.enabled}
          label={review.label}
          reviewing={reviewing}
          onReviewing={setReviewing}
          quote={quote}
          receivedAt={session?.receivedAt ?? null}
          quoteProblem={session?.status === 'error' && session.error ? session.error.title : null}
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
      {!(from && to) && !activeSwap && <NoReviewButton label={review.label} />}
      {activeSwap && (
        <ProgressSheet
          swap={activeSwap}
          findToken={findToken}
          localChain={localChain}
          run={run}
          onConfirmedDone={() => form.setAmount('')}
          onNewQuote={refreshQuote}
        />
      )}
    </>
  );
}
