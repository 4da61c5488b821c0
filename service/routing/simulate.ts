// Exact replay of what the router does with a route: shares run in array order, each share's
// input comes from splitAmounts, each hop is V2 getAmountOut or the V3 pool's swap on the state
// as left by the hops before it. The quote's outAmount and every swap entry's amounts come from here.
import type { Path } from './graph';
import type { ReserveSnapshot } from './reserves';
import { getAmountOut, MAX_RESERVE, splitAmounts } from './v2';
import { swapExactInput, type V3PoolState } from './v3';

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
  const touched = new Map<number, PoolOverlay>();
  const result: SimulatedShare[] = [];
  let outAmount = 0n;
  for (let s = 0; s < shares.length; s++) {
    const share = shares[s] as RouteShareInput;
    const shareIn = amounts[s] ?? 0n;
    let amount = shareIn;
    const hops: SimulatedHop[] = [];
    for (const hop of share.path) {
      if (amount <= 0n) return { ok: false, reason: 'a hop would receive a zero amount' };
      const step = swapHop(snapshot, touched, hop.pool, hop.zeroForOne, amount);
      if (!step.ok) return step;
      hops.push({ pool: hop.pool, zeroForOne: hop.zeroForOne, amountIn: amount, amountOut: step.out });
      amount = step.out;
    }
    outAmount += amount;
    result.push({ percent: share.percent, path: share.path, hops, amountIn: shareIn, amountOut: amount });
  }
  return { ok: true, outAmount, shares: result };
}

/** A pool's state as left by the hops before: V2 reserves or a V3 pool state. */
type PoolOverlay = readonly [bigint, bigint] | V3PoolState;

function swapHop(
  snapshot: ReserveSnapshot,
  touched: Map<number, PoolOverlay>,
  pool: number,
  zeroForOne: boolean,
  amount: bigint,
): { ok: true; out: bigint } | SimulationFailure {
  const v3 = snapshot.v3[pool];
  if (v3) {
    const state = (touched.get(pool) as V3PoolState | undefined) ?? v3;
    const swapped = swapExactInput(state, zeroForOne, amount);
    if (!swapped.ok) return swapped;
    touched.set(pool, swapped.after);
    return { ok: true, out: swapped.amountOut };
  }
  const state = (touched.get(pool) as readonly [bigint, bigint] | undefined) ?? [
    snapshot.reserve0[pool] ?? 0n,
    snapshot.reserve1[pool] ?? 0n,
  ];
  const reserveIn = zeroForOne ? state[0] : state[1];
  const reserveOut = zeroForOne ? state[1] : state[0];
  if (reserveIn <= 0n || reserveOut <= 0n) return { ok: false, reason: 'a pool of the route is empty' };
  if (reserveIn + amount > MAX_RESERVE) return { ok: false, reason: 'the amount overflows a pool reserve' };
  const out = getAmountOut(amount, reserveIn, reserveOut);
  if (out <= 0n) return { ok: false, reason: 'a hop would return a zero amount' };
  touched.set(
    pool,
    zeroForOne ? [reserveIn + amount, reserveOut - out] : [reserveOut - out, reserveIn + amount],
  );
  return { ok: true, out };
}
