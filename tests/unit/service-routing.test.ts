import { encodeFunctionData, toFunctionSelector, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ROUTER_ABI, ROUTER_SWAP_ABI } from '../../service/build';
import { simulateRoute as devnetSimulate } from '../../service/pool-math/v2';
import { type Path, PoolGraph } from '../../service/routing/graph';
import { allocatePercents, pathOutputFloat } from '../../service/routing/optimizer';
import { makeSnapshot, type ReserveSnapshot } from '../../service/routing/reserves';
import { bestTakesAll, findBestRoute, livePathsAt, routeOverPaths } from '../../service/routing/route';
import { simulateRoute } from '../../service/routing/simulate';
import { minReceivedFor, scaleSlippage } from '../../service/routing/slippage';
import { getAmountOut, MAX_RESERVE } from '../../service/routing/v2';
import { rng } from '../support/random';

const A = `0x${'a'.repeat(40)}`;
const B = `0x${'b'.repeat(40)}`;
const H = `0x${'c'.repeat(40)}`; // hub
const E = 10n ** 18n;

function pool(n: number, dex: string, token0: string, token1: string) {
  return { dex, address: `0x${n.toString(16).padStart(40, '0')}`, token0, token1 };
}

/** Two A/B pools (uni, sushi), and A/H + H/B on uni for a two-hop path. */
function fixture(reserves: [bigint, bigint][]) {
  const graph = new PoolGraph(
    [pool(1, 'uni', A, B), pool(2, 'sushi', A, B), pool(3, 'uni', A, H), pool(4, 'uni', H, B)],
    [H],
  );
  return { graph, snapshot: makeSnapshot(100n, reserves) };
}

function single(path: Path, amount: bigint, snapshot: ReserveSnapshot): bigint {
  const result = simulateRoute([{ percent: 100, path }], amount, snapshot);
  return result.ok ? result.outAmount : 0n;
}

describe('pool graph', () => {
  it('lists direct pools first, then two-hop paths through hubs, in either direction', () => {
    const { graph } = fixture([]);
    const paths = graph.paths(A, B);
    expect(paths.map((path) => path.map((hop) => hop.pool))).toEqual([[0], [1], [2, 3]]);
    expect(paths[0]?.[0]?.zeroForOne).toBe(true);
    expect(graph.paths(B.toUpperCase().replace('0X', '0x'), A)[2]).toEqual([
      { pool: 3, zeroForOne: false },
      { pool: 2, zeroForOne: false },
    ]);
    expect(graph.paths(A, A)).toEqual([]);
    expect(graph.paths(H, B).map((path) => path.length)).toEqual([1]);
  });
});

describe('live paths per snapshot', () => {
  const LIVE: [bigint, bigint][] = [
    [1000n * E, 2000n * E],
    [1000n * E, 2000n * E],
    [1000n * E, 1000n * E],
    [1000n * E, 2000n * E],
  ];
  const hubPools = (paths: readonly Path[]) => paths.map((path) => path.map((hop) => hop.pool));

  it('filters a pair once per snapshot; a new snapshot (new head, reorg, revert) filters again', () => {
    const { graph, snapshot } = fixture(LIVE);
    const first = livePathsAt(graph, snapshot, A, B);
    expect(hubPools(first)).toEqual([[0], [1], [2, 3]]);
    expect(livePathsAt(graph, snapshot, A, B)).toBe(first); // the same list: no filtering again
    // The next block empties the sushi pair: its path is gone there, and only there.
    const next = makeSnapshot(101n, [LIVE[0], [0n, 0n], LIVE[2], LIVE[3]] as [bigint, bigint][]);
    expect(hubPools(livePathsAt(graph, next, A, B))).toEqual([[0], [2, 3]]);
    expect(livePathsAt(graph, snapshot, A, B)).toBe(first);
    // A reorg or revert back to the old reserves is a new snapshot object: the sushi pair is back.
    const reverted = makeSnapshot(101n, LIVE);
    expect(hubPools(livePathsAt(graph, reverted, A, B))).toEqual([[0], [1], [2, 3]]);
    // findBestRoute routes over the snapshot's own live paths.
    const routed = findBestRoute(graph, next, A, B, E);
    expect(routed.ok && routed.shares.every((share) => share.path[0]?.pool !== 1)).toBe(true);
  });

  it('keys by graph too: another graph on the same snapshot gets its own paths', () => {
    const { graph, snapshot } = fixture(LIVE);
    const directOnly = new PoolGraph([pool(1, 'uni', A, B), pool(2, 'sushi', A, B)], []);
    expect(hubPools(livePathsAt(graph, snapshot, A, B))).toEqual([[0], [1], [2, 3]]);
    expect(hubPools(livePathsAt(directOnly, snapshot, A, B))).toEqual([[0], [1]]);
  });
});

