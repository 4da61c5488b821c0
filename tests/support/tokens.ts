import { NATIVE_TOKEN_ADDRESS, type Token } from '@/lib/api/schema';
import { USDC } from './addresses';

/** A token on Ethereum as the token list gives it, without a logo. */
function listedToken(address: string, symbol: string, name: string, decimals: number): Token {
  return { chainId: 1, address, name, symbol, decimals, logoURI: '' };
}

/** Ether and USDC on Ethereum as the token list gives them (no logo). */
export const ETHER_TOKEN = listedToken(NATIVE_TOKEN_ADDRESS, 'ETH', 'Ether', 18);
export const USDC_TOKEN = listedToken(USDC, 'USDC', 'USD Coin', 6);
/** USDC as the service's token search gives it, with a logo (the unit tests' fake service). */
export const USDC_LISTED: Token = { ...USDC_TOKEN, logoURI: 'https://example.invalid/usdc.png' };

/** A deterministic list of `count` tokens (seeded), for list-size code paths. */
export function syntheticTokens(count: number, chainId = 1): Token[] {
  const tokens: Token[] = [];
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const words = [
    'Wrapped',
    'Staked',
    'Liquid',
    'Protocol',
    'Finance',
    'Dollar',
    'Token',
    'Coin',
    'Yield',
    'Governance',
  ];
  for (let i = 0; i < count; i++) {
    const symbolLength = 3 + (next() % 3);
    let symbol = '';
    for (let j = 0; j < symbolLength; j++) symbol += letters[next() % letters.length];
    const name = `${words[next() % words.length]} ${symbol} ${words[next() % words.length]}`;
    const address = `0x${(BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, '0').slice(-40)}`;
    tokens.push({
      chainId,
      address,
      name,
      symbol,
      decimals: [6, 8, 9, 18][next() % 4] as number,
      logoURI: '',
    });
  }
  return tokens;
}

/**
 * Token facts as a chain would answer them, for unit tests that run the background without a
 * chain: decimals and symbols of `tokens` (the integration and e2e tests read the real devnet).
 */
export function chainFactsOf(tokens: readonly Token[]): import('@/lib/tokens/facts').TokenFactsReader {
  return {
    async read(_chainId, addresses) {
      const out = new Map<string, { decimals: number; symbol: string }>();
      for (const address of addresses) {
        const token = tokens.find((t) => t.address.toLowerCase() === address.toLowerCase());
        if (token) out.set(address.toLowerCase(), { decimals: token.decimals, symbol: token.symbol });
      }
      return out;
    },
  };
}
