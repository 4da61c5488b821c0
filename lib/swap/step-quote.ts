// Swap steps 1 and 2: the quote (the confirmed one, or a fresh one) and its build.
import type { SwapApiClient } from '@/lib/api/client';
import { QuoteOutdatedError } from '@/lib/api/errors';
import { userMessageFor } from '@/lib/api/messages';
import { type BuildResult, ERROR_CODES, type Quote, type QuoteRequest } from '@/lib/api/schema';
import { SwapFailure } from './failure';
import type { Ledger } from './swap-ledger';
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
export function checkQuote({ request, quote }: { request: QuoteRequest; quote: Quote }): void {
  const verdict = verifyQuote(request, quote);
  if (!verdict.ok) {
    const words = verifyFailureMessage(verdict.reason);
    throw new SwapFailure({
      code: 'QUOTE_REJECTED',
      step: 'quote',
      detail: JSON.stringify(verdict.reason),
      user: words,
    });
  }
}

/** A fresh quote; a worse guaranteed minimum than the confirmed quote's needs the user. */
export async function requote({
  api,
  ledger,
  input,
  confirmedMin,
}: {
  api: Api;
  ledger: Ledger;
  input: QuoteInput;
  /** The reviewed quote's minimum: a new quote guaranteeing less needs the user. */
  confirmedMin: bigint | null;
}): Promise<Quote> {
  await ledger.moveTo('quoting');
  let quote: Quote;
  try {
    ({ quote } = await api.quote(input.request, input.signal ? { signal: input.signal } : {}));
  } catch (error) {
    throw new SwapFailure({
      code: 'QUOTE_FAILED',
      step: 'quote',
      detail: String(error),
      user: userMessageFor(error),
    });
  }
  checkQuote({ request: input.request, quote });
  // The decimals were checked on-chain for the reviewed quote: a re-quote may not change them.
  const reviewed = input.quote;
  if (reviewed && (quote.inDecimals !== reviewed.inDecimals || quote.outDecimals !== reviewed.outDecimals)) {
    throw new SwapFailure({
      code: 'QUOTE_REJECTED',
      step: 'quote',
      detail: `decimals ${quote.inDecimals}/${quote.outDecimals} differ from ${reviewed.inDecimals}/${reviewed.outDecimals}`,
    });
  }
  await ledger.update({ quote, requotes: ledger.current().requotes + 1 });
  if (confirmedMin !== null && BigInt(quote.minReceived) < confirmedMin) {
    throw new SwapFailure({
      code: 'PRICE_CHANGED',
      step: 'quote',
      detail: `new minReceived ${quote.minReceived} < confirmed ${confirmedMin}`,
    });
  }
  return quote;
}

/** The build the review showed, for the quote it was built from: no second /build. */
export async function usePrepared({
  ledger,
  quote,
  build,
}: {
  ledger: Ledger;
  quote: Quote;
  build: BuildResult;
}): Promise<{ build: BuildResult; quote: Quote }> {
  await ledger.moveTo('building');
  await ledger.update({ build });
  return { build, quote };
}

/** POST /build; one automatic re-quote when the service says the quote is outdated. */
export async function buildSwap(params: {
  api: Api;
  ledger: Ledger;
  input: QuoteInput;
  quote: Quote;
  confirmedMin: bigint | null;
}): Promise<{ build: BuildResult; quote: Quote }> {
  const { api, ledger, input, confirmedMin } = params;
  let { quote } = params;
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
        throw new SwapFailure({
          code: 'BUILD_FAILED',
          step: 'build',
          detail: String(error),
          user: userMessageFor(error),
        });
      }
      if (attempt >= 1)
        throw new SwapFailure({ code: 'QUOTE_OUTDATED', step: 'build', detail: String(error) });
      quote = await requote({ api, ledger, input, confirmedMin });
    }
  }
}