describe('split optimizer', () => {
  it('splits across two pools of different depth and beats every single path', () => {
    const { graph, snapshot } = fixture([
      [1000n * E, 2000n * E],
      [400n * E, 810n * E],
      [1n * E, 1n * E],
      [1n * E, 1n * E],
    ]);
    const amount = 100n * E;
    const route = findBestRoute(graph, snapshot, A, B, amount);
    if (!route.ok) throw new Error(route.reason);
    expect(route.shares.length).toBe(2);
    expect(route.shares.reduce((sum, share) => sum + share.percent, 0)).toBe(100);
    for (const path of graph.paths(A, B))
      expect(route.outAmount).toBeGreaterThan(single(path, amount, snapshot));
  });

  it('lands within 0.1% of a brute-force optimum over the 1% grid (2 paths)', () => {
    const random = rng(42);
    let worstGap = 0;
    let splits = 0;
    for (let run = 0; run < 60; run++) {
      // Same price give or take 2%, different depths: the regime where splitting pays.
      const side = () => BigInt(Math.floor((0.2 + random() * 5) * 1e6)) * 10n ** 15n;
      const priced = (reserve: bigint) =>
        (reserve * BigInt(Math.floor((1.96 + random() * 0.08) * 1e6))) / 1_000_000n;
      const [x, y] = [side(), side()];
      const reserves: [bigint, bigint][] = [
        [x, priced(x)],
        [y, priced(y)],
      ];
      const snapshot = makeSnapshot(1n, reserves);
      const paths: Path[] = [[{ pool: 0, zeroForOne: true }], [{ pool: 1, zeroForOne: true }]];
      const amount = ((reserves[0]?.[0] ?? 0n) * BigInt(Math.floor(1 + random() * 500))) / 1000n;
      let brute = 0n;
      for (let p = 0; p <= 100; p++) {
        const shares = [
          { percent: p, path: paths[0] as Path },
          { percent: 100 - p, path: paths[1] as Path },
        ].filter((share) => share.percent > 0);
        const result = simulateRoute(shares, amount, snapshot);
        if (result.ok && result.outAmount > brute) brute = result.outAmount;
      }
      const route = routeOverPaths(paths, snapshot, amount);
      if (!route.ok) throw new Error(route.reason);
      if (route.shares.length > 1) splits++;
      const gap = Number(brute - route.outAmount) / Number(brute);
      worstGap = Math.max(worstGap, gap);
      expect(route.outAmount).toBeLessThanOrEqual(brute);
    }
    console.log(
      `optimizer vs 1% brute force, 60 cases (${splits} split): worst gap ${(worstGap * 100).toExponential(2)}%`,
    );
    expect(worstGap).toBeLessThan(0.001);
    expect(splits).toBeGreaterThan(30);
  });

  it('gives all of a tiny input to one path and refuses dust no pool can price', () => {
    const { graph, snapshot } = fixture([
      [1000n * E, 2000n * E],
      [1000n * E, 2000n * E],
      [E, E],
      [E, E],
    ]);
    const tiny = findBestRoute(graph, snapshot, A, B, 50n);
    if (!tiny.ok) throw new Error(tiny.reason);
    expect(tiny.shares.map((share) => share.percent)).toEqual([100]);
    expect(tiny.outAmount).toBe(getAmountOut(50n, 1000n * E, 2000n * E));
    // One wei prices to zero on 1:1 pools: the executor would revert (ZeroHopOutput).
    const flat = makeSnapshot(1n, [
      [E, E],
      [E, E],
      [E, E],
      [E, E],
    ]);
    expect(findBestRoute(graph, flat, A, B, 1n)).toEqual({
      ok: false,
      reason: 'a hop would return a zero amount',
    });
  });

  it('skips empty pools and refuses amounts that would overflow a uint112 reserve', () => {
    const { graph, snapshot } = fixture([
      [0n, 0n],
      [1000n * E, 2000n * E],
      [0n, 0n],
      [E, E],
    ]);
    const route = findBestRoute(graph, snapshot, A, B, E);
    expect(route.ok && route.shares.map((share) => share.path[0]?.pool)).toEqual([1]);
    expect(findBestRoute(graph, snapshot, A, B, MAX_RESERVE).ok).toBe(false);
    expect(findBestRoute(graph, snapshot, A, `0x${'d'.repeat(40)}`, E)).toEqual({
      ok: false,
      reason: 'no pool path joins these tokens',
    });
  });

  it('never hands two live paths the same pool', () => {
    // Two hubs' worth of pools: A/H on two dexes and H/B on two dexes make four two-hop paths.
    const graph = new PoolGraph(
      [pool(1, 'uni', A, H), pool(2, 'sushi', A, H), pool(3, 'uni', H, B), pool(4, 'sushi', H, B)],
      [H],
    );
    const snapshot = makeSnapshot(1n, [
      [1000n * E, 1000n * E],
      [900n * E, 905n * E],
      [1000n * E, 1000n * E],
      [800n * E, 790n * E],
    ]);
    const paths = graph.paths(A, B);
    expect(paths.length).toBe(4);
    const percents = allocatePercents(paths, snapshot, 300e18);
    expect(percents.reduce((sum, p) => sum + p, 0)).toBe(100);
    const used = paths
      .filter((_, i) => (percents[i] ?? 0) > 0)
      .flatMap((path) => path.map((hop) => hop.pool));
    expect(new Set(used).size).toBe(used.length);
    expect(used.length).toBe(4); // both disjoint pairings' halves: a real split
  });
});

