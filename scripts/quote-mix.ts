// The quote requests the load runs send: not one body over and over (the per-block answer cache
// would then serve every request, and the run would measure the cache), but a mix of pairs and
// amounts on the devnet's Ethereum replica, the way many wallets asking at once would look. Each pair
// has four amounts people type (repeated, so answered from the cache after their first request in
// a block) and one amount never asked before (a route search on every request): 1 request in 5 is
// new. The all-miss mix sends only never-asked amounts, so every request is a route search.
import type { ServiceManifest } from '../service/manifest';
import { UNIQUE_MARK } from './load-generator.ts';

const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

/** [in, out] by symbol; ETH is the native coin. Direct, two-hop, native and stable pairs. */
const PAIRS: readonly [string, string][] = [
  ['WETH', 'USDC'],
  ['USDC', 'WETH'],
  ['ETH', 'USDC'],
  ['WETH', 'USDT'],
  ['USDC', 'DAI'],
  ['WBTC', 'WETH'],
  ['LINK', 'WETH'],
  ['UNI', 'USDC'],
];

/** Amounts in whole units people would type, by input symbol. */
const AMOUNTS: Record<string, readonly string[]> = {
  ETH: ['0.1', '1', '5', '25'],
  WETH: ['0.1', '1', '5', '25'],
  USDC: ['100', '1000', '5000', '20000'],
  USDT: ['100', '1000', '5000', '20000'],
  DAI: ['100', '1000', '5000', '20000'],
  WBTC: ['0.01', '0.1', '0.5', '2'],
  LINK: ['10', '100', '500', '2000'],
  UNI: ['10', '100', '500', '2000'],
};

const SLIPPAGES = [0.5, 1, 0.5, 0.3];

export interface QuoteMix {
  /** The bodies the generator sends in turn; those with UNIQUE_MARK are new on every request. */
  bodies: string[];
  /** Share of requests whose body is never repeated. */
  uniqueShare: number;
  describe: string;
}

function wei(amount: string, decimals: number): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(`${whole}${fraction.padEnd(decimals, '0').slice(0, decimals)}`).toString();
}

/** A never-repeated amount near one unit: "1" and a 9-digit counter, scaled by the decimals. */
function uniqueWei(decimals: number): string {
  return `1${UNIQUE_MARK}${'0'.repeat(Math.max(0, decimals - 9))}`;
}

export function quoteMixes(manifest: ServiceManifest): { repeated: QuoteMix; allMiss: QuoteMix } {
  const chain = manifest.chains.find((c) => c.chainName === 'ethereum');
  if (!chain) throw new Error('the quote mix needs the ethereum replica');
  const token = (symbol: string) => {
    if (symbol === 'ETH') return { address: NATIVE, decimals: 18 };
    const found = chain.tokens.find((t) => t.symbol === symbol);
    if (!found) throw new Error(`the quote mix names ${symbol}, not on the ethereum replica`);
    return found;
  };
  const body = (inSymbol: string, outSymbol: string, inAmount: string, slippage: number) =>
    JSON.stringify({
      chainId: chain.chainId,
      inToken: token(inSymbol).address,
      outToken: token(outSymbol).address,
      inAmount,
      slippage,
    });
  const repeated: string[] = [];
  const allMiss: string[] = [];
  for (const [inSymbol, outSymbol] of PAIRS) {
    const decimals = token(inSymbol).decimals;
    (AMOUNTS[inSymbol] ?? []).forEach((amount, i) => {
      repeated.push(body(inSymbol, outSymbol, wei(amount, decimals), SLIPPAGES[i] ?? 0.5));
    });
    const fresh = body(inSymbol, outSymbol, uniqueWei(decimals), 0.5);
    repeated.push(fresh);
    allMiss.push(fresh);
  }
  const uniqueShare = allMiss.length / repeated.length;
  return {
    repeated: {
      bodies: repeated,
      uniqueShare,
      describe: `${PAIRS.length} pairs x 4 repeated amounts + 1 new amount per pair (${Math.round(uniqueShare * 100)}% new)`,
    },
    allMiss: { bodies: allMiss, uniqueShare: 1, describe: `${PAIRS.length} pairs, every amount new` },
  };
}
