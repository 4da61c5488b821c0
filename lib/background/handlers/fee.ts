// The swap screen's network fee for the quote on screen (the session's own quote), as the review will
// show it: the review's fees per gas (capped the same way, under the user's ceiling) and the gas of the
// review's own simulation run early (lib/swap/fee-probe.ts). When the probe cannot answer in time, the
// gas last simulated for a route of this shape (kept across worker restarts), else the route's
// estimate: the view then says "about". Its own request, so the simulation never holds the insights.
import type { Address } from 'viem';
import { isNativeToken, type Quote } from '@/lib/api/schema';
import { withAttempts } from '@/lib/async';
import type { Request } from '@/lib/messaging/requests';
import { cappedFees } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { checkedClientFor } from '@/lib/rpc/rpc-failure';
import { readAllowance } from '@/lib/swap/approval';
import { type FeeProbe, swapFeeProbe } from '@/lib/swap/fee-probe';
import { estimatedGas, networkFee, swapGasMemory } from '@/lib/swap/network-fee';
import { QUOTE_LIFETIME_MS } from '@/lib/swap/review';
import { QUOTE_OUTDATED_REASON } from '@/lib/swap/session';
import type { BackgroundServices } from '../services';

type FeeRequest = Extract<Request, { type: 'quoteFee' }>;

/** Past this the screen's fee is the remembered one ("about"): the probe never holds it longer. */
export const PROBE_TIMEOUT_MS = 10_000;

export function createFeeHandlers(services: BackgroundServices, probe: FeeProbe = swapFeeProbe) {
  async function activeAddress(): Promise<Address | null> {
    const state = await services.wallet.state();
    const active = state.accounts.find((account) => account.id === state.activeId);
    return active ? (active.address as Address) : null;
  }

  /**
   * Fallback only: whether the review will ask for an approval. The spender is the router the last
   * build of this service's contract named (the probe keeps it), never the quote's contract (the
   * service's executor, which the review does not approve); with no build seen yet, the approval is
   * counted (the figure says "about" either way).
   */
  async function approvalNeeded(client: RpcClient, quote: Quote, from: Address | null): Promise<boolean> {
    if (isNativeToken(quote.inToken)) return false;
    const router = probe.routerFor(quote);
    if (!from || !router) return true;
    return (await readAllowance(client, quote.inToken as Address, from, router)) < BigInt(quote.inAmount);
  }

  /** The last time a probe marked the session outdated, and for which input (its revision). */
  let lastMark: { revision: number; at: number } | null = null;

  /**
   * The probe's build was refused as outdated: the same stale state (and new quote) the review's
   * build gives, so nothing of this quote stays signable. Only while it is still the session's quote,
   * and once per input per quote lifetime: a service refusing every build would otherwise have the
   * swap screen ask a new quote after each one (the review's own build still refuses it).
   */
  function outdated(quote: Quote): void {
    const state = services.session.getState();
    if (state.quote !== quote) return;
    const now = Date.now();
    if (lastMark && lastMark.revision === state.revision && now - lastMark.at < QUOTE_LIFETIME_MS) return;
    lastMark = { revision: state.revision, at: now };
    services.session.markOutdated(QUOTE_OUTDATED_REASON);
  }

  async function feeOf(quote: Quote) {
    // Another chain's fees are no figure for this one: the node is asked its chain first.
    const client = await checkedClientFor(quote.chainId, services.settings());
    const [fees, from] = await Promise.all([
      cappedFees(client, services.signing.ceilingFor(quote.chainId)),
      activeAddress(),
    ]);
    const simulated = from
      ? await withAttempts(
          () =>
            probe.probe({
              client,
              api: services.api(),
              quote,
              from,
              fees,
              onOutdated: () => outdated(quote),
            }),
          {
            attempts: 1,
            timeoutMs: PROBE_TIMEOUT_MS,
          },
        ).catch(() => null)
      : null;
    if (simulated) void swapGasMemory.remember(quote, simulated.swap);
    const gas =
      simulated ??
      estimatedGas(
        quote,
        await approvalNeeded(client, quote, from).catch(() => true),
        await swapGasMemory.recall(quote),
      );
    const estimate = networkFee(gas, fees);
    return {
      inAmount: quote.inAmount,
      quoteOutAmount: quote.outAmount,
      gas: estimate.gas.toString(),
      expected: estimate.expected.toString(),
      max: estimate.max.toString(),
      approvalNeeded: estimate.approvalNeeded,
      basis: simulated ? ('simulated' as const) : ('about' as const),
    };
  }

  return {
    quoteFee: async ({ chainId }: FeeRequest) => {
      const { quote, input } = services.session.getState();
      if (!quote || !input || quote.chainId !== chainId) return null;
      return feeOf(quote).catch(() => null);
    },
  };
}
