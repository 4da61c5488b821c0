// The build configuration of wxt.config.ts: a demo build (the default) carries the embedded
// default; a release build (SWAPLANE_RELEASE=1, set by `npm run zip`) carries only the https
// service and RPCs given in SWAPLANE_SERVICE_URL and SWAPLANE_RPC_URLS, and no localhost host
// permission. Pure, so tests/unit/release-config.test.ts checks it without a build.
import { type BuildDefaults, EMBEDDED_DEFAULT as EMBEDDED } from '../lib/settings/build-defaults';

export const DEMO_HOST_PERMISSIONS = ['http://127.0.0.1/*', 'http://localhost/*'];

export class ReleaseConfigError extends Error {
  override name = 'ReleaseConfigError';
}

function httpsUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ReleaseConfigError(`${name} is not a URL: ${value}`);
  }
  if (url.protocol !== 'https:')
    throw new ReleaseConfigError(`${name} must be an https:// URL in a release build (got ${value}).`);
  if (['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
    throw new ReleaseConfigError(`${name} must not point at this machine in a release build (got ${value}).`);
  return value;
}

export function buildConfig(env: Record<string, string | undefined>): {
  defaults: BuildDefaults;
  hostPermissions: string[];
} {
  if (env.SWAPLANE_RELEASE !== '1') return { defaults: EMBEDDED, hostPermissions: DEMO_HOST_PERMISSIONS };
  if (!env.SWAPLANE_SERVICE_URL)
    throw new ReleaseConfigError(
      'A release build needs its swap service: SWAPLANE_SERVICE_URL=https://… npm run zip (and optionally SWAPLANE_RPC_URLS=\'{"1":"https://…"}\').',
    );
  const serviceBaseUrl = httpsUrl('SWAPLANE_SERVICE_URL', env.SWAPLANE_SERVICE_URL);
  let parsed: unknown = {};
  try {
    parsed = JSON.parse(env.SWAPLANE_RPC_URLS ?? '{}');
  } catch {
    throw new ReleaseConfigError('SWAPLANE_RPC_URLS must be JSON like {"1":"https://rpc.example"}.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ReleaseConfigError('SWAPLANE_RPC_URLS must be a JSON object of chain id -> https URL.');
  const rpcOverrides: Record<string, string> = {};
  for (const [chainId, url] of Object.entries(parsed)) {
    if (!/^\d+$/.test(chainId) || typeof url !== 'string')
      throw new ReleaseConfigError(`SWAPLANE_RPC_URLS: "${chainId}" must be a chain id with a URL.`);
    rpcOverrides[chainId] = httpsUrl(`SWAPLANE_RPC_URLS["${chainId}"]`, url);
  }
  const origins = [serviceBaseUrl, ...Object.values(rpcOverrides)].map((url) => `${new URL(url).origin}/*`);
  return {
    defaults: { release: true, serviceBaseUrl, rpcOverrides },
    hostPermissions: [...new Set(origins)],
  };
}

/** What a release build must not contain: localhost host permissions or the embedded default's URLs. */
export function releaseProblems(
  manifest: { host_permissions?: string[] },
  bundles: Record<string, string>,
): string[] {
  const problems: string[] = [];
  for (const permission of manifest.host_permissions ?? [])
    if (/localhost|127\.0\.0\.1|\[::1\]/.test(permission)) problems.push(`host permission ${permission}`);
  const defaults = [EMBEDDED.serviceBaseUrl, ...Object.values(EMBEDDED.rpcOverrides)];
  for (const [file, text] of Object.entries(bundles))
    for (const url of defaults) if (text.includes(url)) problems.push(`${file} contains ${url}`);
  return problems;
}
