// Which pages the content script runs on, derived from the one host table (lib/chains/hosts.ts) so the
// manifest and the runtime check can't drift apart.
import { chainForExplorerHost, EXPLORER_HOSTS } from '@/lib/chains/hosts';

/** Match patterns: each built-in explorer host, plus `www.` for the Etherscan family (as hosts.ts allows). */
export function explorerMatches(): string[] {
  return EXPLORER_HOSTS.flatMap(({ host, kind }) =>
    kind === 'etherscan' ? [`https://${host}/*`, `https://www.${host}/*`] : [`https://${host}/*`],
  );
}

/**
 * The chain of the explorer page at `location`, or undefined: https only, and the host exactly as
 * chainForExplorerHost matches it (look-alikes fail; `host` carries any port, which never matches).
 */
export function explorerChainOf(location: Pick<Location, 'protocol' | 'host'>): number | undefined {
  return location.protocol === 'https:' ? chainForExplorerHost(location.host) : undefined;
}
