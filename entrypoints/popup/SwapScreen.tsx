import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { AmountField, amountErrorOf } from '@/components/AmountField';
import { AmountPanel, FlipButton } from '@/components/AmountPanel';
import { QuoteCard } from '@/components/QuoteCard';
import { type ApprovalMode, ReviewSheet } from '@/components/ReviewSheet';
import { SlippageControl } from '@/components/SlippageControl';
import { SwapProgress } from '@/components/SwapProgress';
import { type PickedToken, TokenPicker } from '@/components/TokenPicker';
import { formatAmount, formatAmountExact, parseAmount } from '@/lib/amounts';
import { isNativeToken, sameAddress, type Token } from '@/lib/api/schema';
import { getChain, isLocalRpcUrl } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import { formatUsd, usdValue } from '@/lib/prices/usd';
import type { Settings } from '@/lib/settings/settings';
import type { QuoteInput } from '@/lib/state/session-state';
import { type RestoredForm, restoreForm } from '@/lib/swap/restore-form';
import { safeLogoUrl } from '@/lib/tokens/import';
import { takeBootForSwapScreen } from './boot';
import { usePickerShortlist } from './hooks/usePickerShortlist';
import { useNow, useQuoteSession } from './hooks/useQuoteSession';
import { useSwapFigures } from './hooks/useSwapFigures';
import { useSwapRun } from './hooks/useSwapRun';
import { useTokenList } from './hooks/useTokenList';
import { NetworkBar } from './NetworkBar';
import { payChecks } from './pay-checks';
import { lookupToken, revokeLeftApproval } from './swap-actions';

const DEFAULT_CHAIN_ID = 1;
/** performance.mark name set once the swap screen is usable (see bench-popup). */
export const POPUP_READY_MARK = 'swaplane:popup-ready';

const picked = (token: Token | undefined): PickedToken | null =>
  token ? { token, whitelisted: true } : null;

