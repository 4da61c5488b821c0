// Which pages the content script runs on, derived from the one host table (lib/chains/hosts.ts) so the
// manifest and the runtime check can't drift apart.
import { chainForExplorerHost, chainForRoutescan, EXPLORER_HOSTS, ROUTESCAN_HOST } from '@/lib/chains/hosts';

/** Match patterns: each built-in explorer host, plus `www.` for the Etherscan family (as hosts.ts allows). */
export function explorerMatches(): string[] {
  return [
    ...EXPLORER_HOSTS.flatMap(({ host, kind }) =>
      kind === 'etherscan' ? [`https://${host}/*`, `https://www.${host}/*`] : [`https://${host}/*`],
    ),
    `https://${ROUTESCAN_HOST}/*`,
    `https://*.${ROUTESCAN_HOST}/*`,
  ];
}

/**
 * The chain of the explorer page at `location`, or undefined: https only, and the host exactly as
 * chainForExplorerHost matches it (look-alikes fail; `host` carries any port, which never matches).
 */
export function explorerChainOf(
  location: Pick<Location, 'protocol' | 'host' | 'search'>,
): number | undefined {
  if (location.protocol !== 'https:') return undefined;
  return chainForExplorerHost(location.host) ?? chainForRoutescan(location.host, location.search);
}
