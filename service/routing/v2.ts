// Uniswap V2 arithmetic. The bigint functions live in service/pool-math/v2.ts (the off-chain
// twin of the executor, shared with the devnet), so quotes and the contracts share one formula; the float
// twin only steers the optimizer's search and never prices anything sent on chain.
export { getAmountOut, splitAmounts } from '../pool-math/v2';

/** Reserves are uint112 on the pair: a swap pushing a reserve past this reverts (UniswapV2: OVERFLOW). */
export const MAX_RESERVE = (1n << 112n) - 1n;

export function getAmountOutFloat(amountIn: number, reserveIn: number, reserveOut: number): number {
  if (amountIn <= 0 || reserveIn <= 0 || reserveOut <= 0) return 0;
  const withFee = amountIn * 997;
  return (withFee * reserveOut) / (reserveIn * 1000 + withFee);
}
