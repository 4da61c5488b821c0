import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { QuoteCard } from '@/components/QuoteCard';
import { type PickedToken, TokenPicker } from '@/components/TokenPicker';
import { formatAmountExact, parseAmount } from '@/lib/amounts';
import { isNativeToken, sameAddress } from '@/lib/api/schema';
import { CHAINS } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { ResultOf } from '@/lib/messaging/protocol';
import type { QuoteInput } from '@/lib/swap/session-state';
import { safeLogoUrl } from '@/lib/tokens/import';
import { buildTokenSearchIndex } from '@/lib/tokens/search';
import { useNow, useQuoteSession } from './hooks/useQuoteSession';
import { messageOf } from './messages';

type TokenList = ResultOf<'getTokenList'>;

const DEFAULT_CHAIN_ID = 1;

export function SwapScreen() {
  const session = useQuoteSession();
  const [chainId, setChainId] = useState(DEFAULT_CHAIN_ID);
  const [list, setList] = useState<TokenList | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [from, setFrom] = useState<PickedToken | null>(null);
  const [to, setTo] = useState<PickedToken | null>(null);
  const [amount, setAmount] = useState('');
  const [slippage, setSlippage] = useState(0.5);
  // False until the form was restored from the session (or a prefill): nothing is sent before that.
  const restored = useRef(false);
  const pendingPrefill = useRef<string | null>(null);

  // The token list of the chain: cached in the background, so this answers at once after the first time.
  useEffect(() => {
    let current = true;
    setList(null);
    setListError(null);
    callBackground({ type: 'getTokenList', chainId }).then(
      (result) => current && setList(result),
      (error: unknown) => current && setListError(messageOf(error)),
    );
    return () => {
      current = false;
    };
  }, [chainId]);

  const index = useMemo(() => (list ? buildTokenSearchIndex(list.tokens) : null), [list]);
  const findToken = useCallback(
    (address: string) => {
      const hit = index?.byAddress(address);
      return hit === undefined ? undefined : list?.tokens[hit];
    },
    [index, list],
  );

  // Reopening the popup shows the live session: restore the form from the session's input once.
  useEffect(() => {
    if (restored.current || !session) return;
    if (!session.input) {
      restored.current = true;
      callBackground({ type: 'getSettings' }).then(
        (settings) => setSlippage(settings.slippage),
        () => undefined,
      );
      return;
    }
    if (session.input.chainId !== chainId) {
      setChainId(session.input.chainId);
      return;
    }
    if (!list) return;
    const inToken = findToken(session.input.inToken);
    const outToken = findToken(session.input.outToken);
    if (inToken) setFrom({ token: inToken, whitelisted: true });
    if (outToken) setTo({ token: outToken, whitelisted: true });
    if (inToken) setAmount(formatAmountExact(BigInt(session.input.inAmount), inToken.decimals));
    setSlippage(session.input.slippage);
    restored.current = true;
  }, [session, list, chainId, findToken]);

  // A content script asked to open the popup on a token: start from it.
  useEffect(() => {
    callBackground({ type: 'takePrefill' }).then(
      (prefill) => {
        if (!prefill) return;
        restored.current = true;
        setChainId(prefill.chainId);
        setFrom(null);
        setTo(null);
        setAmount('');
        pendingPrefill.current = prefill.token;
      },
      () => undefined,
    );
  }, []);
  useEffect(() => {
    if (!pendingPrefill.current || !list) return;
    const token = findToken(pendingPrefill.current);
    const native = list.tokens.find((entry) => isNativeToken(entry.address));
    if (token) setTo({ token, whitelisted: true });
    if (native && token && !sameAddress(native.address, token.address))
      setFrom({ token: native, whitelisted: true });
    pendingPrefill.current = null;
  }, [list, findToken]);

  const parsed = from ? parseAmount(amount, from.token.decimals) : null;
  const amountError = amount.trim() !== '' && parsed && !parsed.ok ? parsed.error.message : null;

  // Every change of the form becomes the session's input; the background debounces and cancels.
  // Deliberately keyed on the form only: the session echoing the input back must not re-send it.
  useEffect(() => {
    if (!restored.current) return;
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
  const [serviceOrigin, setServiceOrigin] = useState<string | null>(null);
  useEffect(() => {
    callBackground({ type: 'getSettings' }).then(
      (settings) => setServiceOrigin(settings.serviceBaseUrl),
      () => undefined,
    );
  }, []);
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
        <p class="error" role="alert" data-testid="list-error">
          {listError}
        </p>
      )}
      {list?.refreshError && (
        <p class="warning" role="status">
          Token list could not be refreshed; showing the saved list.
        </p>
      )}

      <form class="swap" onSubmit={(event) => event.preventDefault()}>
        <TokenPicker
          label="From"
          tokens={list?.tokens ?? []}
          index={index}
          value={from}
          exclude={to?.token.address}
          onChange={setFrom}
          onLookup={lookup}
          logoUrl={logoUrl}
        />
        <div class="amount">
          <label for="amount" class="field-label">
            Amount
          </label>
          <input
            id="amount"
            inputMode="decimal"
            autocomplete="off"
            placeholder="0.0"
            value={amount}
            aria-invalid={amountError !== null}
            aria-describedby={amountError ? 'amount-error' : undefined}
            onInput={(event) => {
              setAmount(event.currentTarget.value);
              callBackground({ type: 'markTyping' }).catch(() => undefined);
            }}
          />
          {amountError && (
            <p id="amount-error" class="error" role="alert">
              {amountError}
            </p>
          )}
        </div>
        <button
          type="button"
          class="flip"
          aria-label="Swap the from and to tokens"
          onClick={() => {
            setFrom(to);
            setTo(from);
          }}
        >
          ⇅
        </button>
        <TokenPicker
          label="To"
          tokens={list?.tokens ?? []}
          index={index}
          value={to}
          exclude={from?.token.address}
          onChange={setTo}
          onLookup={lookup}
          logoUrl={logoUrl}
        />
        <label class="slippage">
          <span class="field-label">Slippage (%)</span>
          <input
            type="number"
            min="0.01"
            max="50"
            step="0.1"
            value={slippage}
            onInput={(event) => {
              const next = Number(event.currentTarget.value);
              if (Number.isFinite(next) && next > 0 && next <= 50) setSlippage(next);
            }}
          />
        </label>
      </form>

      {session && (
        <QuoteCard
          state={session}
          inToken={from?.token ?? (session.input ? (findToken(session.input.inToken) ?? null) : null)}
          outToken={to?.token ?? (session.input ? (findToken(session.input.outToken) ?? null) : null)}
          now={now}
          onRefresh={() => callBackground({ type: 'refreshQuote' }).catch(() => undefined)}
        />
      )}
    </>
  );
}
