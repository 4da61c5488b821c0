// The long tail: thousands of seeded synthetic tokens per chain, like the unroutable bulk of a
// real token list. Same seed, same tokens: addresses, names, symbols and decimals never change.
import { createHash } from 'node:crypto';
import { type Address, bytesToHex, getAddress, parseUnits } from 'viem';
import type { PoolFixture, TokenFixture } from './fixture-types.ts';
import { poolAmounts } from './liquidity.ts';

export const LONG_TAIL_SEED = 'swaplane-devnet-longtail-v1';
export const LONG_TAIL_COUNT = 2000;
/** Every POOLED_EVERY-th token (from index POOLED_OFFSET) gets a WETH pool: 10 of 2,000. */
const POOLED_EVERY = 200;
const POOLED_OFFSET = 7;
/** The first few pooled tokens are listed on sushiswap too. */
const SUSHI_LISTED = 3;

export interface LongTailToken extends TokenFixture {
  index: number;
  /** Its WETH pools; empty for most tokens. */
  pools: PoolFixture[];
}

// Mostly 18 decimals, like real lists, with the odd ones wallets get wrong.
const DECIMALS = [18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 6, 6, 6, 8, 8, 9, 9, 12, 4, 2, 0];
const SYLLABLES = [
  'ka',
  'zo',
  'ri',
  'mon',
  'tel',
  'va',
  'nex',
  'lu',
  'qua',
  'dor',
  'bi',
  'fen',
  'sol',
  'tra',
  'mi',
  'gar',
  'xo',
  'pel',
  'vin',
  'ra',
  'dex',
  'ly',
  'cor',
  'thu',
  'zen',
  'po',
  'ver',
  'ion',
  'sky',
  'bru',
  'na',
  'os',
  'kel',
  'im',
  'fu',
  'ex',
  'ar',
  'to',
  'quin',
  'zu',
];
const SUFFIXES = [
  '',
  '',
  '',
  ' Token',
  ' Finance',
  ' Protocol',
  ' Network',
  ' Coin',
  ' DAO',
  ' AI',
  ' Labs',
  ' Swap',
];

function digest(...parts: (string | number)[]): Uint8Array {
  return createHash('sha256').update(parts.join(':')).digest();
}

function u32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) * 2 ** 24 +
      ((bytes[at + 1] ?? 0) << 16) +
      ((bytes[at + 2] ?? 0) << 8) +
      (bytes[at + 3] ?? 0)) >>>
    0
  );
}

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

function nameAndSymbol(chainId: number, index: number, attempt: number): { name: string; symbol: string } {
  const r = digest(LONG_TAIL_SEED, 'name', chainId, index, attempt);
  const parts = Array.from({ length: 2 + ((r[0] ?? 0) % 2) }, (_, i) => pick(SYLLABLES, r[1 + i] ?? 0));
  const word = parts.join('');
  const name = `${word.charAt(0).toUpperCase()}${word.slice(1)}${pick(SUFFIXES, r[5] ?? 0)}`;
  const symbol = word.toUpperCase().slice(0, 3 + ((r[6] ?? 0) % 3));
  return { name, symbol };
}

/** `count` tokens for `chainId`; `taken` holds lower-cased addresses and symbols already in use. */
export function generateLongTail(
  chainId: number,
  weth: Pick<TokenFixture, 'address' | 'decimals' | 'priceMicroUsd'>,
  taken: ReadonlySet<string>,
  count = LONG_TAIL_COUNT,
): LongTailToken[] {
  const used = new Set(taken);
  const tokens: LongTailToken[] = [];
  for (let index = 0; index < count; index++) {
    let address: Address;
    let attempt = 0;
    do {
      address = getAddress(
        bytesToHex(digest(LONG_TAIL_SEED, 'address', chainId, index, attempt++).subarray(0, 20)),
      );
    } while (used.has(address.toLowerCase()));
    used.add(address.toLowerCase());

    // Unique symbols keep search results and test assertions unambiguous.
    let meta = nameAndSymbol(chainId, index, 0);
    for (attempt = 1; used.has(`symbol:${meta.symbol}`); attempt++)
      meta = nameAndSymbol(chainId, index, attempt);
    used.add(`symbol:${meta.symbol}`);

    const r = digest(LONG_TAIL_SEED, 'economics', chainId, index);
    const decimals = pick(DECIMALS, r[0] ?? 0);
    const pooled = index % POOLED_EVERY === POOLED_OFFSET;
    const token: LongTailToken = {
      index,
      address,
      ...meta,
      decimals,
      kind: 'erc20',
      // 0.001 to 20 USD
      priceMicroUsd: 1000n * BigInt(1 + (u32(r, 1) % 20_000)),
      fundAmount: pooled ? parseUnits('100000', decimals) : 0n,
      pools: [],
    };
    if (pooled) {
      const depthUsd = BigInt(50_000 + (u32(r, 5) % 450_000));
      const uniswap = poolAmounts(token, weth, depthUsd);
      token.pools.push({ dex: 'uniswap-v2', tokenA: address, tokenB: weth.address, ...uniswap });
      if (Math.floor(index / POOLED_EVERY) < SUSHI_LISTED) {
        const sushi = poolAmounts(token, weth, (depthUsd * 40n) / 100n, 30);
        token.pools.push({ dex: 'sushiswap', tokenA: address, tokenB: weth.address, ...sushi });
      }
    }
    tokens.push(token);
  }
  return tokens;
}
