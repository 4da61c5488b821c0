// USD values from the only price source Swaplane has: the swap service. A token's price is what a
// reference amount (one whole token) quotes into the chain's main USD stablecoin. Prices are bigint
// fixed-point (PRICE_DECIMALS) so no money ever goes through a float.
import { sameAddress, type Token } from '@/lib/api/schema';

/** Prices are USD per whole token, scaled by 10^PRICE_DECIMALS. */
export const PRICE_DECIMALS = 8;
const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS);

// Preference order: the most liquid dollar first, so the reference quote moves the price least.
const STABLE_SYMBOLS = ['USDC', 'USDT', 'DAI'];

/** The chain's main USD stablecoin in its token list, or null (then every USD value is unknown). */
export function mainStablecoin<T extends Pick<Token, 'symbol'>>(tokens: readonly T[]): T | null {
  for (const symbol of STABLE_SYMBOLS) {
    const hit = tokens.find((token) => token.symbol.toUpperCase() === symbol);
    if (hit) return hit;
  }
  return null;
}

/** The amount quoted to price a token: one whole token. */
export function referenceAmount(decimals: number): bigint {
  return 10n ** BigInt(decimals);
}

/** USD per whole token from a reference quote of `inAmount` (token units) into `outAmount` (stable units). */
export function priceFromQuote(
  inAmount: bigint,
  inDecimals: number,
  outAmount: bigint,
  stableDecimals: number,
): bigint | null {
  if (inAmount <= 0n || outAmount < 0n) return null;
  return (outAmount * 10n ** BigInt(inDecimals) * PRICE_SCALE) / (inAmount * 10n ** BigInt(stableDecimals));
}

/** The stablecoin prices itself at one dollar (no quote of a token into itself exists). */
export function isStablecoin(token: string, stable: Token | null): boolean {
  return stable !== null && sameAddress(token, stable.address);
}

/** USD value (scaled by 10^PRICE_DECIMALS) of `amount` smallest units, or null when the price is unknown. */
export function usdValue(amount: bigint, decimals: number, price: bigint | null): bigint | null {
  if (price === null) return null;
  return (amount * price) / 10n ** BigInt(decimals);
}

const GROUPS = /\B(?=(\d{3})+(?!\d))/g;

/** "$1,234.56"; "<$0.01" for dust; "—" when unknown. */
export function formatUsd(value: bigint | null): string {
  if (value === null) return '—';
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const cents = (abs * 100n + PRICE_SCALE / 2n) / PRICE_SCALE;
  if (cents === 0n && abs > 0n) return negative ? '-<$0.01' : '<$0.01';
  const whole = (cents / 100n).toString().replace(GROUPS, ',');
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}$${whole}.${fraction}`;
}

/** Parses a price as sent over the protocol (decimal string or null). */
export function priceOf(raw: string | null | undefined): bigint | null {
  return raw === null || raw === undefined ? null : BigInt(raw);
}
