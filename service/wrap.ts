// Native coin <-> its wrapped token (WETH9 deposit/withdraw) as a route: one share of 100%, one
// swap through the WETH contract, out = in. The router does it 1:1 (service/contracts/SwapRouter.sol,
// _wrapOrUnwrap) and checks the hop says exactly that.
import { ReferenceSwapSchema } from '../lib/api/schema';
import type { ChainContext, TokenRecord } from './chains';
import type { BestRouteJson } from './quote-data';

/** The dex name of a wrap/unwrap swap entry. */
export const WRAP_DEX = 'weth';

/** Whether in -> out is wrapping or unwrapping (native and WETH, either way). */
export function isWrap(chain: ChainContext, inToken: TokenRecord, outToken: TokenRecord): boolean {
  const weth = chain.weth.toLowerCase();
  const wrapped = (token: TokenRecord) => (token.native ? weth : token.address.toLowerCase());
  return inToken !== outToken && wrapped(inToken) === wrapped(outToken);
}

export function wrapRoute(
  chain: ChainContext,
  inToken: TokenRecord,
  outToken: TokenRecord,
  amount: bigint,
): BestRouteJson {
  const swap = {
    dex: WRAP_DEX,
    pool: chain.weth,
    tokenIn: inToken.address,
    tokenOut: outToken.address,
    amountIn: amount.toString(),
    amountOut: amount.toString(),
  };
  return [{ percent: 100, swaps: [swap] }];
}

/** Why a quote's route is not this chain's wrap of `amount`, or null when it is exactly that. */
export function wrapRouteProblem(
  chain: ChainContext,
  inToken: TokenRecord,
  outToken: TokenRecord,
  amount: bigint,
  bestRoute: readonly { percent: number; swaps: readonly unknown[] }[],
  outAmount: bigint,
): string | null {
  if (outAmount !== amount) return 'outAmount of a wrap or unwrap must equal inAmount';
  const share = bestRoute[0];
  if (bestRoute.length !== 1 || share?.percent !== 100 || share.swaps.length !== 1) {
    return 'a wrap or unwrap route is one share of 100 percent with one swap';
  }
  const parsed = ReferenceSwapSchema.safeParse(share.swaps[0]);
  if (!parsed.success) return 'bestRoute[0].swaps[0] is not a swap entry';
  const swap = parsed.data;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (
    swap.dex !== WRAP_DEX ||
    !same(swap.pool, chain.weth) ||
    !same(swap.tokenIn, inToken.address) ||
    !same(swap.tokenOut, outToken.address)
  ) {
    return `bestRoute[0].swaps[0] must be the ${WRAP_DEX} contract ${chain.weth} from inToken to outToken`;
  }
  if (swap.amountIn !== amount.toString() || swap.amountOut !== amount.toString()) {
    return 'bestRoute[0].swaps[0] amounts must both equal inAmount';
  }
  return null;
}
