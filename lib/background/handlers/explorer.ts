// What explorer pages (the content script) may ask: the page's chain, a one-click quote, opening
// the popup prefilled; and the options page's extra explorer hosts.
import { browser } from 'wxt/browser';
import { SwapApiError } from '@/lib/api/errors';
import { isNativeToken, NATIVE_TOKEN_ADDRESS, sameAddress } from '@/lib/api/schema';
import { chainName, getChain } from '@/lib/chains';
import { explorerChainForUrl } from '@/lib/explorer/user-hosts';
import { checkOneClickAmount, oneClickAmountFor } from '@/lib/settings/one-click';
import { prefillItem } from '@/lib/storage/items';
import { requestFor } from '@/lib/swap/request';
import { verifyFailureMessage, verifyQuote } from '@/lib/swap/verify';
import { verifyQuoteDecimals } from '@/lib/tokens/facts';
import { HandlerError } from '../errors';
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

type ExplorerRequest = 'oneClickQuote' | 'openPopupPrefilled' | 'explorerChain' | 'setExplorerHost';

export function explorerHandlers(services: BackgroundServices): Pick<Handlers, ExplorerRequest> {
  return {
    oneClickQuote: ({ chainId, token }) => oneClickQuote(services, chainId, token),
    openPopupPrefilled: async ({ chainId, token, amount }) => {
      // The card quoted the settings' one-click amount: the popup opens on that same amount.
      const decimals = getChain(chainId)?.nativeDecimals ?? 18;
      const oneClick = checkOneClickAmount(services.settings().oneClickAmount, decimals);
      const prefillAmount = amount ?? (oneClick.ok ? oneClick.value.toString() : undefined);
      await prefillItem.set({
        chainId,
        token,
        ...(prefillAmount !== undefined ? { amount: prefillAmount } : {}),
        createdAt: Date.now(),
      });
      try {
        await browser.action.openPopup();
        return { opened: true };
      } catch {
        // openPopup needs a focused window; a tab with the popup page is the fallback.
        await browser.tabs.create({ url: browser.runtime.getURL('/popup.html') });
        return { opened: false };
      }
    },
    explorerChain: async (_request, sender) => ({
      chainId: explorerChainForUrl(sender.url, services.settings().explorerHosts) ?? null,
    }),
    setExplorerHost: ({ host, chainId }) => services.explorerHosts.set(host, chainId),
  };
}

/**
 * The chain's token list, or CHAIN_NOT_SERVED naming the chain: a chain outside the registry (an
 * explorer Swaplane knows links there), or one the swap service answers it does not serve.
 */
async function servedIndex(services: BackgroundServices, chainId: number) {
  const notServed = () =>
    new HandlerError(
      'CHAIN_NOT_SERVED',
      `The swap service does not serve ${chainName(chainId)} (chain ${chainId}): no quote here.`,
    );
  if (!getChain(chainId)) throw notServed();
  try {
    return await services.indexFor(chainId);
  } catch (error) {
    const unsupported =
      error instanceof SwapApiError &&
      (error.kind === 'unsupported-chain' || error.status === 400 || error.status === 404);
    throw unsupported ? notServed() : error;
  }
}

/** The page's token priced against the settings' amount of the chain's native coin. */
async function oneClickQuote(services: BackgroundServices, chainId: number, token: string) {
  if (isNativeToken(token)) throw new HandlerError('SAME_TOKEN', 'This is the native coin itself.');
  const { view, index } = await servedIndex(services, chainId);
  const hit = index.byAddress(token);
  if (hit === undefined)
    throw new HandlerError('NOT_WHITELISTED', 'This token is not on the swap service’s list.');
  const target = view.tokens[hit];
  const native = view.tokens.find((entry) => isNativeToken(entry.address));
  if (!target || !native || sameAddress(target.address, native.address)) {
    throw new HandlerError('NO_NATIVE', 'No native coin to quote against on this chain.');
  }
  const settings = services.settings();
  const { slippage } = settings;
  const amount = checkOneClickAmount(oneClickAmountFor(settings, chainId), native.decimals);
  if (!amount.ok) {
    throw new HandlerError('BAD_AMOUNT', `The one-click amount in settings does not fit: ${amount.message}`);
  }
  const request = requestFor(
    {
      chainId,
      inToken: NATIVE_TOKEN_ADDRESS,
      outToken: target.address,
      inAmount: amount.value.toString(),
      slippage,
    },
    services.settings().refCode,
  );
  const { quote } = await services.api().quote(request);
  // The card shows this quote on the page: the same checks as the popup's session (SECURITY.md),
  // and the decimals the card formats with must be the chain's, not whatever the service says.
  const consistent = verifyQuote(request, quote);
  if (!consistent.ok) {
    throw new HandlerError('QUOTE_REJECTED', verifyFailureMessage(consistent.reason).title);
  }
  // The list's decimals were checked on-chain when it was fetched; the quote must carry them.
  for (const [listed, claimed] of [
    [native, quote.inDecimals],
    [target, quote.outDecimals],
  ] as const) {
    if (claimed !== listed.decimals) {
      throw new HandlerError(
        'QUOTE_REJECTED',
        `The swap service’s quote says ${listed.symbol} has ${claimed} decimals; the chain says ${listed.decimals}.`,
      );
    }
  }
  await verifyQuoteDecimals(services.facts, quote);
  // The card names the network, the slippage and which service it asked (its origin).
  return {
    quote,
    inSymbol: native.symbol,
    outSymbol: target.symbol,
    network: chainName(chainId),
    slippage,
    service: new URL(settings.serviceBaseUrl).origin,
  };
}
