// Best route for one quote: candidate paths of the pair, the greedy split, then the exact replay.
// The split is only kept when its exact output beats every single path, so a quote never does
// worse than the best lone pool path, and an unroutable split (dust shares) falls back cleanly.
import type { Path, PoolGraph } from './graph';
import { allocatePercents, pathOutputFloat } from './optimizer';
import { poolIsLive, type ReserveSnapshot } from './reserves';
import { NO_TIME_LIMIT, type SearchClock } from './search-clock';
import { type Simulation, simulateRoute } from './simulate';

export type RouteResult = Simulation | { readonly ok: false; readonly reason: string };

export function livePaths(paths: readonly Path[], snapshot: ReserveSnapshot): Path[] {
  return paths.filter((path) => path.every((hop) => poolIsLive(snapshot, hop.pool)));
}

/**
 * A pair's live paths at one snapshot, filtered on the pair's first search there: a snapshot is
 * one block's frozen state, so which pools can trade in it never changes, and a new head, a reorg
 * or a revert brings a new snapshot object (the old one's list goes with it, a WeakMap key).
 */
const liveBySnapshot = new WeakMap<
  ReserveSnapshot,
  { graph: PoolGraph; byPair: Map<string, readonly Path[]> }
>();
/** Pairs remembered per snapshot; a flood of distinct pairs starts the snapshot's list again. */
const MAX_PAIRS_PER_SNAPSHOT = 4096;

export function livePathsAt(
  graph: PoolGraph,
  snapshot: ReserveSnapshot,
  tokenIn: string,
  tokenOut: string,
): readonly Path[] {
  let memo = liveBySnapshot.get(snapshot);
  // A snapshot belongs to one chain's graph; another graph (tests build several) starts again.
  if (!memo || memo.graph !== graph) {
    memo = { graph, byPair: new Map() };
    liveBySnapshot.set(snapshot, memo);
  }
  const { byPair } = memo;
  const key = `${tokenIn}>${tokenOut}`;
  const known = byPair.get(key);
  if (known) return known;
  const paths = livePaths(graph.paths(tokenIn, tokenOut), snapshot);
  if (byPair.size >= MAX_PAIRS_PER_SNAPSHOT) byPair.clear();
  byPair.set(key, paths);
  return paths;
}

export function findBestRoute(
  graph: PoolGraph,
  snapshot: ReserveSnapshot,
  tokenIn: string,
  tokenOut: string,
  inAmount: bigint,
  clock: SearchClock = NO_TIME_LIMIT,
): RouteResult {
  const paths = livePathsAt(graph, snapshot, tokenIn, tokenOut);
  if (paths.length === 0) return { ok: false, reason: 'no pool path joins these tokens' };
  return routeOverPaths(paths, snapshot, inAmount, clock);
}

export function routeOverPaths(
  paths: readonly Path[],
  snapshot: ReserveSnapshot,
  inAmount: bigint,
  clock: SearchClock = NO_TIME_LIMIT,
): RouteResult {
  const amount = Number(inAmount);
  // Rank single paths in float, replay the top two exactly: float ranking can only err on near-ties.
  const ranked = paths
    .map((path) => ({ path, out: pathOutputFloat(path, amount, snapshot) }))
    .sort((a, b) => b.out - a.out);
  let best: Simulation | null = null;
  let lastFailure = 'no path can carry this amount';
  for (const candidate of ranked.slice(0, 2)) {
    // The float outputs agree with the exact ones to ~1e-9: a runner-up 1e-6 behind cannot win.
    if (best && candidate.out < (ranked[0]?.out ?? 0) * (1 - 1e-6)) break;
    clock.check();
    const single = simulateRoute([{ percent: 100, path: candidate.path }], inAmount, snapshot);
    if (!single.ok) lastFailure = single.reason;
    else if (!best || single.outAmount > best.outAmount) best = single;
  }
  if (paths.length > 1 && !bestTakesAll(ranked, snapshot, amount)) {
    const percents = allocatePercents(paths, snapshot, amount, 100, clock);
    const shares = paths
      .map((path, i) => ({ path, percent: percents[i] ?? 0 }))
      .filter((share) => share.percent > 0)
      .sort((a, b) => b.percent - a.percent);
    if (shares.length > 1) {
      const split = simulateRoute(shares, inAmount, snapshot);
      if (split.ok && (!best || split.outAmount > best.outAmount)) best = split;
    }
  }
  if (!best && ranked.length > 2) {
    // The two best by price failed exactly (dust, overflow): try the rest before giving up.
    for (const candidate of ranked.slice(2)) {
      clock.check();
      const single = simulateRoute([{ percent: 100, path: candidate.path }], inAmount, snapshot);
      if (single.ok && (!best || single.outAmount > best.outAmount)) best = single;
    }
  }
  return best ?? { ok: false, reason: lastFailure };
}

/**
 * True when the 1%-step greedy would hand every step to the best path: its last 1% still gains
 * at least what any other path gains on its first 1%. Outputs are concave in the input, so each of
 * the best path's steps gains at least its last one; the split search then has nothing to find.
 */
export function bestTakesAll(
  ranked: readonly { path: Path; out: number }[],
  snapshot: ReserveSnapshot,
  amount: number,
): boolean {
  const best = ranked[0];
  if (!best) return true;
  const lastStep = best.out - pathOutputFloat(best.path, amount * 0.99, snapshot);
  for (let i = 1; i < ranked.length; i++) {
    const other = ranked[i] as { path: Path };
    if (pathOutputFloat(other.path, amount / 100, snapshot) > lastStep) return false;
  }
  return true;
}
