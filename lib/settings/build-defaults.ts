// What the build put in: a demo build (npm run build, npm run demo, tests) points at the embedded
// default on this machine; a release build (npm run zip) carries only the service and RPCs given at
// build time (wxt.config.ts reads SWAPLANE_SERVICE_URL and SWAPLANE_RPC_URLS), no localhost default.

export interface BuildDefaults {
  release: boolean;
  serviceBaseUrl: string;
  /** chainId -> RPC URL. */
  rpcOverrides: Record<string, string>;
}

declare const __SWAPLANE_BUILD__: BuildDefaults | undefined;

/** The embedded default: the reference service and the anvil devnet on this machine. */
export const EMBEDDED_DEFAULT: BuildDefaults = {
  release: false,
  serviceBaseUrl: 'http://127.0.0.1:8787',
  rpcOverrides: { '1': 'http://127.0.0.1:8545', '8453': 'http://127.0.0.1:8546' },
};

/** Replaced at build time by wxt.config.ts; Node (tests, scripts) gets the embedded default. */
export const BUILD_DEFAULTS: BuildDefaults =
  typeof __SWAPLANE_BUILD__ === 'undefined' ? EMBEDDED_DEFAULT : __SWAPLANE_BUILD__;

/** The devnet preset the options page offers, only in a demo build. */
export const DEVNET_PRESET: Omit<BuildDefaults, 'release'> | null = BUILD_DEFAULTS.release
  ? null
  : { serviceBaseUrl: BUILD_DEFAULTS.serviceBaseUrl, rpcOverrides: BUILD_DEFAULTS.rpcOverrides };
