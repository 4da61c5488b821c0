// Exact replay of what the router does with a route: shares run in array order, each share's
// input comes from splitAmounts, each hop is V2 getAmountOut on the reserves as left by the
// hops before it. The quote's outAmount and every swap entry's amounts come from here.
import type { Path } from './graph';
import type { ReserveSnapshot } from './reserves';
import { getAmountOut, MAX_RESERVE, splitAmounts } from './v2';

export interface RouteShareInput {
  readonly percent: number;
  readonly path: Path;
}

export interface SimulatedHop {
  readonly pool: number;
  readonly zeroForOne: boolean;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

export interface SimulatedShare {
  readonly percent: number;
  readonly path: Path;
  readonly hops: readonly SimulatedHop[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

export interface Simulation {
  readonly ok: true;
  readonly outAmount: bigint;
  readonly shares: readonly SimulatedShare[];
}

export interface SimulationFailure {
  readonly ok: false;
  /** Why the router would revert (or produce nothing) on this route. */
  readonly reason: string;
}

export function simulateRoute(
  shares: readonly RouteShareInput[],
  inAmount: bigint,
  snapshot: ReserveSnapshot,
): Simulation | SimulationFailure {
  if (shares.length === 0) return { ok: false, reason: 'the route has no shares' };
  const amounts = splitAmounts(
    inAmount,
    shares.map((share) => share.percent),
  );
  // Only the pools this route touches get an overlay; the snapshot itself stays shared and frozen.
  const touched = new Map<number, [bigint, bigint]>();
  const result: SimulatedShare[] = [];
  let outAmount = 0n;
  for (let s = 0; s < shares.length; s++) {
    const share = shares[s] as RouteShareInput;
    const shareIn = amounts[s] ?? 0n;
    let amount = shareIn;
    const hops: SimulatedHop[] = [];
    for (const hop of share.path) {
      const state = touched.get(hop.pool) ?? [
        snapshot.reserve0[hop.pool] ?? 0n,
        snapshot.reserve1[hop.pool] ?? 0n,
      ];
      const reserveIn = hop.zeroForOne ? state[0] : state[1];
      const reserveOut = hop.zeroForOne ? state[1] : state[0];
      if (amount <= 0n) return { ok: false, reason: 'a hop would receive a zero amount' };
      if (reserveIn <= 0n || reserveOut <= 0n) return { ok: false, reason: 'a pool of the route is empty' };
      if (reserveIn + amount > MAX_RESERVE)
        return { ok: false, reason: 'the amount overflows a pool reserve' };
      const out = getAmountOut(amount, reserveIn, reserveOut);
      if (out <= 0n) return { ok: false, reason: 'a hop would return a zero amount' };
      const next: [bigint, bigint] = hop.zeroForOne
        ? [reserveIn + amount, reserveOut - out]
        : [reserveOut - out, reserveIn + amount];
      touched.set(hop.pool, next);
      hops.push({ pool: hop.pool, zeroForOne: hop.zeroForOne, amountIn: amount, amountOut: out });
      amount = out;
    }
    outAmount += amount;
    result.push({ percent: share.percent, path: share.path, hops, amountIn: shareIn, amountOut: amount });
  }
  return { ok: true, outAmount, shares: result };
}
