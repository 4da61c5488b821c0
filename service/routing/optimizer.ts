// Split search: hands the input out in 1% steps, each step to the path whose output grows most.
// Paths that share a pool would interact, so once a path holds any share its pools are reserved
// for it. Each path's output is concave in its input, so over pool-disjoint paths this greedy
// is optimal on the 1% grid. Floats only: the exact amounts come from simulateRoute.
import type { Path } from './graph';
import type { ReserveSnapshot } from './reserves';
import { NO_TIME_LIMIT, type SearchClock } from './search-clock';
import { getAmountOutFloat } from './v2';
import { swapFloat } from './v3';

export function pathOutputFloat(path: Path, amountIn: number, snapshot: ReserveSnapshot): number {
  let amount = amountIn;
  for (const hop of path) {
    const v3 = snapshot.v3Float[hop.pool];
    if (v3) {
      amount = swapFloat(v3, hop.zeroForOne, amount);
      continue;
    }
    const r0 = snapshot.float0[hop.pool] ?? 0;
    const r1 = snapshot.float1[hop.pool] ?? 0;
    amount = hop.zeroForOne ? getAmountOutFloat(amount, r0, r1) : getAmountOutFloat(amount, r1, r0);
  }
  return amount;
}

/** Integer percents per path (same order as `paths`), summing to `steps` (100 = all of the input). */
export function allocatePercents(
  paths: readonly Path[],
  snapshot: ReserveSnapshot,
  amountIn: number,
  steps = 100,
  clock: SearchClock = NO_TIME_LIMIT,
): number[] {
  const count = paths.length;
  const percents = new Array<number>(count).fill(0);
  if (count === 0 || steps <= 0) return percents;
  const unit = amountIn / steps;
  const current = new Float64Array(count); // output at the current allocation
  const next = new Float64Array(count); // output with one more step
  for (let p = 0; p < count; p++) next[p] = pathOutputFloat(paths[p] as Path, unit, snapshot);
  // A path is blocked once another path holding a share uses one of its pools; updated only when
  // a path gets its first share, so each step is a plain scan.
  const blocked = new Uint8Array(count);
  for (let step = 0; step < steps; step++) {
    clock.check();
    let best = -1;
    let bestGain = Number.NEGATIVE_INFINITY;
    for (let p = 0; p < count; p++) {
      if (blocked[p]) continue;
      const gain = (next[p] as number) - (current[p] as number);
      if (gain > bestGain) {
        bestGain = gain;
        best = p;
      }
    }
    if (best < 0) break; // cannot happen: a chosen path never blocks itself
    const chosen = paths[best] as Path;
    if (percents[best] === 0) {
      for (let p = 0; p < count; p++) {
        if (p !== best && !blocked[p] && sharesPool(chosen, paths[p] as Path)) blocked[p] = 1;
      }
    }
    percents[best] = (percents[best] as number) + 1;
    current[best] = next[best] as number;
    next[best] = pathOutputFloat(chosen, unit * ((percents[best] as number) + 1), snapshot);
  }
  return percents;
}

function sharesPool(a: Path, b: Path): boolean {
  for (const x of a) for (const y of b) if (x.pool === y.pool) return true;
  return false;
}
