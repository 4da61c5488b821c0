// The swap form's state: chain, tokens, amount and slippage. Restored from the quote session (or an
// explorer page's prefill), it becomes the session's input: one message per change of the form.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { amountErrorOf } from '@/components/AmountField';
import { releaseLogos } from '@/components/logo-gate';
import type { PickedToken } from '@/components/TokenPicker';
import { formatAmountExact, parseAmount } from '@/lib/amounts';
import { isNativeToken, sameAddress, type Token } from '@/lib/api/schema';
import { callBackground } from '@/lib/messaging/client';
import type { ResultOf } from '@/lib/messaging/protocol';
import type { Settings } from '@/lib/settings/settings';
import type { QuoteInput, QuoteSessionState } from '@/lib/state/session-state';
import { type RestoredForm, restoreForm } from '@/lib/swap/restore-form';
import { whenIdle } from '../idle';
import { type PopupStart, takeStart } from '../start';
import { useQuoteSession } from './useQuoteSession';
import { useTokenList } from './useTokenList';

export const DEFAULT_CHAIN_ID = 1;
/** performance.mark name set once the swap screen is usable (see bench-popup). */
export const POPUP_READY_MARK = 'swaplane:popup-ready';

type Prefill = NonNullable<ResultOf<'takePrefill'>>;
type StartTokens = PopupStart['tokens'];
const ignore = () => undefined;

export const picked = (token: Token | undefined): PickedToken | null =>
  token ? { token, whitelisted: true } : null;

/** The listed token at `address` among the start's few tokens, when they are of `chainId`. */
function startToken(tokens: StartTokens, chainId: number, address: string): Token | undefined {
  return tokens && tokens.chainId === chainId
    ? tokens.tokens.find((token) => sameAddress(token.address, address))
    : undefined;
}

/**
 * The form the first render can show: restored when the session and its tokens are already in
 * (`form: null` for a session with no input); null sends the restore effect to wait for them.
 */
export function initialForm(
  session: QuoteSessionState | null,
  tokens: StartTokens,
): { form: RestoredForm | null } | null {
  if (!session) return null;
  const input = session.input;
  if (!input) return { form: null };
  const form = restoreForm(input, (address) => startToken(tokens, input.chainId, address));
  return form.complete ? { form } : null;
}

/** The session's input the form makes, or null when it makes none (a token or the amount missing). */
export function inputOf(
  chainId: number,
  from: PickedToken | null,
  to: PickedToken | null,
  parsed: ReturnType<typeof parseAmount> | null,
  slippage: number,
): QuoteInput | null {
  if (!from || !to || !parsed?.ok || parsed.value <= 0n) return null;
  if (sameAddress(from.token.address, to.token.address)) return null;
  return {
    chainId,
    inToken: from.token.address,
    outToken: to.token.address,
    inAmount: parsed.value.toString(),
    slippage,
  };
}

/** True when `input` is what the session already has (nothing to send). */
export function sameInput(current: QuoteInput | null | undefined, input: QuoteInput | null): boolean {
  if (!input) return !current;
  return Boolean(current) && JSON.stringify(current) === JSON.stringify(input);
}

/** A content script asked to open the popup on a token: its prefill, once the chain's list is in. */
function usePrefill(
  list: ResultOf<'getTokenList'> | null,
  findToken: (address: string) => Token | undefined,
  begin: (prefill: Prefill) => void,
  apply: (to: Token, from: Token | undefined, amount: string | undefined) => void,
): void {
  const [pending, setPending] = useState<Prefill | null>(null);
  useEffect(() => {
    callBackground({ type: 'takePrefill' }).then((prefill) => {
      if (!prefill) return;
      begin(prefill);
      setPending(prefill);
    }, ignore);
  }, []);
  useEffect(() => {
    // Wait for the prefilled chain's list, not the list of the chain shown before.
    if (!pending || !list || list.chainId !== pending.chainId) return;
    const token = findToken(pending.token);
    const native = list.tokens.find((entry) => isNativeToken(entry.address));
    if (token) {
      const pay = native && !sameAddress(native.address, token.address) ? native : undefined;
      // The explorer card's amount: the popup quotes what the user just saw.
      const amount =
        pay && pending.amount ? formatAmountExact(BigInt(pending.amount), pay.decimals) : undefined;
      apply(token, pay, amount);
    }
    setPending(null);
  }, [list, findToken, pending]);
}

