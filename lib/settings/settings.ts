import * as z from 'zod/mini';
import { GWEI_TEXT } from '@/lib/amounts/gwei';
import { isLocalRpcUrl } from '@/lib/chains/rpc';
import { BUILD_DEFAULTS } from './build-defaults';

export { DEVNET_PRESET } from './build-defaults';

import {
  checkOneClickAmount,
  DEFAULT_ONE_CLICK_AMOUNT,
  DEFAULT_ONE_CLICK_AMOUNTS,
} from '@/lib/settings/one-click';

/** Hostname as typed by a user: lowercase labels, at least one dot, no scheme or path. */
const HostSchema = z
  .string()
  .check(
    z.regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      'expected a host name like explorer.example.org',
    ),
  );

// Plain http only to this machine (the devnet): a remote service or RPC over http could be read and
// rewritten by anyone on the network path.
const HttpUrlSchema = z.url().check(
  z.refine((value) => /^https?:\/\//i.test(value), 'only http and https URLs are allowed'),
  z.refine(
    (value) => /^https:\/\//i.test(value) || isLocalRpcUrl(value),
    'use https:// (plain http is allowed only for this machine, e.g. http://127.0.0.1)',
  ),
);

const OneClickAmountSchema = z.string().check(
  z.maxLength(100),
  z.refine((value) => {
    const check = checkOneClickAmount(value);
    return check.ok && check.text === value;
  }, 'expected an amount above 0 like 0.1, with at most 18 decimals'),
);

export const SLIPPAGE_LIMITS = { min: 0.01, warnBelow: 0.1, warnAbove: 5, max: 50 } as const;

export const SettingsSchema = z.object({
  serviceBaseUrl: HttpUrlSchema,
  /** chainId (as a string key) -> RPC URL that replaces the registry's default. */
  rpcOverrides: z.record(z.string().check(z.regex(/^\d+$/)), HttpUrlSchema),
  /** chainId -> the API's chain_name, when a service names chains differently. */
  chainNameOverrides: z.record(
    z.string().check(z.regex(/^\d+$/)),
    z.string().check(z.regex(/^[a-z0-9_-]{1,40}$/)),
  ),
  slippage: z.number().check(z.minimum(SLIPPAGE_LIMITS.min), z.maximum(SLIPPAGE_LIMITS.max)),
  refCode: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
  /** Extra explorer hosts the user added: host -> chainId. */
  explorerHosts: z.record(HostSchema, z.int().check(z.positive())),
  /** Native-coin amount of the explorer pages' one-click quote, canonical decimal (e.g. "0.1"). */
  oneClickAmount: OneClickAmountSchema,
  /** chainId -> that chain's own one-click amount (its native coin); others use `oneClickAmount`. */
  oneClickAmounts: z.record(z.string().check(z.regex(/^\d{1,10}$/)), OneClickAmountSchema),
  autoLockMinutes: z.int().check(z.minimum(1), z.maximum(24 * 60)),
  /**
   * "Only sign swap calls Swaplane can read": a call no known router family decodes is refused.
   * Absent means on (the default): a stored v3 settings object reads unchanged, no migration.
   */
  onlyReadableCalldata: z.optional(z.boolean()),
  /**
   * chainId -> the most any transaction may pay per gas there, in gwei ("500", "0.5"): the ceiling
   * no RPC answer can raise (lib/rpc/fee-ceiling.ts). Absent: that chain's default.
   */
  feeCeilingsGwei: z.optional(
    z.record(
      z.string().check(z.regex(/^\d{1,10}$/)),
      z.string().check(z.regex(GWEI_TEXT, 'expected a fee per gas in gwei, like 500 or 0.5')),
    ),
  ),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  serviceBaseUrl: BUILD_DEFAULTS.serviceBaseUrl,
  rpcOverrides: { ...BUILD_DEFAULTS.rpcOverrides },
  chainNameOverrides: {},
  slippage: 0.5,
  explorerHosts: {},
  oneClickAmount: DEFAULT_ONE_CLICK_AMOUNT,
  oneClickAmounts: { ...DEFAULT_ONE_CLICK_AMOUNTS },
  autoLockMinutes: 15,
};
