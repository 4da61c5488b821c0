// Explorer host -> chain. Imported by the content script, so it must stay tiny and import nothing
// (no viem, no zod); the chain registry in ./index.ts builds its explorer list from this table.

export type ExplorerKind = 'etherscan' | 'blockscout' | 'routescan';

export interface ExplorerHost {
  readonly chainId: number;
  readonly kind: ExplorerKind;
  /** Lowercase hostname, no trailing dot. */
  readonly host: string;
}

/**
 * Known explorers, one per line: chain id, kind, host. Within a chain the first entry is the primary
 * one (used for links). A text table rather than object literals: the content script carries it and
 * has an 8 kB gzip budget.
 */
const TABLE = `
1 etherscan etherscan.io
1 blockscout eth.blockscout.com
56 etherscan bscscan.com
137 etherscan polygonscan.com
42161 etherscan arbiscan.io
10 etherscan optimistic.etherscan.io
10 blockscout optimism.blockscout.com
8453 etherscan basescan.org
8453 blockscout base.blockscout.com
43114 etherscan snowscan.xyz
43114 routescan snowtrace.io
42161 blockscout arbitrum.blockscout.com
137 blockscout polygon.blockscout.com
250 etherscan ftmscan.com
1284 etherscan moonscan.io
1285 etherscan moonriver.moonscan.io
25 etherscan cronoscan.com
59144 etherscan lineascan.build
534352 etherscan scrollscan.com
100 etherscan gnosisscan.io
42220 etherscan celoscan.io
81457 etherscan blastscan.io
146 etherscan sonicscan.org
5000 etherscan mantlescan.xyz
167000 etherscan taikoscan.io
480 etherscan worldscan.org
130 etherscan uniscan.xyz
2741 etherscan abscan.org
1329 etherscan seiscan.io
999 etherscan hyperevmscan.io
143 etherscan monadscan.com
100 blockscout gnosis.blockscout.com
42220 blockscout celo.blockscout.com
534352 blockscout scroll.blockscout.com`;
// Notes on the table: Snowtrace (43114) is now built by Routescan (a single-page app; `www.` redirects
// to the bare host). From moonscan.io on, the chains are outside the swap registry (lib/chains/index.ts):
// their pages get controls whose card says whether the swap service serves the chain; worldscan.org
// to monadscan.com are linked from the Etherscan family's "Multichain Portfolio" tables.

export const EXPLORER_HOSTS: readonly ExplorerHost[] = Object.freeze(
  TABLE.trim()
    .split('\n')
    .map((line) => {
      const [chainId, kind, host] = line.split(' ') as [string, ExplorerKind, string];
      return Object.freeze({ chainId: Number(chainId), kind, host });
    }),
);

/**
 * routescan.io serves every chain from one host: the chain is the page's (`?chainid=` / `?chainId=`)
 * or a mainnet subdomain's (`avalanche.routescan.io`, `43114.routescan.io`). Only chains with an
 * explorer above count; testnet subdomains never match.
 */
export const ROUTESCAN_HOST = 'routescan.io';
const ROUTESCAN_NAMES: Readonly<Record<string, number>> = {
  ethereum: 1,
  avalanche: 43114,
  optimism: 10,
  base: 8453,
  arbitrum: 42161,
  bsc: 56,
  polygon: 137,
};

/** The chain of a routescan.io page, or undefined (another host, a testnet, no single chain). */
export function chainForRoutescan(hostname: string, search: string): number | undefined {
  const host = normalizeHostname(hostname);
  if (host === undefined) return undefined;
  let chain: number | undefined;
  if (host !== ROUTESCAN_HOST) {
    const label = host.endsWith(`.${ROUTESCAN_HOST}`) ? host.slice(0, -ROUTESCAN_HOST.length - 1) : '';
    if (!/^[a-z0-9-]+$/.test(label)) return undefined; // one label only: `x.testnet.routescan.io` fails
    chain = /^\d{1,10}$/.test(label) ? Number(label) : ROUTESCAN_NAMES[label];
  }
  const params = new URLSearchParams(search);
  const asked = params.get('chainid') ?? params.get('chainId');
  if (asked !== null) {
    if (!/^\d{1,10}$/.test(asked) || (chain !== undefined && Number(asked) !== chain)) return undefined;
    chain = Number(asked);
  }
  return chain !== undefined && EXPLORER_HOSTS.some((entry) => entry.chainId === chain) ? chain : undefined;
}

/** Explorer hosts of one chain, primary first. */
export function explorerHostsFor(chainId: number): ExplorerHost[] {
  return EXPLORER_HOSTS.filter((entry) => entry.chainId === chainId);
}

// One DNS label: letters, digits, inner hyphens, at most 63 characters.
const LABEL_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Canonical form of a hostname (as in `location.hostname`), or undefined when it is not one.
 * ASCII letters are lowercased and one trailing dot (the fully qualified form) is dropped. Anything
 * else is refused rather than repaired: non-ASCII (browsers hand us punycode, and lowercasing
 * Unicode can fold look-alikes such as the Kelvin sign into ASCII), ports, paths, schemes,
 * whitespace, empty labels.
 */
export function normalizeHostname(hostname: unknown): string | undefined {
  if (typeof hostname !== 'string' || hostname.length === 0 || hostname.length > 254) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point, ASCII only.
  if (!/^[\x00-\x7f]+$/.test(hostname)) return undefined;
  const lower = hostname.toLowerCase();
  const bare = lower.endsWith('.') ? lower.slice(0, -1) : lower;
  const labels = bare.split('.');
  if (!labels.every((label) => LABEL_RE.test(label))) return undefined;
  return bare;
}

/**
 * The chain whose explorer serves `hostname`, or undefined.
 *
 * Matching is exact on the normalised host, plus `www.` in front of an Etherscan-family host.
 * Other subdomains never match: `sepolia.etherscan.io` or `goerli.etherscan.io` are other chains
 * (and `optimistic.etherscan.io` is chain 10, from its own entry), and blockscout subdomains each
 * name a different chain. Look-alikes (`etherscan.io.evil.com`, `evil-etherscan.io`, `etherscam.io`,
 * `xn--...` homographs) fail because nothing but an exact label-for-label match is accepted.
 *
 * `extraHosts` (hostname -> chainId, e.g. a devnet explorer from settings) match exactly after the
 * same normalisation; built-in hosts win over them, so a setting cannot re-point etherscan.io.
 */
export function chainForExplorerHost(
  hostname: string,
  extraHosts?: Readonly<Record<string, number>>,
): number | undefined {
  const host = normalizeHostname(hostname);
  if (host === undefined) return undefined;
  const withoutWww = host.startsWith('www.') ? host.slice(4) : undefined;
  for (const entry of EXPLORER_HOSTS) {
    if (entry.host === host) return entry.chainId;
    if (entry.kind === 'etherscan' && entry.host === withoutWww) return entry.chainId;
  }
  if (extraHosts) {
    for (const [extraHost, chainId] of Object.entries(extraHosts)) {
      if (normalizeHostname(extraHost) === host && Number.isSafeInteger(chainId) && chainId > 0) {
        return chainId;
      }
    }
  }
  return undefined;
}
