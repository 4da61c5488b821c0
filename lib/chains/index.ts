// Chain registry: chainId <-> API chain_name <-> viem chain <-> explorers <-> default RPC.
// Host matching lives in ./hosts.ts (for the content script); this module builds on it. Neither
// imports viem's chain objects, which views do not need: ./viem.ts maps ids to them for the background.
import type { Address } from 'viem';
import { type ExplorerKind, explorerHostsFor } from './hosts';

export {
  chainForExplorerHost,
  EXPLORER_HOSTS,
  type ExplorerHost,
  type ExplorerKind,
  explorerHostsFor,
  normalizeHostname,
} from './hosts';
export { isLocalRpcUrl } from './rpc';

export interface Explorer {
  readonly kind: ExplorerKind;
  readonly host: string;
  /** `https://<host>`, no trailing slash. */
  readonly baseUrl: string;
}

export interface ChainInfo {
  readonly chainId: number;
  /** Display name. */
  readonly name: string;
  /** Default `chain_name` for the Swap Routing Service; settings may override it (see apiChainNameFor). */
  readonly apiChainName: string;
  readonly nativeSymbol: string;
  readonly nativeName: string;
  readonly nativeDecimals: number;
  /** Primary first: the one used for links. */
  readonly explorers: readonly Explorer[];
  /** A well-known public endpoint; the devnet preset and settings override it. */
  readonly defaultRpcUrl: string;
  /** The chain's canonical wrapped native token (EIP-55). */
  readonly wrappedNative: Address;
}

export type ApiChainNameOverrides = Readonly<Partial<Record<number, string>>>;

/** Thrown by `requireChain` for a chain id outside the registry. */
export class UnknownChainError extends Error {
  override readonly name = 'UnknownChainError';
  readonly code = 'UNKNOWN_CHAIN';
  readonly chainId: number;
  constructor(chainId: number) {
    super(`Unknown chain id ${String(chainId)}: Swaplane supports ${SUPPORTED_CHAIN_IDS.join(', ')}.`);
    this.chainId = chainId;
  }
}

type ChainSeed = Omit<ChainInfo, 'explorers' | 'nativeDecimals'>;

function defineChain(seed: ChainSeed): ChainInfo {
  const explorers = explorerHostsFor(seed.chainId).map(({ kind, host }) =>
    Object.freeze({ kind, host, baseUrl: `https://${host}` }),
  );
  return Object.freeze({ ...seed, nativeDecimals: 18, explorers: Object.freeze(explorers) });
}

export const CHAINS: readonly ChainInfo[] = Object.freeze([
  defineChain({
    chainId: 1,
    name: 'Ethereum',
    apiChainName: 'ethereum',
    nativeSymbol: 'ETH',
    nativeName: 'Ether',
    defaultRpcUrl: 'https://eth.llamarpc.com',
    wrappedNative: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  }),
  defineChain({
    chainId: 56,
    name: 'BNB Chain',
    apiChainName: 'bsc',
    nativeSymbol: 'BNB',
    nativeName: 'BNB',
    defaultRpcUrl: 'https://bsc-dataseed.bnbchain.org',
    wrappedNative: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
  }),
  defineChain({
    chainId: 137,
    name: 'Polygon',
    apiChainName: 'polygon',
    // MATIC became POL in 2024; the wrapped contract (ex-WMATIC) kept its address.
    nativeSymbol: 'POL',
    nativeName: 'POL',
    defaultRpcUrl: 'https://polygon-rpc.com',
    wrappedNative: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
  }),
  defineChain({
    chainId: 42161,
    name: 'Arbitrum',
    apiChainName: 'arbitrum',
    nativeSymbol: 'ETH',
    nativeName: 'Ether',
    defaultRpcUrl: 'https://arb1.arbitrum.io/rpc',
    wrappedNative: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
  }),
  defineChain({
    chainId: 10,
    name: 'Optimism',
    apiChainName: 'optimism',
    nativeSymbol: 'ETH',
    nativeName: 'Ether',
    defaultRpcUrl: 'https://mainnet.optimism.io',
    wrappedNative: '0x4200000000000000000000000000000000000006',
  }),
  defineChain({
    chainId: 8453,
    name: 'Base',
    apiChainName: 'base',
    nativeSymbol: 'ETH',
    nativeName: 'Ether',
    defaultRpcUrl: 'https://mainnet.base.org',
    wrappedNative: '0x4200000000000000000000000000000000000006',
  }),
  defineChain({
    chainId: 43114,
    name: 'Avalanche',
    apiChainName: 'avalanche',
    nativeSymbol: 'AVAX',
    nativeName: 'Avalanche',
    defaultRpcUrl: 'https://api.avax.network/ext/bc/C/rpc',
    wrappedNative: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7',
  }),
  defineChain({
    chainId: 250,
    name: 'Fantom',
    apiChainName: 'fantom',
    nativeSymbol: 'FTM',
    nativeName: 'Fantom',
    defaultRpcUrl: 'https://rpc.ftm.tools',
    wrappedNative: '0x21be370D5312f44cB42ce377BC9b8a0cEF1A4C83',
  }),
]);