/** The form's fields, each with its setter. */
function useFields(initial: RestoredForm | null | undefined, startSlippage: number | undefined) {
  const [chainId, setChainId] = useState(initial?.chainId ?? DEFAULT_CHAIN_ID);
  const [from, setFrom] = useState<PickedToken | null>(picked(initial?.from));
  const [to, setTo] = useState<PickedToken | null>(picked(initial?.to));
  const [amount, setAmount] = useState(initial?.amount ?? '');
  const [slippage, setSlippage] = useState(initial?.slippage ?? startSlippage ?? 0.5);
  // How many times the user changed the pair (a pick, the flip, the network): what may change the
  // layout around the form; a restore or a prefill after the first frame does not count.
  const [picks, setPicks] = useState(0);
  return {
    chainId,
    setChainId,
    from,
    setFrom,
    to,
    setTo,
    amount,
    setAmount,
    slippage,
    setSlippage,
    picks,
    setPicks,
  };
}
type Fields = ReturnType<typeof useFields>;

/** What the user does to the form; a keystroke sets `typing` for the input effect it causes. */
function fieldActions(fields: Fields, typing: { current: boolean }) {
  const { from, to, setFrom, setTo } = fields;
  const countPick = () => fields.setPicks((count) => count + 1);
  return {
    changeChain: (next: number) => {
      fields.setChainId(next);
      setFrom(null);
      setTo(null);
      countPick();
    },
    // Choosing the other side's token swaps the two, as users of other wallets expect.
    pickFrom: (next: PickedToken) => {
      if (to && sameAddress(next.token.address, to.token.address)) setTo(from);
      setFrom(next);
      countPick();
    },
    pickTo: (next: PickedToken) => {
      if (from && sameAddress(next.token.address, from.token.address)) setFrom(to);
      setTo(next);
      countPick();
    },
    flip: () => {
      setFrom(to);
      setTo(from);
      countPick();
    },
    typeAmount: (value: string) => {
      if (value === fields.amount) return;
      typing.current = true;
      fields.setAmount(value);
    },
    setAmount: fields.setAmount,
    setSlippage: fields.setSlippage,
  };
}

/**
 * Reopening the popup shows the live session: restores the form from the session's input once (when
 * the first render could not: the session or its tokens were not in yet). A session with no input
 * takes the settings' slippage (`slippageFromSettings` when they are not in yet).
 */
function useRestore(
  fields: Fields,
  session: QuoteSessionState | null,
  list: ResultOf<'getTokenList'> | null,
  findToken: (address: string) => Token | undefined,
  restored: { current: boolean },
  markRestored: () => void,
  settings: Settings | null,
  slippageFromSettings: { current: boolean },
): void {
  const { chainId } = fields;
  useEffect(() => {
    if (restored.current || !session) return;
    if (!session.input) {
      markRestored();
      if (settings) fields.setSlippage(settings.slippage);
      else slippageFromSettings.current = true;
      return;
    }
    if (session.input.chainId !== chainId) {
      fields.setChainId(session.input.chainId);
      return;
    }
    const form = restoreForm(session.input, findToken);
    // A token the session names but nobody knows yet: wait for the list (then restore what is known).
    if (!form.complete && !list) return;
    if (form.from) fields.setFrom(picked(form.from));
    if (form.to) fields.setTo(picked(form.to));
    if (form.from) fields.setAmount(form.amount);
    fields.setSlippage(form.slippage);
    markRestored();
  }, [session, list, chainId, findToken]);
}

/**
 * Every change of the form becomes the session's input, in one message: setQuoteInput when the input
 * changed (the background debounces and cancels), markTyping for a keystroke that left it as it was
 * ("1." on the way to "1.5": hold the refresh meanwhile). Keyed on the form only: the session echoing
 * the input back must not re-send it. `formLive` is read at render: when the restore effect restores
 * the form, it runs in the same pass as this one, before its values reach the form; the form then is
 * not live yet.
 */
