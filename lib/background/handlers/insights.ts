// What the swap screen shows next to a quote, in one answer per quote: USD prices (reference quotes
// into the chain's main stablecoin, cached briefly) and the price impact (a small reference quote of
// the same pair). The network fee has its own request (./fee.ts): its simulation never holds these.
// Every part is optional: a part that fails is null ("—" on screen) and never blocks the quote.
import { NATIVE_TOKEN_ADDRESS, sameAddress, type Token } from '@/lib/api/schema';
import type { Request } from '@/lib/messaging/requests';
import { createPriceCache, type PriceCache } from '@/lib/prices/cache';
import { createReferenceBudget, type ReferenceBudget } from '@/lib/prices/reference-budget';
import {
  isStablecoin,
  mainStablecoin,
  PRICE_DECIMALS,
  priceFromQuote,
  referenceAmount,
} from '@/lib/prices/usd';
import { priceImpactBps, referenceInAmount } from '@/lib/swap/price-impact';
import { verifyQuoteAnswersRequest } from '@/lib/swap/verify';
import type { BackgroundServices } from '../services';

type InsightsRequest = Extract<Request, { type: 'quoteInsights' }>;
type PricesRequest = Extract<Request, { type: 'getPrices' }>;

const QUOTE_SLIPPAGE = 0.5;

export function createInsightHandlers(
  services: BackgroundServices,
  cache: PriceCache = createPriceCache(),
  budget: ReferenceBudget = createReferenceBudget(),
) {
  async function quoteOut(
    chainId: number,
    inToken: string,
    outToken: string,
    inAmount: bigint,
  ): Promise<bigint> {
    const request = { chainId, inToken, outToken, inAmount: inAmount.toString(), slippage: QUOTE_SLIPPAGE };
    const { quote } = await services.api().quote(request);
    const answers = verifyQuoteAnswersRequest(request, quote);
    if (!answers.ok) throw new Error('the reference quote does not answer the request');
    return BigInt(quote.outAmount);
  }

  // Prices being asked: the home and the pickers' shortlist ask for the same held tokens at once,
  // and each quote spent twice took the budget the rest of the holdings were waiting for.
  const asking = new Map<string, Promise<bigint | null>>();

  async function priceOf(chainId: number, token: Token, stable: Token | null): Promise<bigint | null> {
    if (isStablecoin(token.address, stable)) return 10n ** BigInt(PRICE_DECIMALS);
    if (!stable) return null;
    const cached = cache.get(chainId, token.address);
    if (cached !== undefined) return cached;
    const key = `${chainId}:${token.address.toLowerCase()}`;
    const inFlight = asking.get(key);
    if (inFlight) return inFlight;
    const pending = askPrice(chainId, token, stable).finally(() => asking.delete(key));
    asking.set(key, pending);
    return pending;
  }

  async function askPrice(chainId: number, token: Token, stable: Token): Promise<bigint | null> {
    // Over the reference quotes' budget: no price for now (not cached), asked again on the next view.
    if (!(await budget.take())) return null;
    const amount = referenceAmount(token.decimals);
    const price = await quoteOut(chainId, token.address, stable.address, amount).then(
      (out) => priceFromQuote(amount, token.decimals, out, stable.decimals),
      () => null,
    );
    cache.set(chainId, token.address, price);
    return price;
  }

  async function prices(chainId: number, addresses: string[]): Promise<Record<string, string | null>> {
    const { view } = await services.indexFor(chainId);
    const stable = mainStablecoin(view.tokens);
    const result: Record<string, string | null> = {};
    await Promise.all(
      addresses.map(async (address) => {
        const token = view.tokens.find((entry) => sameAddress(entry.address, address));
        const price = token ? await priceOf(chainId, token, stable) : null;
        result[address.toLowerCase()] = price === null ? null : price.toString();
      }),
    );
    return result;
  }

  return {
    getPrices: ({ chainId, tokens }: PricesRequest) => prices(chainId, tokens),
    quoteInsights: async ({ chainId }: InsightsRequest) => {
      // The session's own quote: the view names nothing the background would have to trust.
      const { quote, input } = services.session.getState();
      if (!quote || !input || quote.chainId !== chainId) return null;
      const inAmount = BigInt(quote.inAmount);
      const refIn = referenceInAmount(inAmount);
      const [impact, usd] = await Promise.all([
        quoteOut(chainId, quote.inToken, quote.outToken, refIn).then(
          (refOut) => priceImpactBps(inAmount, BigInt(quote.outAmount), refIn, refOut),
          () => null,
        ),
        prices(chainId, [quote.inToken, quote.outToken, NATIVE_TOKEN_ADDRESS]).catch(() => ({})),
      ]);
      const priceFor = (token: string) => (usd as Record<string, string | null>)[token.toLowerCase()] ?? null;
      return {
        inAmount: quote.inAmount,
        quoteOutAmount: quote.outAmount,
        priceImpactBps: impact,
        prices: {
          in: priceFor(quote.inToken),
          out: priceFor(quote.outToken),
          native: priceFor(NATIVE_TOKEN_ADDRESS),
        },
      };
    },
  };
}
