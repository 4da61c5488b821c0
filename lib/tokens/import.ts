// Import by pasted address: a token already in the cached list is used as is; otherwise the
// service's /search says whether it is whitelisted. A token the service does not know is
// returned flagged `whitelisted: false`, so views must show the warning before it can be used.
import { AddressSchema, type Token } from '@/lib/api/schema';

export type TokenMetadata = Pick<Token, 'name' | 'symbol' | 'decimals'>;

export type TokenLookup =
  | { status: 'listed'; token: Token }
  | { status: 'whitelisted'; token: Token }
  | { status: 'not-whitelisted'; token: Token | null }
  | { status: 'invalid-address'; message: string };

export interface TokenLookupDeps {
  /** Finds the token in the cached whitelist of the chain. */
  findListed(chainId: number, address: string): Token | undefined;
  searchToken(chainId: number, address: string): Promise<Token | null>;
  /** Reads name, symbol and decimals from the chain, when an RPC is available. */
  readMetadata?(chainId: number, address: string): Promise<TokenMetadata | null>;
}

export async function lookupToken(
  deps: TokenLookupDeps,
  chainId: number,
  rawAddress: string,
): Promise<TokenLookup> {
  const address = rawAddress.trim();
  const parsed = AddressSchema.safeParse(address);
  if (!parsed.success) {
    return {
      status: 'invalid-address',
      message: 'That is not a token address: paste 0x followed by 40 hexadecimal characters.',
    };
  }
  const listed = deps.findListed(chainId, address);
  if (listed) return { status: 'listed', token: listed };
  const found = await deps.searchToken(chainId, address);
  if (found) return { status: 'whitelisted', token: found };
  const metadata = (await deps.readMetadata?.(chainId, address).catch(() => null)) ?? null;
  return {
    status: 'not-whitelisted',
    token: metadata ? { chainId, address, logoURI: '', ...metadata } : null,
  };
}

/** Logo URLs are loaded only from https:, data:image/, or the configured service's own origin. */
export function safeLogoUrl(logoURI: string, serviceOrigin: string): string | null {
  let url: URL;
  try {
    url = new URL(logoURI);
  } catch {
    return null;
  }
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'data:')
    return /^data:image\/(png|svg\+xml|webp|gif|jpeg);/i.test(logoURI) ? logoURI : null;
  try {
    if (url.origin === new URL(serviceOrigin).origin) return url.href;
  } catch {
    return null;
  }
  return null;
}