export function SwapScreen() {
  // What main.tsx already asked for (boot.ts): the settings, the session and the few listed tokens
  // it names, usually in by the first render. The whole list is asked for after the first frame.
  const [booted] = useState(takeBootForSwapScreen);
  const { session, swap } = useQuoteSession(booted?.value ?? null);
  const bootTokens = booted?.value?.tokens ?? null;
  const findBootToken = (chain: number, address: string) =>
    bootTokens && bootTokens.chainId === chain
      ? bootTokens.tokens.find((token) => sameAddress(token.address, address))
      : undefined;
  // The form restored in the first render when the session and its tokens are already in; null
  // sends the restore effect below to wait for them.
  const [initial] = useState((): { form: RestoredForm | null } | null => {
    if (!session) return null;
    if (!session.input) return { form: null };
    const form = restoreForm(session.input, (address) => findBootToken(session.input?.chainId ?? 0, address));
    return form.complete ? { form } : null;
  });
  const [reviewing, setReviewing] = useState(false);
  const [chainId, setChainId] = useState(initial?.form?.chainId ?? DEFAULT_CHAIN_ID);
  const { list, index, error: listError, retry: retryList } = useTokenList(chainId);
  const [from, setFrom] = useState<PickedToken | null>(picked(initial?.form?.from));
  const [to, setTo] = useState<PickedToken | null>(picked(initial?.form?.to));
  const [amount, setAmount] = useState(initial?.form?.amount ?? '');
  const [slippage, setSlippage] = useState(
    initial?.form?.slippage ?? booted?.value?.settings.slippage ?? 0.5,
  );
  // Settings for logo origins and the Local label (the service URL and RPCs).
  const [settings, setSettings] = useState<Settings | null>(booted?.value?.settings ?? null);
  // False until the form was restored from the session (or a prefill): nothing is sent before that.
  // A ref, read at render (see formLive); `restoredShown` is the same fact as state, for `ready`.
  const restored = useRef(initial !== null);
  const [restoredShown, setRestoredShown] = useState(initial !== null);
  const markRestored = () => {
    restored.current = true;
    setRestoredShown(true);
  };
  // State, not a ref: the cached list may arrive before the prefill, and applying it must re-render.
  const [pendingPrefill, setPendingPrefill] = useState<{
    chainId: number;
    token: string;
    amount?: string;
  } | null>(null);

  const findToken = useCallback(
    (address: string): Token | undefined => {
      const hit = index?.byAddress(address);
      if (hit !== undefined) return list?.tokens[hit];
      return findBootToken(chainId, address);
    },
    // findBootToken reads `bootTokens`, fixed at mount.
    [index, list, chainId],
  );

  // Ready: the live session is in and the form shows it, so the screen is usable. The mark (after
  // paint: Preact runs effects after the next frame) is what `npm run bench` measures. Declared
  // before the list's effect so that, when the first frame is ready, the mark comes first.
  const ready = session !== null && restoredShown;
  useEffect(() => {
    if (ready) performance.mark(POPUP_READY_MARK);
  }, [ready]);

  // Reopening the popup shows the live session: restore the form from the session's input once
  // (when the first render could not: the session or its tokens were not in yet).
  useEffect(() => {
    if (restored.current || !session) return;
    if (!session.input) {
      markRestored();
      if (settings) setSlippage(settings.slippage);
      else
        callBackground({ type: 'getSettings' }).then(
          (loaded) => setSlippage(loaded.slippage),
          () => undefined,
        );
      return;
    }
    if (session.input.chainId !== chainId) {
      setChainId(session.input.chainId);
      return;
    }
    const form = restoreForm(session.input, findToken);
    // A token the session names but nobody knows yet: wait for the list (then restore what is known).
    if (!form.complete && !list) return;
    if (form.from) setFrom(picked(form.from));
    if (form.to) setTo(picked(form.to));
    if (form.from) setAmount(form.amount);
    setSlippage(form.slippage);
    markRestored();
  }, [session, list, chainId, findToken]);

  // A content script asked to open the popup on a token: start from it.
  useEffect(() => {
    callBackground({ type: 'takePrefill' }).then(
      (prefill) => {
        if (!prefill) return;
        markRestored();
        setChainId(prefill.chainId);
        setFrom(null);
        setTo(null);
        setAmount('');
        setPendingPrefill(prefill);
      },
      () => undefined,
    );
  }, []);
  useEffect(() => {
    // Wait for the prefilled chain's list, not the list of the chain shown before.
    if (!pendingPrefill || !list || list.chainId !== pendingPrefill.chainId) return;
    const token = findToken(pendingPrefill.token);
    const native = list.tokens.find((entry) => isNativeToken(entry.address));
    if (token) setTo({ token, whitelisted: true });
    if (native && token && !sameAddress(native.address, token.address)) {
      setFrom({ token: native, whitelisted: true });
      // The explorer card's amount: the popup quotes what the user just saw.
      if (pendingPrefill.amount) setAmount(formatAmountExact(BigInt(pendingPrefill.amount), native.decimals));
    }
    setPendingPrefill(null);
  }, [list, findToken, pendingPrefill]);

  const parsed = from ? parseAmount(amount, from.token.decimals) : null;
  const amountError = amountErrorOf(amount, from ? from.token.decimals : null);

  // Every change of the form becomes the session's input; the background debounces and cancels.
  // Deliberately keyed on the form only: the session echoing the input back must not re-send it.
  // Read at render: when the restore effect restores the form, it runs in the same pass as this
  // one, before its values reach the form; the form then is not live yet.
  const formLive = restored.current;
  useEffect(() => {
    if (!formLive) return;
    let input: QuoteInput | null = null;
    if (from && to && parsed?.ok && parsed.value > 0n && !sameAddress(from.token.address, to.token.address)) {
      input = {
        chainId,
        inToken: from.token.address,
        outToken: to.token.address,
        inAmount: parsed.value.toString(),
        slippage,
      };
    }
    const same = session?.input && input && JSON.stringify(session.input) === JSON.stringify(input);
    if (same || (!input && !session?.input)) return;
    callBackground({ type: 'setQuoteInput', input }).catch(() => undefined);
  }, [chainId, from, to, amount, slippage]);

  const now = useNow(session?.status === 'ready' || reviewing);
  useEffect(() => {
    if (!settings) callBackground({ type: 'getSettings' }).then(setSettings, () => undefined);
  }, []);
  const serviceOrigin = settings?.serviceBaseUrl ?? null;
  const rpcUrl = settings?.rpcOverrides[String(chainId)] ?? getChain(chainId)?.defaultRpcUrl ?? '';
  const localChain = isLocalRpcUrl(rpcUrl);
  const swapStatus = swap?.status;
  const chosen = [from?.token.address, to?.token.address].filter((token): token is string => Boolean(token));
  const { balanceOf, priceOf, figures } = useSwapFigures(chainId, chosen, session, swapStatus);
  const shortlist = usePickerShortlist(chainId, index !== null, swapStatus);
  const chain = getChain(chainId);
  const native = { symbol: chain?.nativeSymbol ?? 'ETH', decimals: chain?.nativeDecimals ?? 18 };
  const payingNative = from ? isNativeToken(from.token.address) : false;
  const fee = figures?.fee?.expected;
  const { refusal, maxText, maxNote } = payChecks({
    from: from?.token,
    amountText: amount,
    parsed,
    balanceOf,
    fee,
    native,
  });
  const run = useSwapRun(swap, () => setReviewing(false));
  const activeSwap = run.active;
  const swapActive = activeSwap !== null;

  const logoUrl = useCallback(
    (logoURI: string) => (serviceOrigin ? safeLogoUrl(logoURI, serviceOrigin) : null),
    [serviceOrigin],
  );
  const quote = session?.quote ?? null;
  const quoteFits =
    quote &&
    from &&
    to &&
    sameAddress(quote.inToken, from.token.address) &&
    sameAddress(quote.outToken, to.token.address);
  const usdText = (raw: bigint | null, token: Token | undefined) =>
    raw === null || !token ? '' : formatUsd(usdValue(raw, token.decimals, priceOf(token.address)));
  const onLookup = (address: string) => lookupToken(chainId, address);
  const pickerProps = {
    tokens: list?.tokens ?? [],
    index,
    shortlist,
    onLookup,
    logoUrl,
    compact: true,
    unavailable: listError,
  };

  return (
    <>
      <NetworkBar
        chainId={chainId}
        localChain={localChain}
        onChange={(next) => {
          setChainId(next);
          setFrom(null);
          setTo(null);
        }}
      />
      {listError && (
        <div class="error" role="alert" data-testid="list-error">
          <p>{listError}</p>
          <button type="button" onClick={retryList}>
            Try again
          </button>
        </div>
      )}
      {list?.refreshError && (
        <p class="warning" role="status">
          Token list could not be refreshed; showing the saved list.
        </p>
      )}

      <form class="swap" data-ready={ready ? 'true' : undefined} onSubmit={(event) => event.preventDefault()}>
        <AmountPanel
          label="You pay"
          token={from?.token}
          balance={balanceOf(from?.token.address)}
          onMax={maxText !== null ? () => setAmount(maxText) : undefined}
          maxTitle={payingNative ? `Keeps the estimated network fee in ${native.symbol}` : undefined}
          usd={usdText(parsed?.ok ? parsed.value : null, from?.token)}
          usdTestId="usd-in"
          note={maxNote}
        >
          <AmountField
            value={amount}
            error={amountError}
            onInput={(value) => {
              setAmount(value);
              callBackground({ type: 'markTyping' }).catch(() => undefined);
            }}
          />
          <TokenPicker
            label="From"
            {...pickerProps}
            value={from}
            onChange={(picked) => {
              // Choosing the other side's token swaps the two, as users of other wallets expect.
              if (to && sameAddress(picked.token.address, to.token.address)) setTo(from);
              setFrom(picked);
            }}
          />
        </AmountPanel>
        <FlipButton
          onFlip={() => {
            setFrom(to);
            setTo(from);
          }}
        />
        <AmountPanel
          label="You receive"
          token={to?.token}
          balance={balanceOf(to?.token.address)}
          usd={usdText(quoteFits ? BigInt(quote.outAmount) : null, to?.token)}
          usdTestId="usd-out"
        >
          <output
            class="amount-out"
            data-testid={quoteFits ? 'quote-out' : undefined}
            aria-label="You receive (expected)"
          >
            {quoteFits && to
              ? `${formatAmount(BigInt(quote.outAmount), to.token.decimals)} ${to.token.symbol}`
              : '0.0'}
          </output>
          <TokenPicker
            label="To"
            {...pickerProps}
            value={to}
            onChange={(picked) => {
              if (from && sameAddress(picked.token.address, from.token.address)) setFrom(to);
              setTo(picked);
            }}
          />
        </AmountPanel>
      </form>

      {session && (
        <QuoteCard
          state={session}
          inToken={from?.token ?? (session.input ? (findToken(session.input.inToken) ?? null) : null)}
          outToken={to?.token ?? (session.input ? (findToken(session.input.outToken) ?? null) : null)}
          now={now}
          symbolOf={(address) => findToken(address)?.symbol}
          onRefresh={() => callBackground({ type: 'refreshQuote' }).catch(() => undefined)}
          figures={figures}
          native={native}
        />
      )}
      <details class="slippage-details">
        <summary>Slippage tolerance {slippage}%</summary>
        <SlippageControl value={slippage} onChange={setSlippage} />
      </details>

      {refusal && (
        <p class="error" role="alert" data-testid="balance-error">
          {refusal}
        </p>
      )}
      {from && to && !swapActive && (
        <button
          type="button"
          class="primary wide"
          disabled={session?.status !== 'ready' || !quoteFits || refusal !== null}
          onClick={() => {
            run.clearError();
            setReviewing(true);
          }}
        >
          Review swap
        </button>
      )}
      {reviewing && quote && from && to && !swapActive && (
        <ReviewSheet
          quote={quote}
          receivedAt={session?.receivedAt ?? null}
          from={from.token}
          to={to.token}
          native={native}
          figures={figures}
          prices={{ in: priceOf(from.token.address), out: priceOf(to.token.address) }}
          now={now}
          loadPreview={(approvalMode: ApprovalMode) => callBackground({ type: 'previewSwap', approvalMode })}
          onRefresh={() => callBackground({ type: 'refreshQuote' }).catch(() => undefined)}
          onConfirm={run.start}
          onClose={() => setReviewing(false)}
          error={run.error}
        />
      )}
      {activeSwap && (
        <div class="sheet-scrim">
          <div class="sheet" role="dialog" aria-modal="true" aria-label="Swap progress">
            <SwapProgress
              swap={activeSwap}
              outSymbol={findToken(activeSwap.request.outToken)?.symbol ?? ''}
              outDecimals={findToken(activeSwap.request.outToken)?.decimals ?? 18}
              localChain={localChain}
              onConsent={run.consent}
              onRevokeApproval={() => revokeLeftApproval(activeSwap)}
              onReplace={(kind) => callBackground({ type: 'replaceSwap', kind })}
              onDone={() => {
                callBackground({ type: 'dismissSwap' }).catch(() => undefined);
                run.dismiss(activeSwap.id);
                // A swapped quote is spent: clear the amount so no old quote stays reviewable. After a
                // failure ("Back to the quote") the form stays as it was.
                if (activeSwap.status === 'confirmed') setAmount('');
              }}
            />
          </div>
        </div>
      )}
    </>
  );
}
