// The gas of the quote on the swap screen, found before any review the way the review finds it: the
// service builds the quote's call (POST /v1/build, one try, no wait on a 429), and the approvals it
// needs then the call run in the review's own simulation (./asset-sim.ts: eth_simulateV1 from the
// user's account, real nonce and fees). The service's contract has no gas field, and a router call
// encoded here would know neither the router (the build names it) nor another service's route format.
// Nothing is signed or sent: the build is only simulated. One probe per distinct route and amount:
// quote refreshes of the same route reuse it (after a fresh allowance read), and equal probes in
// flight are shared, so the service sees at most one build per route the user looks at. An amount
// the account cannot pay is never built: its simulation could only fail (the screen then says "about").
// A build refused as outdated tells the caller, which marks the quote as the review's build would.
import { type Address, erc20Abi, type Hex } from 'viem';
import type { SwapApiClient } from '@/lib/api/client';
import { QuoteOutdatedError } from '@/lib/api/errors';
import { isNativeToken, type Quote } from '@/lib/api/schema';
import type { CappedFees } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { approvalFor } from './approval';
import { simulateAssets } from './asset-sim';

/** What the review would simulate: the swap's gas, and each approval's before it. */
export interface SwapGas {
  swap: bigint;
  approvals: bigint[];
}

export interface ProbeInput {
  client: RpcClient;
  api: Pick<SwapApiClient, 'build'>;
  quote: Quote;
  from: Address;
  fees: CappedFees;
  /** The service refused the build as outdated: the quote's owner marks it (the review would). */
  onOutdated?: () => void;
}

/** How long a probe's gas stands for later quotes of the same route and amount. */
export const PROBE_REUSE_MS = 60_000;
/** The build's own bound: the probe never holds the screen's fee for long. */
export const PROBE_BUILD_TIMEOUT_MS = 8_000;

/** A probe's answer: the gas, and the router its build named (for a later allowance read). */
export interface ProbeResult extends SwapGas {
  router: Address;
}

interface Probed extends ProbeResult {
  at: number;
}

/** The route part of a probe's key, per quote object: the swap screen asks about the same quote at each look. */
const routeKeys = new WeakMap<Quote, string>();

function routeKeyOf(quote: Quote): string {
  let key = routeKeys.get(quote);
  if (key === undefined) {
    const route = quote.bestRoute.map((share) => [
      share.percent,
      share.swaps.map((swap) => String((swap as { pool?: unknown }).pool ?? JSON.stringify(swap))),
    ]);
    key = JSON.stringify(route).toLowerCase();
    routeKeys.set(quote, key);
  }
  return key;
}

/** The same route and amount from the same account: pools, percents and the amount, not the block. */
export function probeKey(quote: Quote, from: string): string {
  return (
    [from.toLowerCase(), quote.chainId, quote.inToken, quote.outToken, quote.inAmount].join(':') +
    routeKeyOf(quote)
  );
}

/** Whether `from` holds the amount paid in: a build of an amount it cannot pay is never simulated. */
export async function affordable(client: RpcClient, quote: Quote, from: Address): Promise<boolean> {
  const held = isNativeToken(quote.inToken)
    ? await client.getBalance({ address: from })
    : await client.readContract({
        address: quote.inToken as Address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [from],
      });
  return held >= BigInt(quote.inAmount);
}

/** The routers' key: the service's contract on a chain (its builds name one router for it). */
const routerKey = (quote: Pick<Quote, 'chainId' | 'contractAddress'>) =>
  `${quote.chainId}:${quote.contractAddress.toLowerCase()}`;

/** Builds and simulates once; null when the simulation cannot tell (unsupported RPC, reverts, no funds). */
async function probeOnce(input: ProbeInput): Promise<ProbeResult | null> {
  const { client, quote, from } = input;
  if (!(await affordable(client, quote, from))) return null;
  const { build } = await input.api
    .build(quote, { retry: false, signal: AbortSignal.timeout(PROBE_BUILD_TIMEOUT_MS) })
    .catch((error: unknown) => {
      if (error instanceof QuoteOutdatedError) input.onOutdated?.();
      throw error;
    });
  const router = build.to as Address;
  const [approval, nonce] = await Promise.all([
    approvalFor(client, quote.inToken, from, router, BigInt(quote.inAmount), 'exact'),
    client.getTransactionCount({ address: from, blockTag: 'pending' }),
  ]);
  const swap = { to: router, data: build.transaction as Hex, value: BigInt(build.value) };
  const sim = await simulateAssets(client, {
    from,
    nonce,
    fees: input.fees,
    approvals: approval.calls,
    swap,
    quote,
    router,
  });
  // A violation is refused at the review, but the gas it ran is still what the call costs.
  if (sim.status !== 'passed' && sim.status !== 'violated') return null;
  const swapGas = sim.gasUsed.at(-1);
  if (swapGas === undefined || swapGas <= 0n) return null;
  return { swap: swapGas, approvals: sim.gasUsed.slice(0, -1), router };
}

/** The probe with its reuse and sharing; `now` is injectable for tests. */
export function createFeeProbe(now: () => number = Date.now, limit = 16) {
  const done = new Map<string, Probed>();
  const running = new Map<string, Promise<ProbeResult | null>>();
  /** The router the last build for each service contract named (the spender a review approves). */
  const routers = new Map<string, Address>();

  /** A reused probe holds while the approvals it counted are still the ones needed. */
  async function reusable(input: ProbeInput, key: string): Promise<Probed | null> {
    const last = done.get(key);
    if (!last || now() - last.at > PROBE_REUSE_MS) return null;
    const { quote, from, client } = input;
    const approval = await approvalFor(
      client,
      quote.inToken,
      from,
      last.router,
      BigInt(quote.inAmount),
      'exact',
    );
    return approval.calls.length === last.approvals.length ? last : null;
  }

  function keep(key: string, quote: Quote, found: ProbeResult): void {
    routers.delete(routerKey(quote));
    routers.set(routerKey(quote), found.router);
    if (routers.size > limit) routers.delete(routers.keys().next().value as string);
    done.delete(key);
    done.set(key, { ...found, at: now() });
    if (done.size > limit) done.delete(done.keys().next().value as string);
  }

  /** Runs `work` as the one probe of `key`: a look meanwhile waits for it instead of building again. */
  function track(key: string, quote: Quote, work: Promise<ProbeResult | null>): Promise<ProbeResult | null> {
    const pending = work
      .catch(() => null)
      .then((found) => {
        if (found) keep(key, quote, found);
        return found;
      })
      .finally(() => {
        if (running.get(key) === pending) running.delete(key);
      });
    running.set(key, pending);
    return pending;
  }

  return {
    async probe(input: ProbeInput): Promise<SwapGas | null> {
      const key = probeKey(input.quote, input.from);
      const inFlight = running.get(key);
      if (inFlight) return inFlight;
      const reused = await reusable(input, key);
      if (reused) return reused;
      return running.get(key) ?? track(key, input.quote, probeOnce(input));
    },
    /** The review's own build and simulation of `quote`: the screen's next look at it reuses them. */
    share(quote: Quote, from: string, review: Promise<ProbeResult | null>): void {
      void track(probeKey(quote, from), quote, review);
    },
    /** The router the last build of this service contract named (probe or review), if any yet. */
    routerFor: (quote: Pick<Quote, 'chainId' | 'contractAddress'>): Address | undefined =>
      routers.get(routerKey(quote)),
  };
}
export type FeeProbe = ReturnType<typeof createFeeProbe>;

/** The worker's one probe: the swap screen's fee asks it, the review shares its own result with it. */
export const swapFeeProbe = createFeeProbe();