/**
 * Chains whose explorers the content script knows (./hosts.ts) but that are outside the swap registry:
 * their names, so that an explorer page's card can say which chain the swap service does not serve.
 */
const EXPLORER_ONLY_CHAINS: Readonly<Record<number, string>> = Object.freeze({
  1284: 'Moonbeam',
  1285: 'Moonriver',
  25: 'Cronos',
  59144: 'Linea',
  534352: 'Scroll',
  100: 'Gnosis',
  42220: 'Celo',
  81457: 'Blast',
  146: 'Sonic',
  5000: 'Mantle',
  167000: 'Taiko',
  480: 'World Chain',
  130: 'Unichain',
  2741: 'Abstract',
  1329: 'Sei',
  999: 'HyperEVM',
  143: 'Monad',
});

export const SUPPORTED_CHAIN_IDS: readonly number[] = Object.freeze(CHAINS.map((chain) => chain.chainId));

const byId = new Map(CHAINS.map((chain) => [chain.chainId, chain]));

/** The registry entry, or undefined for an unknown chain id. */
export function getChain(chainId: number): ChainInfo | undefined {
  return byId.get(chainId);
}

/** A chain's display name: the registry's, an explorer-only chain's, else "Chain <id>". */
export function chainName(chainId: number): string {
  return byId.get(chainId)?.name ?? EXPLORER_ONLY_CHAINS[chainId] ?? `Chain ${chainId}`;
}

/** The registry entry; throws UnknownChainError for an unknown chain id. */
export function requireChain(chainId: number): ChainInfo {
  const chain = byId.get(chainId);
  if (!chain) throw new UnknownChainError(chainId);
  return chain;
}

/**
 * The `chain_name` to send to the Swap Routing Service. A non-blank override wins (and may name a
 * chain outside the registry); otherwise the registry default; undefined when neither exists.
 */
export function apiChainNameFor(chainId: number, overrides?: ApiChainNameOverrides): string | undefined {
  const override = overrides?.[chainId]?.trim();
  if (override) return override;
  return byId.get(chainId)?.apiChainName;
}

/**
 * The registered chain whose effective API name (after overrides) is `name`, compared
 * case-insensitively. An overridden chain no longer answers to its default name.
 */
export function chainByApiName(name: string, overrides?: ApiChainNameOverrides): ChainInfo | undefined {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return undefined;
  return CHAINS.find((chain) => apiChainNameFor(chain.chainId, overrides)?.toLowerCase() === wanted);
}

const TX_HASH_RE = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** Link to a transaction on the chain's primary explorer; undefined for an unknown chain. */
export function explorerTxUrl(chainId: number, hash: string): string | undefined {
  return explorerUrl(chainId, 'tx', hash, TX_HASH_RE, 'transaction hash');
}

/** Link to a token page on the chain's primary explorer; undefined for an unknown chain. */
export function explorerTokenUrl(chainId: number, address: string): string | undefined {
  return explorerUrl(chainId, 'token', address, ADDRESS_RE, 'address');
}

/** Link to an account or contract on the chain's primary explorer; undefined for an unknown chain. */
export function explorerAddressUrl(chainId: number, address: string): string | undefined {
  return explorerUrl(chainId, 'address', address, ADDRESS_RE, 'address');
}

// The value lands in a URL path, so it must be exactly hex: a malformed one is a bug upstream
// (or hostile data), and we throw rather than build a link to somewhere else.
function explorerUrl(
  chainId: number,
  path: 'tx' | 'token' | 'address',
  value: string,
  pattern: RegExp,
  what: string,
): string | undefined {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new TypeError(`Not a valid ${what}: ${JSON.stringify(String(value)).slice(0, 80)}`);
  }
  const explorer = byId.get(chainId)?.explorers[0];
  return explorer ? `${explorer.baseUrl}/${path}/${value}` : undefined;
}
