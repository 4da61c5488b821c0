// The pool graph of one chain: which pools join which tokens, and the candidate paths of a pair
// (every direct pool, and every two-hop path through a hub, each hop on any dex).
// Paths are built once per pair and kept, so a quote only walks a short precomputed list.

export interface PoolInfo {
  /** Index into the chain's pool list and into every reserve snapshot. */
  readonly index: number;
  readonly dex: string;
  /** Lowercase addresses: the graph compares by key, responses checksum on the way out. */
  readonly address: string;
  readonly token0: string;
  readonly token1: string;
  /** Uniswap V3 pools: the fee tier in hundredths of a basis point; undefined for V2 pairs. */
  readonly fee?: number | undefined;
}

export interface Hop {
  readonly pool: number;
  /** True when the hop sells token0 for token1. */
  readonly zeroForOne: boolean;
}

export type Path = readonly Hop[];

const MAX_CACHED_PAIRS = 4096;

export class PoolGraph {
  readonly pools: readonly PoolInfo[];
  readonly hubs: readonly string[];
  private readonly byPair = new Map<string, number[]>();
  private readonly byAddress = new Map<string, PoolInfo>();
  private readonly tokens = new Set<string>();
  private readonly pathCache = new Map<string, readonly Path[]>();

  constructor(
    pools: readonly {
      dex: string;
      address: string;
      token0: string;
      token1: string;
      fee?: number | undefined;
    }[],
    hubs: readonly string[],
  ) {
    this.pools = pools.map((pool, index) => ({
      index,
      dex: pool.dex,
      address: pool.address.toLowerCase(),
      token0: pool.token0.toLowerCase(),
      token1: pool.token1.toLowerCase(),
      fee: pool.fee,
    }));
    this.hubs = [...new Set(hubs.map((hub) => hub.toLowerCase()))];
    for (const pool of this.pools) {
      this.byAddress.set(pool.address, pool);
      this.tokens.add(pool.token0).add(pool.token1);
      const key = pairKey(pool.token0, pool.token1);
      const list = this.byPair.get(key);
      if (list) list.push(pool.index);
      else this.byPair.set(key, [pool.index]);
    }
  }

  pool(address: string): PoolInfo | undefined {
    return this.byAddress.get(address.toLowerCase());
  }

  /** Pools joining two tokens (any order), by index. */
  poolsBetween(a: string, b: string): readonly number[] {
    return this.byPair.get(pairKey(a.toLowerCase(), b.toLowerCase())) ?? [];
  }

  hasToken(token: string): boolean {
    return this.tokens.has(token.toLowerCase());
  }

  /**
   * Direct paths first, then two-hop paths through each hub; tokens are lowercase. A pair that
   * neither reaches gets three-hop paths through two hubs (a token pooled only against one hub
   * to a token pooled only against another): reach without growing every pair's search.
   */
  paths(tokenIn: string, tokenOut: string): readonly Path[] {
    const a = tokenIn.toLowerCase();
    const b = tokenOut.toLowerCase();
    const key = `${a}>${b}`;
    const cached = this.pathCache.get(key);
    if (cached) return cached;
    const paths: Path[] = [];
    if (a !== b) {
      for (const pool of this.poolsBetween(a, b)) paths.push([this.hop(pool, a)]);
      for (const hub of this.hubs) {
        if (hub === a || hub === b) continue;
        for (const first of this.poolsBetween(a, hub)) {
          for (const second of this.poolsBetween(hub, b)) {
            paths.push([this.hop(first, a), this.hop(second, hub)]);
          }
        }
      }
    }
    if (paths.length === 0 && a !== b) paths.push(...this.threeHopPaths(a, b));
    // A tiny bound keeps a flood of distinct pairs from growing memory without limit.
    if (this.pathCache.size >= MAX_CACHED_PAIRS) this.pathCache.clear();
    this.pathCache.set(key, paths);
    return paths;
  }

  private threeHopPaths(a: string, b: string): Path[] {
    const paths: Path[] = [];
    for (const first of this.hubs) {
      for (const second of this.hubs) {
        if (first === second || first === a || first === b || second === a || second === b) continue;
        for (const x of this.poolsBetween(a, first)) {
          for (const y of this.poolsBetween(first, second)) {
            for (const z of this.poolsBetween(second, b)) {
              paths.push([this.hop(x, a), this.hop(y, first), this.hop(z, second)]);
            }
          }
        }
      }
    }
    return paths;
  }

  private hop(poolIndex: number, tokenIn: string): Hop {
    const pool = this.pools[poolIndex];
    if (!pool) throw new Error(`pool ${poolIndex} out of range`);
    return { pool: poolIndex, zeroForOne: pool.token0 === tokenIn };
  }

  tokenIn(hop: Hop): string {
    const pool = this.pools[hop.pool];
    if (!pool) throw new Error(`pool ${hop.pool} out of range`);
    return hop.zeroForOne ? pool.token0 : pool.token1;
  }

  tokenOut(hop: Hop): string {
    const pool = this.pools[hop.pool];
    if (!pool) throw new Error(`pool ${hop.pool} out of range`);
    return hop.zeroForOne ? pool.token1 : pool.token0;
  }
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}
