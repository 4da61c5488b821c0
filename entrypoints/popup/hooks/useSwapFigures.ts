import { useEffect, useState } from 'preact/hooks';
import type { QuoteFigures } from '@/components/QuoteCard';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { callBackground } from '@/lib/messaging/client';
import type { QuoteInsights } from '@/lib/messaging/protocol';
import { priceOf as parsePrice } from '@/lib/prices/usd';
import type { QuoteSessionState } from '@/lib/state/session-state';
import { whenIdle } from '../idle';
import { messageOf } from '../messages';

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
 * Balances, USD prices and the quote's fee and impact: one getBalances and one getPrices per change
 * of the tokens (never per keystroke) and one quoteInsights per new quote.
 */
export function useSwapFigures(
  chainId: number,
  tokens: readonly string[],
  session: QuoteSessionState | null,
  swapStatus: string | undefined,
): SwapFigures {
  const [balances, setBalances] = useState<Record<string, string>>({});
  const [balanceError, setBalanceError] = useState<string | null>(null);
  const [prices, setPrices] = useState<Record<string, bigint | null>>({});
  const [insights, setInsights] = useState<QuoteInsights | null>(null);
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

  const matches =
    quote && insights && insights.inAmount === quote.inAmount && insights.quoteOutAmount === quote.outAmount;
  const figures: QuoteFigures | undefined = matches
    ? {
        priceImpactBps: insights.priceImpactBps,
        fee: insights.fee
          ? {
              expected: BigInt(insights.fee.expected),
              max: BigInt(insights.fee.max),
              approvalNeeded: insights.fee.approvalNeeded,
            }
          : null,
        nativePrice: parsePrice(insights.prices.native) ?? prices[NATIVE_TOKEN_ADDRESS.toLowerCase()] ?? null,
      }
    : undefined;
  const balanceOf = (token: string | undefined) => {
    const raw = token ? balances[token.toLowerCase()] : undefined;
    return raw === undefined ? undefined : BigInt(raw);
  };
  const priceOf = (token: string | undefined) => (token ? (prices[token.toLowerCase()] ?? null) : null);
  return { balances, balanceError, prices, figures, balanceOf, priceOf };
}
