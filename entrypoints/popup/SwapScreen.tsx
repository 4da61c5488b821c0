import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { AmountField, amountErrorOf } from '@/components/AmountField';
import { QuoteCard } from '@/components/QuoteCard';
import { SlippageControl } from '@/components/SlippageControl';
import { SwapProgress } from '@/components/SwapProgress';
import { type PickedToken, TokenPicker } from '@/components/TokenPicker';
import { formatAmount, formatAmountExact, parseAmount } from '@/lib/amounts';
import { isNativeToken, sameAddress, type Token } from '@/lib/api/schema';
import { CHAINS, getChain, isLocalRpcUrl } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { ResultOf } from '@/lib/messaging/protocol';
import type { Settings } from '@/lib/settings/settings';
import type { QuoteInput } from '@/lib/state/session-state';
import { type RestoredForm, restoreForm } from '@/lib/swap/restore-form';
import { safeLogoUrl } from '@/lib/tokens/import';
import { buildTokenSearchIndex } from '@/lib/tokens/search';
import { takeBootForSwapScreen } from './boot';
import { useNow, useQuoteSession } from './hooks/useQuoteSession';
import { messageOf } from './messages';

type TokenList = ResultOf<'getTokenList'>;

const DEFAULT_CHAIN_ID = 1;
/** performance.mark name set once the swap screen is usable (see bench-popup). */
export const POPUP_READY_MARK = 'swaplane:popup-ready';
/** performance.mark name set when the chain's whole token list is in the pickers (see bench-popup). */
export const POPUP_LIST_MARK = 'swaplane:popup-token-list';

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
  const [approvalMode, setApprovalMode] = useState<'exact' | 'unlimited'>('exact');
  const [swapError, setSwapError] = useState<string | null>(null);
  const [balances, setBalances] = useState<Record<string, string>>({});
  const [chainId, setChainId] = useState(initial?.form?.chainId ?? DEFAULT_CHAIN_ID);
  const [list, setList] = useState<TokenList | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  // Bumped by the list error's Try again button: fetches the list anew.
  const [listAttempt, setListAttempt] = useState(0);
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
  const [pendingPrefill, setPendingPrefill] = useState<{ chainId: number; token: string } | null>(null);

  const index = useMemo(() => (list ? buildTokenSearchIndex(list.tokens) : null), [list]);
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

  // The chain's whole list, for the pickers: cached in the background, so this answers at once after
  // the first time. Asked for after the first frame, so its ~400 kB never delays that frame.
  useEffect(() => {
    let current = true;
    setList(null);
    setListError(null);
    callBackground({ type: 'getTokenList', chainId }).then(
      (result) => {
        if (!current) return;
        setList(result);
        performance.mark(POPUP_LIST_MARK);
      },
      (error: unknown) => current && setListError(messageOf(error)),
    );
    return () => {
      current = false;
    };
  }, [chainId, listAttempt]);

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
        setPendingPrefill({ chainId: prefill.chainId, token: prefill.token });
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
    if (native && token && !sameAddress(native.address, token.address))
      setFrom({ token: native, whitelisted: true });
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

  const now = useNow(session?.status === 'ready');
  useEffect(() => {
    if (!settings) callBackground({ type: 'getSettings' }).then(setSettings, () => undefined);
  }, []);
  const serviceOrigin = settings?.serviceBaseUrl ?? null;
  const rpcUrl = settings?.rpcOverrides[String(chainId)] ?? getChain(chainId)?.defaultRpcUrl ?? '';
  const localChain = isLocalRpcUrl(rpcUrl);
  // Balances of the two chosen tokens, refreshed when they change and after each swap.
  const swapStatus = swap?.status;
  useEffect(() => {
    const tokens = [from?.token.address, to?.token.address].filter((token): token is string =>
      Boolean(token),
    );
    if (tokens.length === 0) return;
    callBackground({ type: 'getBalances', chainId, tokens }).then(setBalances, () => setBalances({}));
  }, [chainId, from, to, swapStatus]);
  const balanceLine = (picked: PickedToken | null) => {
    if (!picked) return null;
    const raw = balances[picked.token.address.toLowerCase()];
    return (
      <p class="muted balance" data-testid={`balance-${picked.token.symbol}`}>
        Balance:{' '}
        {raw === undefined
          ? '…'
          : `${formatAmount(BigInt(raw), picked.token.decimals)} ${picked.token.symbol}`}
      </p>
    );
  };
  // Max leaves a little native coin for gas.
  const GAS_RESERVE = 10n ** 16n;
  const setMax = () => {
    if (!from) return;
    const raw = balances[from.token.address.toLowerCase()];
    if (raw === undefined) return;
    let value = BigInt(raw);
    if (isNativeToken(from.token.address)) value = value > GAS_RESERVE ? value - GAS_RESERVE : 0n;
    setAmount(formatAmountExact(value, from.token.decimals));
  };
  const startSwap = async (routerConsent?: string) => {
    setSwapError(null);
    try {
      await callBackground({ type: 'startSwap', approvalMode, ...(routerConsent ? { routerConsent } : {}) });
      setReviewing(false);
    } catch (error) {
      setSwapError(messageOf(error));
    }
  };
  const [dismissed, setDismissed] = useState<string | null>(null);
  const activeSwap = swap && swap.id !== dismissed ? swap : null;
  const swapActive = activeSwap !== null;

  const logoUrl = useCallback(
    (logoURI: string) => (serviceOrigin ? safeLogoUrl(logoURI, serviceOrigin) : null),
    [serviceOrigin],
  );

  const lookup = async (address: string): Promise<PickedToken | { error: string }> => {
    try {
      const result = await callBackground({ type: 'lookupToken', chainId, address });
      if (result.status === 'invalid-address') return { error: result.message };
      if (result.status === 'not-whitelisted') {
        return result.token
          ? { token: result.token, whitelisted: false }
          : { error: 'Not whitelisted, and Swaplane could not read this token’s details.' };
      }
      return { token: result.token, whitelisted: true };
    } catch (error) {
      return { error: messageOf(error) };
    }
  };

  return (
    <>
      <div class="toolbar">
        {localChain && (
          <span
            class="badge"
            title="This network's RPC runs on this machine (the devnet)"
            data-testid="local-badge"
          >
            Local
          </span>
        )}
        <label class="chain">
          <span class="sr-only">Network</span>
          <select
            value={String(chainId)}
            onChange={(event) => {
              setChainId(Number(event.currentTarget.value));
              setFrom(null);
              setTo(null);
            }}
          >
            {CHAINS.map((chain) => (
              <option key={chain.chainId} value={String(chain.chainId)}>
                {chain.name}
              </option>
            ))}
          </select>
        </label>
      </div>

      {listError && (
        <div class="error" role="alert" data-testid="list-error">
          <p>{listError}</p>
          <button type="button" onClick={() => setListAttempt((attempt) => attempt + 1)}>
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
        <TokenPicker
          label="From"
          tokens={list?.tokens ?? []}
          index={index}
          value={from}
          onChange={(picked) => {
            // Choosing the other side's token swaps the two, as users of other wallets expect.
            if (to && sameAddress(picked.token.address, to.token.address)) setTo(from);
            setFrom(picked);
          }}
          onLookup={lookup}
          logoUrl={logoUrl}
        />
        <AmountField
          value={amount}
          error={amountError}
          onInput={(value) => {
            setAmount(value);
            callBackground({ type: 'markTyping' }).catch(() => undefined);
          }}
        >
          {balanceLine(from)}
          {from && (
            <button type="button" class="link" onClick={setMax}>
              Max
            </button>
          )}
        </AmountField>
        <button
          type="button"
          class="flip"
          aria-label="Swap the from and to tokens"
          onClick={() => {
            setFrom(to);
            setTo(from);
          }}
        >
          {/* The glyph is a graphic: its colour is --fg on --surface (3:1 checked in a11y.spec.ts). */}
          <svg
            class="flip-glyph"
            viewBox="0 0 16 16"
            width="16"
            height="16"
            aria-hidden="true"
            focusable="false"
          >
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
        <TokenPicker
          label="To"
          tokens={list?.tokens ?? []}
          index={index}
          value={to}
          onChange={(picked) => {
            if (from && sameAddress(picked.token.address, from.token.address)) setFrom(to);
            setTo(picked);
          }}
          onLookup={lookup}
          logoUrl={logoUrl}
        />
        {balanceLine(to)}
        <SlippageControl value={slippage} onChange={setSlippage} />
      </form>

      {session && (
        <QuoteCard
          state={session}
          inToken={from?.token ?? (session.input ? (findToken(session.input.inToken) ?? null) : null)}
          outToken={to?.token ?? (session.input ? (findToken(session.input.outToken) ?? null) : null)}
          now={now}
          symbolOf={(address) => findToken(address)?.symbol}
          onRefresh={() => callBackground({ type: 'refreshQuote' }).catch(() => undefined)}
        />
      )}

      {session?.status === 'ready' && session.quote && from && to && !swapActive && !reviewing && (
        <button type="button" class="primary wide" onClick={() => setReviewing(true)}>
          Review swap
        </button>
      )}
      {reviewing && session?.quote && from && to && !swapActive && (
        <section class="review" aria-label="Review swap" data-testid="review">
          <h2>Review</h2>
          <dl class="quote-figures">
            <dt>You pay</dt>
            <dd>
              {formatAmount(BigInt(session.quote.inAmount), from.token.decimals)} {from.token.symbol}
            </dd>
            <dt>You receive (expected)</dt>
            <dd>
              {formatAmount(BigInt(session.quote.outAmount), to.token.decimals)} {to.token.symbol}
            </dd>
            <dt>Minimum received</dt>
            <dd>
              {formatAmount(BigInt(session.quote.minReceived), to.token.decimals)} {to.token.symbol}
            </dd>
          </dl>
          {!isNativeToken(from.token.address) && (
            <fieldset class="choice">
              <legend class="field-label">If {from.token.symbol} needs an approval</legend>
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
          {swapError && (
            <p class="error" role="alert">
              {swapError}
            </p>
          )}
          <button type="button" class="primary wide" onClick={() => startSwap()}>
            Confirm swap
          </button>
          <button type="button" onClick={() => setReviewing(false)}>
            Cancel
          </button>
        </section>
      )}
      {activeSwap && (
        <SwapProgress
          swap={activeSwap}
          outSymbol={findToken(activeSwap.request.outToken)?.symbol ?? ''}
          outDecimals={findToken(activeSwap.request.outToken)?.decimals ?? 18}
          localChain={localChain}
          onConsent={(router) => startSwap(router)}
          onDone={() => {
            callBackground({ type: 'dismissSwap' }).catch(() => undefined);
            setDismissed(activeSwap.id);
          }}
        />
      )}
    </>
  );
}
