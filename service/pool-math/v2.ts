// Off-chain twin of the on-chain swap math (SwapExecutor): same V2 formula, same share rule.
// Pure functions on bigint; the reference service prices quotes with them, so a quote executed
// with no trade in between delivers exactly what these functions predict.

/** UniswapV2Library.getAmountOut: 0.3% fee, floor division; 0 when a reserve is empty. */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn < 0n || reserveIn < 0n || reserveOut < 0n) throw new RangeError('amounts cannot be negative');
  const amountInWithFee = amountIn * 997n;
  const denominator = reserveIn * 1000n + amountInWithFee;
  return denominator === 0n ? 0n : (amountInWithFee * reserveOut) / denominator;
}

/**
 * The router's share rule: share i gets floor(inAmount * percent_i / 100), the last share gets
 * what is left, so the amounts add up to inAmount exactly. Percents must be integers in 1..100
 * summing to 100 (the contract reverts otherwise).
 */
export function splitAmounts(inAmount: bigint, percents: readonly number[]): bigint[] {
  if (inAmount < 0n) throw new RangeError('inAmount cannot be negative');
  if (percents.length === 0) throw new RangeError('a route needs at least one share');
  let total = 0;
  for (const percent of percents) {
    if (!Number.isInteger(percent) || percent < 1 || percent > 100) {
      throw new RangeError(`share percent must be an integer in 1..100, got ${percent}`);
    }
    total += percent;
  }
  if (total !== 100) throw new RangeError(`share percents must sum to 100, got ${total}`);

  let left = inAmount;
  return percents.map((percent, i) => {
    const amount = i === percents.length - 1 ? left : (inAmount * BigInt(percent)) / 100n;
    left -= amount;
    return amount;
  });
}

export interface PoolReserves {
  token0: string;
  token1: string;
  reserve0: bigint;
  reserve1: bigint;
}

export interface RouteHop {
  pool: string;
  tokenIn: string;
  tokenOut: string;
}

export interface RouteShare {
  percent: number;
  hops: readonly RouteHop[];
}

export interface RouteSimulation {
  outAmount: bigint;
  /** Output of each share, in route order. */
  shareOutputs: bigint[];
  /** Reserves after the swap, keyed by lower-cased pool address (input map is not modified). */
  reserves: Map<string, PoolReserves>;
}

/**
 * Runs a route the way the executor does: shares in order, hops in order, each hop priced from
 * reserves already moved by earlier hops (two shares through one pool see each other's trade).
 * `pools` is keyed by lower-cased pool address. Throws where the contract would revert.
 */
export function simulateRoute(
  inAmount: bigint,
  route: readonly RouteShare[],
  pools: ReadonlyMap<string, PoolReserves>,
): RouteSimulation {
  const reserves = new Map(pools);
  const amounts = splitAmounts(
    inAmount,
    route.map((share) => share.percent),
  );
  const shareOutputs = route.map((share, i) => {
    let amount = amounts[i] ?? 0n;
    if (amount === 0n) throw new RangeError(`share ${i} gets no input`);
    if (share.hops.length === 0) throw new RangeError(`share ${i} has no hops`);
    share.hops.forEach((hop, j) => {
      const previous = share.hops[j - 1];
      if (previous && !sameAddress(previous.tokenOut, hop.tokenIn)) {
        throw new RangeError(`share ${i}: hop ${j} does not start where hop ${j - 1} ends`);
      }
      const key = hop.pool.toLowerCase();
      const pool = reserves.get(key);
      if (!pool) throw new RangeError(`unknown pool ${hop.pool}`);
      const zeroForOne = sameAddress(hop.tokenIn, pool.token0) && sameAddress(hop.tokenOut, pool.token1);
      if (!zeroForOne && !(sameAddress(hop.tokenIn, pool.token1) && sameAddress(hop.tokenOut, pool.token0))) {
        throw new RangeError(`pool ${hop.pool} does not trade ${hop.tokenIn} for ${hop.tokenOut}`);
      }
      const [reserveIn, reserveOut] = zeroForOne
        ? [pool.reserve0, pool.reserve1]
        : [pool.reserve1, pool.reserve0];
      const out = getAmountOut(amount, reserveIn, reserveOut);
      if (out === 0n) throw new RangeError(`pool ${hop.pool} gives no output`);
      reserves.set(
        key,
        zeroForOne
          ? { ...pool, reserve0: pool.reserve0 + amount, reserve1: pool.reserve1 - out }
          : { ...pool, reserve0: pool.reserve0 - out, reserve1: pool.reserve1 + amount },
      );
      amount = out;
    });
    return amount;
  });
  return { outAmount: shareOutputs.reduce((sum, out) => sum + out, 0n), shareOutputs, reserves };
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
