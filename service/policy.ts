// Server policy the contract leaves open (docs/API.md). The client reacts to status codes and
// never hard-codes these numbers, so they can change per deployment.
import type { ChainName } from './chains';

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
  /** Base of the logo URLs; when absent, the origin the request was addressed to. */
  readonly publicBaseUrl?: string;
  /** Hops a /build route may carry per share (quotes use at most 2). */
  readonly maxHops: number;
}

export const DEFAULT_POLICY: ServicePolicy = {
  minSlippage: 0.01,
  maxSlippage: 50,
  outdatedAfterBlocks: { ethereum: 20, base: 60 },
  defaultOutdatedAfterBlocks: 20,
  maxBodyBytes: 64 * 1024,
  maxHops: 4,
};

export function resolvePolicy(overrides: Partial<ServicePolicy> = {}): ServicePolicy {
  return {
    ...DEFAULT_POLICY,
    ...overrides,
    outdatedAfterBlocks: { ...DEFAULT_POLICY.outdatedAfterBlocks, ...overrides.outdatedAfterBlocks },
  };
}
