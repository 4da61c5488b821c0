// Explorer host -> chain. Imported by the content script, so it must stay tiny and import nothing
// (no viem, no zod); the chain registry in ./index.ts builds its explorer list from this table.

export type ExplorerKind = 'etherscan' | 'blockscout' | 'routescan';

export interface ExplorerHost {
  readonly chainId: number;
  readonly kind: ExplorerKind;
  /** Lowercase hostname, no trailing dot. */
  readonly host: string;
}

/** Known explorers; within a chain the first entry is the primary one (used for links). */
export const EXPLORER_HOSTS: readonly ExplorerHost[] = Object.freeze([
  { chainId: 1, kind: 'etherscan', host: 'etherscan.io' },
  { chainId: 1, kind: 'blockscout', host: 'eth.blockscout.com' },
  { chainId: 56, kind: 'etherscan', host: 'bscscan.com' },
  { chainId: 137, kind: 'etherscan', host: 'polygonscan.com' },
  { chainId: 42161, kind: 'etherscan', host: 'arbiscan.io' },
  { chainId: 10, kind: 'etherscan', host: 'optimistic.etherscan.io' },
  { chainId: 10, kind: 'blockscout', host: 'optimism.blockscout.com' },
  { chainId: 8453, kind: 'etherscan', host: 'basescan.org' },
  { chainId: 8453, kind: 'blockscout', host: 'base.blockscout.com' },
  { chainId: 43114, kind: 'etherscan', host: 'snowscan.xyz' },
  // Snowtrace is now built by Routescan (a single-page app; `www.` redirects to the bare host).
  { chainId: 43114, kind: 'routescan', host: 'snowtrace.io' },
  { chainId: 42161, kind: 'blockscout', host: 'arbitrum.blockscout.com' },
  { chainId: 137, kind: 'blockscout', host: 'polygon.blockscout.com' },
  { chainId: 250, kind: 'etherscan', host: 'ftmscan.com' },
  // Chains outside the swap registry (lib/chains/index.ts): their pages get controls whose card says
  // whether the swap service serves the chain. Etherscan-built first, then Blockscout instances.
  { chainId: 1284, kind: 'etherscan', host: 'moonscan.io' },
  { chainId: 1285, kind: 'etherscan', host: 'moonriver.moonscan.io' },
  { chainId: 25, kind: 'etherscan', host: 'cronoscan.com' },
  { chainId: 59144, kind: 'etherscan', host: 'lineascan.build' },
  { chainId: 534352, kind: 'etherscan', host: 'scrollscan.com' },
  { chainId: 100, kind: 'etherscan', host: 'gnosisscan.io' },
  { chainId: 42220, kind: 'etherscan', host: 'celoscan.io' },
  { chainId: 81457, kind: 'etherscan', host: 'blastscan.io' },
  { chainId: 146, kind: 'etherscan', host: 'sonicscan.org' },
  { chainId: 5000, kind: 'etherscan', host: 'mantlescan.xyz' },
  { chainId: 167000, kind: 'etherscan', host: 'taikoscan.io' },
  // Linked from the Etherscan family's "Multichain Portfolio" tables.
  { chainId: 480, kind: 'etherscan', host: 'worldscan.org' },
  { chainId: 130, kind: 'etherscan', host: 'uniscan.xyz' },
  { chainId: 2741, kind: 'etherscan', host: 'abscan.org' },
  { chainId: 1329, kind: 'etherscan', host: 'seiscan.io' },
  { chainId: 999, kind: 'etherscan', host: 'hyperevmscan.io' },
  { chainId: 143, kind: 'etherscan', host: 'monadscan.com' },
  { chainId: 100, kind: 'blockscout', host: 'gnosis.blockscout.com' },
  { chainId: 42220, kind: 'blockscout', host: 'celo.blockscout.com' },
  { chainId: 534352, kind: 'blockscout', host: 'scroll.blockscout.com' },
]);

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
