// Swap steps 1 and 2: the quote (the confirmed one, or a fresh one) and its build.
import type { SwapApiClient } from '@/lib/api/client';
import { QuoteOutdatedError } from '@/lib/api/errors';
import { userMessageFor } from '@/lib/api/messages';
import { type BuildResult, ERROR_CODES, type Quote, type QuoteRequest } from '@/lib/api/schema';
import type { Ledger } from './swap-ledger';
import { Stop } from './swap-stop';
import { verifyFailureMessage, verifyQuote } from './verify';

type Api = Pick<SwapApiClient, 'quote' | 'build'>;

/** What the quote and build steps read of the run's input. */
export interface QuoteInput {
  request: QuoteRequest;
  /** The quote the user reviewed, if any. */
  quote: Quote | null;
  signal?: AbortSignal | undefined;
}

/** A quote that does not answer the request stops the swap. */
export function checkQuote(request: QuoteRequest, quote: Quote): void {
  const verdict = verifyQuote(request, quote);
  if (!verdict.ok) {
    const words = verifyFailureMessage(verdict.reason);
    throw new Stop('QUOTE_REJECTED', 'quote', {
      detail: JSON.stringify(verdict.reason),
      message: words,
    });
  }
}

/** A fresh quote; a worse guaranteed minimum than the confirmed quote's needs the user. */
export async function requote(
  api: Api,
  ledger: Ledger,
  input: QuoteInput,
  confirmedMin: bigint | null,
): Promise<Quote> {
  await ledger.moveTo('quoting');
  let quote: Quote;
  try {
    ({ quote } = await api.quote(input.request, input.signal ? { signal: input.signal } : {}));
  } catch (error) {
    throw new Stop('QUOTE_FAILED', 'quote', { detail: String(error), message: userMessageFor(error) });
  }
  checkQuote(input.request, quote);
  // The decimals were checked on-chain for the reviewed quote: a re-quote may not change them.
  const reviewed = input.quote;
  if (reviewed && (quote.inDecimals !== reviewed.inDecimals || quote.outDecimals !== reviewed.outDecimals)) {
    throw new Stop('QUOTE_REJECTED', 'quote', {
      detail: `decimals ${quote.inDecimals}/${quote.outDecimals} differ from ${reviewed.inDecimals}/${reviewed.outDecimals}`,
    });
  }
  await ledger.update({ quote, requotes: ledger.current().requotes + 1 });
  if (confirmedMin !== null && BigInt(quote.minReceived) < confirmedMin) {
    throw new Stop('PRICE_CHANGED', 'quote', {
      detail: `new minReceived ${quote.minReceived} < confirmed ${confirmedMin}`,
    });
  }
  return quote;
}

/** The build the review showed, for the quote it was built from: no second /build. */
export async function usePrepared(
  ledger: Ledger,
  quote: Quote,
  build: BuildResult,
): Promise<{ build: BuildResult; quote: Quote }> {
  await ledger.moveTo('building');
  await ledger.update({ build });
  return { build, quote };
}

/** POST /build; one automatic re-quote when the service says the quote is outdated. */
export async function buildSwap(
  api: Api,
  ledger: Ledger,
  input: QuoteInput,
  quote: Quote,
  confirmedMin: bigint | null,
): Promise<{ build: BuildResult; quote: Quote }> {
  for (let attempt = 0; ; attempt++) {
    await ledger.moveTo('building');
    try {
      const { build } = await api.build(quote, input.signal ? { signal: input.signal } : {});
      await ledger.update({ build });
      return { build, quote };
    } catch (error) {
      const outdated =
        error instanceof QuoteOutdatedError &&
        (error.serverCode === undefined || error.serverCode === ERROR_CODES.quoteOutdated);
      if (!outdated) {
        throw new Stop('BUILD_FAILED', 'build', { detail: String(error), message: userMessageFor(error) });
      }
      if (attempt >= 1) throw new Stop('QUOTE_OUTDATED', 'build', { detail: String(error) });
      quote = await requote(api, ledger, input, confirmedMin);
    }
  }
}
