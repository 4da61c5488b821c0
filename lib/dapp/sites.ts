// Connected sites: which origin may see which accounts, and on which chain it is. Pure; the
// background keeps the list in one storage item (lib/storage/items.ts, `connectedSitesItem`).
// The chain is per origin (as in MetaMask since 2024): a dapp switching chains never moves the
// popup or another site.
import type { ConnectedSite } from '@/lib/state/dapp';

export type { ConnectedSite };

/** The origin of a sender URL, or null for anything that is not a plain http(s) page. */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

export function siteFor(sites: readonly ConnectedSite[], origin: string): ConnectedSite | undefined {
  return sites.find((site) => site.origin === origin);
}

/** Accounts the page may see: none for an unconnected site or a locked wallet. */
export function permittedAccounts(
  sites: readonly ConnectedSite[],
  origin: string,
  unlocked: boolean,
): string[] {
  if (!unlocked) return [];
  return [...(siteFor(sites, origin)?.accounts ?? [])];
}

export function connectSite(
  sites: readonly ConnectedSite[],
  origin: string,
  accounts: readonly string[],
  chainId: number,
  now: number,
): ConnectedSite[] {
  const existing = siteFor(sites, origin);
  const next: ConnectedSite = {
    origin,
    accounts: [...accounts],
    chainId: existing?.chainId ?? chainId,
    connectedAt: existing?.connectedAt ?? now,
  };
  return [...sites.filter((site) => site.origin !== origin), next];
}

export function disconnectSite(sites: readonly ConnectedSite[], origin: string): ConnectedSite[] {
  return sites.filter((site) => site.origin !== origin);
}

/** Chains of sites that never connected live in memory only (lost with the worker: harmless). */
export function withChain(sites: readonly ConnectedSite[], origin: string, chainId: number): ConnectedSite[] {
  return sites.map((site) => (site.origin === origin ? { ...site, chainId } : site));
}

/** `0x`-prefixed hex chain id (EIP-695) from a number. */
export const hexChainId = (chainId: number) => `0x${chainId.toString(16)}`;

/** A chain id a page sent: 0x-hex without leading zeros (EIP-695), as a number; null if malformed. */
export function parseHexChainId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^0x[1-9a-f][0-9a-f]{0,12}$/i.test(value)) return null;
  const id = Number.parseInt(value, 16);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
