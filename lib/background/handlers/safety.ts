// The explorer card's token safety check (content script): a simulated buy and sell-back of a token
// not on the service's list, on the user's RPC for that chain (lib/safety/check.ts). Nothing is sent.
import { getAddress, type Hex } from 'viem';
import { browser } from 'wxt/browser';
import { getChain } from '@/lib/chains';
import { withSafetyWords } from '@/lib/explorer/safety-text';
import { isRpcUnavailable, publicClientFor } from '@/lib/rpc/network';
import { checkTokenSafety } from '@/lib/safety/check';
import { checkOneClickAmount, oneClickAmountFor } from '@/lib/settings/one-click';
import { HandlerError } from '../errors';
import type { BackgroundServices } from '../services';
import type { Handlers } from './types';

export function safetyHandlers(services: BackgroundServices): Pick<Handlers, 'tokenSafety'> {
  return {
    tokenSafety: async ({ chainId, token }) => {
      const chain = getChain(chainId);
      if (!chain) throw new HandlerError('UNSUPPORTED_CHAIN', 'Swaplane does not know this network.');
      const settings = services.settings();
      // The card's own amount: the check buys what a one-click swap would.
      const amount = checkOneClickAmount(oneClickAmountFor(settings, chainId));
      if (!amount.ok)
        throw new HandlerError('BAD_AMOUNT', `The one-click amount does not fit: ${amount.message}`);
      try {
        const report = await checkTokenSafety(publicClientFor(chainId, settings), {
          chainId,
          token: getAddress(token),
          weth: chain.wrappedNative,
          amount: amount.value,
          probeCode: await loadProbeCode(),
        });
        return withSafetyWords({ ...report, network: chain.name });
      } catch (error) {
        if (isRpcUnavailable(error)) {
          throw new HandlerError(
            'RPC_UNAVAILABLE',
            `The ${chain.name} RPC did not answer: the token was not checked.`,
          );
        }
        throw new HandlerError('SAFETY_FAILED', 'The safety check could not run on this network’s RPC.');
      }
    },
  };
}

let probeCode: Promise<Hex> | undefined;

/** The probe's code from the package (public/safety-probe.hex), read once per worker. */
function loadProbeCode(): Promise<Hex> {
  probeCode ??= fetch(browser.runtime.getURL('/safety-probe.hex'))
    .then((response) => response.text())
    .then((text) => {
      const code = text.trim();
      if (!/^0x[0-9a-f]+$/.test(code)) throw new Error('the packaged probe code is not hex');
      return code as Hex;
    });
  probeCode.catch(() => {
    probeCode = undefined; // a failed read is tried again next time
  });
  return probeCode;
}