describe('exact simulation', () => {
  it('matches sequential getAmountOut, shares in order, reserves moved by earlier shares', () => {
    const reserves: [bigint, bigint][] = [
      [1234n * E, 5678n * 10n ** 6n],
      [777n * E, 3000n * 10n ** 6n],
      [50n * E, 90n * E],
      [70n * E, 300n * 10n ** 6n],
    ];
    const { graph, snapshot } = fixture(reserves);
    const [direct0, , twoHop] = graph.paths(A, B);
    // The direct pool appears twice, so the second share sees the first share's trade.
    const shares = [
      { percent: 33, path: direct0 as Path },
      { percent: 34, path: twoHop as Path },
      { percent: 33, path: direct0 as Path },
    ];
    const inAmount = 12_345_678_901_234_567_891n;
    const result = simulateRoute(shares, inAmount, snapshot);
    if (!result.ok) throw new Error(result.reason);

    const s0 = (inAmount * 33n) / 100n;
    const s1 = (inAmount * 34n) / 100n;
    const s2 = inAmount - s0 - s1;
    let [d0, d1] = reserves[0] as [bigint, bigint];
    const out0 = getAmountOut(s0, d0, d1);
    d0 += s0;
    d1 -= out0;
    const mid = getAmountOut(s1, ...(reserves[2] as [bigint, bigint]));
    const out1 = getAmountOut(mid, ...(reserves[3] as [bigint, bigint]));
    const out2 = getAmountOut(s2, d0, d1);
    expect(result.shares.map((share) => share.amountOut)).toEqual([out0, out1, out2]);
    expect(result.outAmount).toBe(out0 + out1 + out2);
    expect(result.shares[1]?.hops.map((hop) => [hop.amountIn, hop.amountOut])).toEqual([
      [s1, mid],
      [mid, out1],
    ]);

    // And the devnet's independent twin of the executor agrees.
    const pools = new Map(
      graph.pools.map((p, i) => [
        p.address,
        {
          token0: p.token0,
          token1: p.token1,
          reserve0: reserves[i]?.[0] ?? 0n,
          reserve1: reserves[i]?.[1] ?? 0n,
        },
      ]),
    );
    const twin = devnetSimulate(
      inAmount,
      shares.map((share) => ({
        percent: share.percent,
        hops: share.path.map((hop) => ({
          pool: graph.pools[hop.pool]?.address ?? '',
          tokenIn: graph.tokenIn(hop),
          tokenOut: graph.tokenOut(hop),
        })),
      })),
      pools,
    );
    expect(twin.outAmount).toBe(result.outAmount);
  });
});

describe('slippage', () => {
  it('reads up to 6 decimals exactly and refuses more', () => {
    expect(scaleSlippage(1)).toBe(1_000_000n);
    expect(scaleSlippage(0.3)).toBe(300_000n);
    expect(scaleSlippage(0.1 + 0.2)).toBeNull(); // 0.30000000000000004
    expect(scaleSlippage(0.123456)).toBe(123_456n);
    expect(scaleSlippage(0.1234567)).toBeNull();
    expect(scaleSlippage(1e-7)).toBeNull();
    expect(scaleSlippage(50)).toBe(50_000_000n);
    expect(scaleSlippage(-1)).toBeNull();
  });

  it('rounds minReceived down, exactly, for whole and fractional percents', () => {
    expect(minReceivedFor(999n, 1_000_000n)).toBe(989n); // 989.01
    expect(minReceivedFor(999n, 500_000n)).toBe(994n); // 994.005
    expect(minReceivedFor(1000n, 500_000n)).toBe(995n);
    expect(minReceivedFor(10n ** 18n, 300_000n)).toBe(997_000_000_000_000_000n);
    expect(minReceivedFor(123_456_789n, 123_456n)).toBe((123_456_789n * 99_876_544n) / 100_000_000n);
    expect(minReceivedFor(7n, 0n)).toBe(7n);
    expect(minReceivedFor(7n, 100_000_000n)).toBe(0n);
  });
});

