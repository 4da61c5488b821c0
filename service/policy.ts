// Server policy the contract leaves open (docs/API.md). The client reacts to status codes and
// never hard-codes these numbers, so they can change per deployment.
import type { ChainName } from './chains';
import type { ServiceConfig } from './config';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './connection-limits';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limit';

export interface ServicePolicy {
  /** Accepted slippage, percent, inclusive; at most `SLIPPAGE_DECIMALS` decimals. Outside -> 406. */
  readonly minSlippage: number;
  readonly maxSlippage: number;
  /**
   * A quote is outdated once the head is more than this many blocks past its blockNumber; chains
   * not named here use `defaultOutdatedAfterBlocks`.
   */
  readonly outdatedAfterBlocks: Readonly<Record<ChainName, number>>;
  readonly defaultOutdatedAfterBlocks: number;
  /** Request bodies above this many bytes get 413. */
  readonly maxBodyBytes: number;
  /** Request targets (path and query) above this many bytes get 414. */
  readonly maxUrlBytes: number;
  /** A quote's route search stops past this many milliseconds of work: 422, never a stuck worker. */
  readonly routeSearchMs: number;
  /**
   * Base of the logo URLs in token lists and search results. Only configuration sets it (never a
   * request's Host header); startService defaults it to the address it listens on.
   */
  readonly publicBaseUrl?: string;
  /** Per-client token buckets; `null` turns rate limiting off (benchmarks of raw capacity). */
  readonly rateLimits: RateLimits | null;
  /**
   * A header naming the client's address, set by a reverse proxy in front of the service (e.g.
   * "x-real-ip"). Only trusted when configured; otherwise the TCP peer address is the client.
   */
  readonly clientAddressHeader?: string;
  /** Hops a /build route may carry per share (quotes use at most 2). */
  readonly maxHops: number;
  /** Timeouts and caps on sockets, before any request reaches the app. */
  readonly connections: ConnectionLimits;
}

export const DEFAULT_POLICY: ServicePolicy = {
  minSlippage: 0.01,
  maxSlippage: 50,
  outdatedAfterBlocks: { ethereum: 20, base: 60 },
  defaultOutdatedAfterBlocks: 20,
  maxBodyBytes: 64 * 1024,
  maxUrlBytes: 2048,
  routeSearchMs: 250,
  rateLimits: DEFAULT_RATE_LIMITS,
  maxHops: 4,
  connections: DEFAULT_CONNECTION_LIMITS,
};

export function resolvePolicy(overrides: Partial<ServicePolicy> = {}): ServicePolicy {
  return {
    ...DEFAULT_POLICY,
    ...overrides,
    outdatedAfterBlocks: { ...DEFAULT_POLICY.outdatedAfterBlocks, ...overrides.outdatedAfterBlocks },
    connections: { ...DEFAULT_CONNECTION_LIMITS, ...overrides.connections },
    rateLimits:
      overrides.rateLimits === null
        ? null
        : { ...DEFAULT_RATE_LIMITS, ...(overrides.rateLimits ?? DEFAULT_POLICY.rateLimits) },
  };
}

/** Blocks in which a quote of `chain` can still be built: its block and `outdatedAfterBlocks` after it. */
export function buildableBlocks(policy: ServicePolicy, chain: ChainName): number {
  return (policy.outdatedAfterBlocks[chain] ?? policy.defaultOutdatedAfterBlocks) + 1;
}

/** The configuration file's public URL and limits as policy overrides. */
export function policyFromConfig(
  config: Pick<ServiceConfig, 'publicBaseUrl' | 'limits'>,
): Partial<ServicePolicy> {
  const limits = config.limits ?? {};
  const overrides: { -readonly [K in keyof ServicePolicy]?: ServicePolicy[K] } = {};
  if (config.publicBaseUrl) overrides.publicBaseUrl = config.publicBaseUrl;
  if (limits.maxBodyBytes !== undefined) overrides.maxBodyBytes = limits.maxBodyBytes;
  if (limits.maxUrlBytes !== undefined) overrides.maxUrlBytes = limits.maxUrlBytes;
  if (limits.routeSearchMs !== undefined) overrides.routeSearchMs = limits.routeSearchMs;
  if (limits.clientAddressHeader !== undefined) overrides.clientAddressHeader = limits.clientAddressHeader;
  if (limits.connections) {
    const { maxPerClient, ...rest } = limits.connections;
    overrides.connections = {
      ...DEFAULT_CONNECTION_LIMITS,
      ...rest,
      ...(maxPerClient !== undefined && { maxPerClient: maxPerClient === false ? null : maxPerClient }),
    };
  }
  if (limits.rateLimits === false) overrides.rateLimits = null;
  else if (limits.rateLimits) {
    const { quote, build, read, maxClients } = limits.rateLimits;
    overrides.rateLimits = {
      quote: quote ?? DEFAULT_RATE_LIMITS.quote,
      build: build ?? DEFAULT_RATE_LIMITS.build,
      read: read ?? DEFAULT_RATE_LIMITS.read,
      maxClients: maxClients ?? DEFAULT_RATE_LIMITS.maxClients,
    };
  }
  return overrides;
}