function useSessionInput(
  fields: Fields,
  parsed: ReturnType<typeof parseAmount> | null,
  session: QuoteSessionState | null,
  formLive: boolean,
  typing: { current: boolean },
): void {
  const { chainId, from, to, amount, slippage } = fields;
  useEffect(() => {
    const keystroke = typing.current;
    typing.current = false;
    if (!formLive) return;
    const input = inputOf(chainId, from, to, parsed, slippage);
    if (!sameInput(session?.input, input)) {
      callBackground({ type: 'setQuoteInput', input }).catch(ignore);
    } else if (keystroke) {
      callBackground({ type: 'markTyping' }).catch(ignore);
    }
  }, [chainId, from, to, amount, slippage]);
}

export function useSwapForm() {
  // What main.tsx already asked for (start.ts): the settings, the session and the few listed tokens
  // it names, usually in by the first render. The whole list is asked for after the first frame.
  const [booted] = useState(() => takeStart('swapScreen'));
  const start = booted?.value ?? null;
  const { session, swap } = useQuoteSession(start);
  const [initial] = useState(() => initialForm(session, start?.tokens ?? null));
  const fields = useFields(initial?.form, start?.settings.slippage);
  const { chainId, from, to, amount } = fields;
  // False until the form was restored from the session (or a prefill): nothing is sent before that.
  // A ref, read at render (see useSessionInput); `restoredShown` is the same fact as state, for `ready`.
  const restored = useRef(initial !== null);
  const [restoredShown, setRestoredShown] = useState(initial !== null);
  const markRestored = () => {
    restored.current = true;
    setRestoredShown(true);
  };

  // Ready: the live session is in and the form shows it, so the screen is usable. The mark (after
  // paint: Preact runs effects after the next frame) is what `npm run bench` measures. Declared
  // before the list's hook, so its effect runs first: the whole list (~400 kB) is asked for after
  // the first screen is up, never before it (a profile caught its request before the mark).
  const ready = session !== null && restoredShown;
  useEffect(() => {
    if (!ready) return;
    performance.mark(POPUP_READY_MARK);
    // The first frame is up: the token logos it held back (components/logo-gate.ts) load now.
    return whenIdle(releaseLogos, 200);
  }, [ready]);

  const { list, index, error: listError, retry: retryList } = useTokenList(chainId);
  // Settings for logo origins and the Local label (the service URL and RPCs).
  const [settings, setSettings] = useState<Settings | null>(start?.settings ?? null);
  // Set by a keystroke, read by the input effect it causes (which sends that keystroke's one message).
  const typing = useRef(false);
  const slippageFromSettings = useRef(false);

  const findToken = useCallback(
    (address: string): Token | undefined => {
      const hit = index?.byAddress(address);
      if (hit !== undefined) return list?.tokens[hit];
      return startToken(start?.tokens ?? null, chainId, address);
    },
    // `start` is fixed at mount.
    [index, list, chainId],
  );

  // The settings, once, when the start did not bring them (a later mount of the screen).
  useEffect(() => {
    if (settings) return;
    callBackground({ type: 'getSettings' }).then((loaded) => {
      setSettings(loaded);
      if (slippageFromSettings.current) fields.setSlippage(loaded.slippage);
    }, ignore);
  }, []);

  useRestore(fields, session, list, findToken, restored, markRestored, settings, slippageFromSettings);
  usePrefill(
    list,
    findToken,
    (prefill) => {
      markRestored();
      fields.setChainId(prefill.chainId);
      fields.setFrom(null);
      fields.setTo(null);
      fields.setAmount('');
    },
    (token, pay, prefilledAmount) => {
      fields.setTo(picked(token));
      if (pay) fields.setFrom(picked(pay));
      if (prefilledAmount) fields.setAmount(prefilledAmount);
    },
  );

  const parsed = from ? parseAmount(amount, from.token.decimals) : null;
  useSessionInput(fields, parsed, session, restored.current, typing);

  return {
    session,
    swap,
    settings,
    ready,
    chainId,
    from,
    to,
    amount,
    picks: fields.picks,
    parsed,
    amountError: amountErrorOf(amount, from ? from.token.decimals : null),
    slippage: fields.slippage,
    list,
    index,
    listError,
    retryList,
    findToken,
    ...fieldActions(fields, typing),
  };
}

export type SwapForm = ReturnType<typeof useSwapForm>;