describe('router ABI', () => {
  it('the compiled artifact has the agreed swap signature', () => {
    const args = [
      A as `0x${string}`,
      B as `0x${string}`,
      5n,
      4n,
      [
        {
          percent: 100,
          hops: [{ pool: H as `0x${string}`, tokenIn: A as `0x${string}`, tokenOut: B as `0x${string}` }],
        },
      ],
      zeroAddress,
      7n,
    ] as const;
    expect(toFunctionSelector(ROUTER_SWAP_ABI[0])).toBe(
      toFunctionSelector(
        'swap(address,address,uint256,uint256,(uint16,(address,address,address)[])[],address,uint256)',
      ),
    );
    expect(encodeFunctionData({ abi: ROUTER_ABI, functionName: 'swap', args })).toBe(
      encodeFunctionData({ abi: ROUTER_SWAP_ABI, functionName: 'swap', args }),
    );
  });
});

describe('bestTakesAll: the split search is skipped only when it could not split', () => {
  // A deep pool, and one a hundred times shallower that pays 1% less.
  const { graph, snapshot } = fixture([
    [1_000_000n * E, 1_000_000n * E],
    [10_000n * E, 9_900n * E],
    [1n * E, 1n * E],
    [1n * E, 1n * E],
  ]);
  const paths = graph.paths(A, B);
  const ranked = (amount: number) =>
    paths
      .map((path) => ({ path, out: pathOutputFloat(path, amount, snapshot) }))
      .sort((a, b) => b.out - a.out);

  it('agrees with the greedy split on both sides of the threshold', () => {
    for (const amount of [1e18, 1e20, 1e21, 1e22, 1e23]) {
      const percents = allocatePercents(paths, snapshot, amount);
      const greedyTakesAll = percents.filter((p) => p > 0).length === 1;
      // Whenever the shortcut says "all to the best", the greedy says so too.
      if (bestTakesAll(ranked(amount), snapshot, amount)) expect(greedyTakesAll).toBe(true);
    }
    expect(bestTakesAll(ranked(1e18), snapshot, 1e18)).toBe(true);
    expect(bestTakesAll(ranked(1e23), snapshot, 1e23)).toBe(false);
    // And the route still splits a large trade.
    const route = routeOverPaths(paths, snapshot, 100_000n * E);
    expect(route.ok && route.shares.length).toBeGreaterThan(1);
  });
});

describe('three hops', () => {
  it('a pair two hops cannot join is routed through two hubs, exactly as the executor would', () => {
    const X = `0x${'1'.repeat(40)}`;
    const Y = `0x${'2'.repeat(40)}`;
    const H2 = `0x${'d'.repeat(40)}`;
    // X trades only against hub H, Y only against hub H2; H and H2 trade with each other.
    const graph = new PoolGraph(
      [pool(1, 'uni', X, H), pool(2, 'uni', H, H2), pool(3, 'sushi', H2, Y)],
      [H, H2],
    );
    const snapshot = makeSnapshot(1n, [
      [1_000n * E, 2_000n * E],
      [5_000n * E, 5_000n * E],
      [3_000n * E, 1_000n * E],
    ]);
    const paths = graph.paths(X, Y);
    expect(paths.map((path) => path.map((hop) => hop.pool))).toEqual([[0, 1, 2]]);
    const route = findBestRoute(graph, snapshot, X, Y, 10n * E);
    if (!route.ok) throw new Error(route.reason);
    const a = getAmountOut(10n * E, 1_000n * E, 2_000n * E);
    const b = getAmountOut(a, 5_000n * E, 5_000n * E);
    expect(route.outAmount).toBe(getAmountOut(b, 3_000n * E, 1_000n * E));
    // Pairs that two hops join keep their paths (no three-hop search for them).
    expect(graph.paths(X, H2).every((path) => path.length <= 2)).toBe(true);
  });
});
