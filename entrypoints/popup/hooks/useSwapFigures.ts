import { useEffect, useState } from 'preact/hooks';
import type { QuoteFigures } from '@/components/QuoteCard';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { callBackground } from '@/lib/messaging/client';
import type { QuoteFee, QuoteInsights } from '@/lib/messaging/protocol';
import { priceOf as parsePrice } from '@/lib/prices/usd';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { whenIdle } from '../idle';
import { messageOf } from '../messages';

/** How long a quote stands before its fee is simulated (quotes replaced sooner cost no build). */
const FEE_DEBOUNCE_MS = 250;

export interface SwapFigures {
  /** Balances by lowercase address (decimal strings), the native coin's included. */
  balances: Record<string, string>;
  /** USD prices by lowercase address (x 10^8), null when unknown. */
  prices: Record<string, bigint | null>;
  /** Fee and price impact of the quote shown; undefined while unknown or for another quote. */
  figures: QuoteFigures | undefined;
  balanceOf: (token: string | undefined) => bigint | undefined;
  /** Why the balances could not be read (named by the background: e.g. an RPC of another chain). */
  balanceError: string | null;
  priceOf: (token: string | undefined) => bigint | null;
}

/**
 * The account's balances of `tokens` and the native coin: read again when the tokens change or a swap
 * moves on. A read the background refuses leaves no figure, and says why.
 */
function useBalances(chainId: number, tokens: readonly string[], swapStatus: string | undefined) {
  const [balances, setBalances] = useState<Record<string, string>>({});
  const [balanceError, setBalanceError] = useState<string | null>(null);
  const key = tokens.join(',');
  useEffect(() => {
    if (tokens.length === 0) return;
    const all = [...tokens, NATIVE_TOKEN_ADDRESS];
    let current = true;
    callBackground({ type: 'getBalances', chainId, tokens: all }).then(
      (answer) => {
        if (!current) return;
        setBalances(answer);
        setBalanceError(null);
      },
      (failure: unknown) => {
        if (!current) return;
        // Never the last figures as if they were still true: none, and why.
        setBalances({});
        setBalanceError(messageOf(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [chainId, key, swapStatus]);
  return { balances, balanceError };
}

/**
 * Balances, USD prices and the quote's fee and impact: one getBalances and one getPrices per change
 * of the tokens (never per keystroke), one quoteInsights and one quoteFee per new quote.
 */
export function useSwapFigures(
  chainId: number,
  tokens: readonly string[],
  session: QuoteSessionState | null,
  swapStatus: string | undefined,
): SwapFigures {
  const { balances, balanceError } = useBalances(chainId, tokens, swapStatus);
  const [prices, setPrices] = useState<Record<string, bigint | null>>({});
  const [insights, setInsights] = useState<QuoteInsights | null>(null);
  const [fee, setFee] = useState<QuoteFee | null | undefined>(undefined);
  const key = tokens.join(',');

  useEffect(() => {
    if (tokens.length === 0) return;
    let current = true;
    const cancel = whenIdle(() =>
      callBackground({ type: 'getPrices', chainId, tokens: [...tokens, NATIVE_TOKEN_ADDRESS] }).then(
        (answer) => {
          if (!current) return;
          const next: Record<string, bigint | null> = {};
          for (const [address, raw] of Object.entries(answer)) next[address] = parsePrice(raw);
          setPrices((before) => ({ ...before, ...next }));
        },
        () => undefined,
      ),
    );
    return () => {
      current = false;
      cancel();
    };
  }, [chainId, key]);

  const quote = session?.quote ?? null;
  const quoteKey = quote
    ? `${quote.chainId}:${quote.inAmount}:${quote.outAmount}:${session?.receivedAt}`
    : '';
  useEffect(() => {
    if (!quote) return;
    let current = true;
    const cancel = whenIdle(() =>
      callBackground({ type: 'quoteInsights', chainId: quote.chainId }).then(
        (answer) => current && setInsights(answer),
        () => current && setInsights(null),
      ),
    );
    return () => {
      current = false;
      cancel();
    };
  }, [quoteKey]);

  // The fee simulates the quote's build in the background: asked once the quote has stood a moment
  // (a quote replaced at once costs no build), apart from the insights so neither waits for the other.
  useEffect(() => {
    if (!quote) return;
    let current = true;
    // A failure said of the last quote is not this one's: "…" until this one is answered.
    setFee((before) => (before === null ? undefined : before));
    let cancelIdle = () => {};
    const timer = setTimeout(() => {
      cancelIdle = whenIdle(() =>
        callBackground({ type: 'quoteFee', chainId: quote.chainId }).then(
          (answer) => current && setFee(answer),
          () => current && setFee(null),
        ),
      );
    }, FEE_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
      cancelIdle();
    };
  }, [quoteKey]);

  const isForQuote = (answer: { inAmount: string; quoteOutAmount: string } | null) =>
    quote !== null &&
    answer !== null &&
    answer.inAmount === quote.inAmount &&
    answer.quoteOutAmount === quote.outAmount;
  const shownInsights = insights && isForQuote(insights) ? insights : null;
  // undefined: not answered for this quote yet ("…"); null: no figure ("—").
  const shownFee = fee === undefined ? undefined : fee === null || isForQuote(fee) ? fee : undefined;
  const figures: QuoteFigures | undefined =
    quote && (shownInsights || shownFee !== undefined)
      ? {
          priceImpactBps: shownInsights ? shownInsights.priceImpactBps : undefined,
          fee: shownFee && {
            expected: BigInt(shownFee.expected),
            max: BigInt(shownFee.max),
            approvalNeeded: shownFee.approvalNeeded,
            about: shownFee.basis === 'about',
          },
          nativePrice:
            parsePrice(shownInsights?.prices.native ?? null) ??
            prices[NATIVE_TOKEN_ADDRESS.toLowerCase()] ??
            null,
        }
      : undefined;
  const balanceOf = (token: string | undefined) => {
    const raw = token ? balances[token.toLowerCase()] : undefined;
    return raw === undefined ? undefined : BigInt(raw);
  };
  const priceOf = (token: string | undefined) => (token ? (prices[token.toLowerCase()] ?? null) : null);
  return { balances, balanceError, prices, figures, balanceOf, priceOf };
}
