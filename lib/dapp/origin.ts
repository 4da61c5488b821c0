// Who asks, as the approval window says it: the origin the browser reported, and warnings when it
// is not https or resembles a well-known dapp without being it (the look-alike ideas of
// lib/explorer/user-hosts.ts: near misses, a known name inside a longer one, punycode).
import { editDistance } from '@/lib/explorer/user-hosts';

/** Well-known dapp hosts that phishing copies most. */
export const KNOWN_DAPP_HOSTS: readonly string[] = [
  'app.uniswap.org',
  'uniswap.org',
  'app.aave.com',
  'curve.fi',
  'curve.finance',
  'app.1inch.io',
  'swap.cow.fi',
  'opensea.io',
  'blur.io',
  'lido.fi',
  'stake.lido.fi',
  'app.compound.finance',
  'pancakeswap.finance',
  'app.balancer.fi',
  'app.ens.domains',
  'matcha.xyz',
  'jumper.exchange',
  'app.safe.global',
];

export interface OriginWarning {
  code: 'NOT_HTTPS' | 'LOOKALIKE' | 'PUNYCODE';
  message: string;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

export function originWarnings(origin: string): OriginWarning[] {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return [{ code: 'NOT_HTTPS', message: 'This request does not come from a web page address.' }];
  }
  const host = url.hostname.toLowerCase();
  const warnings: OriginWarning[] = [];
  if (url.protocol !== 'https:') {
    warnings.push({
      code: 'NOT_HTTPS',
      message: LOOPBACK.test(host)
        ? 'This page runs on this computer and is not served over https.'
        : 'This page is not served over https: anyone on the network could have changed it.',
    });
  }
  if (host.split('.').some((label) => label.startsWith('xn--'))) {
    warnings.push({
      code: 'PUNYCODE',
      message: `${host} uses international characters that can imitate another name.`,
    });
  }
  const imitated = lookalikeOf(host);
  if (imitated) {
    warnings.push({ code: 'LOOKALIKE', message: `${host} looks like ${imitated} but is not it.` });
  }
  return warnings;
}

function lookalikeOf(host: string): string | undefined {
  const bare = host.replace(/^www\./, '');
  for (const known of KNOWN_DAPP_HOSTS) {
    if (bare === known || bare.endsWith(`.${known}`)) return undefined;
  }
  for (const known of KNOWN_DAPP_HOSTS) {
    const name = known.split('.').at(-2) ?? known;
    if (editDistance(bare, known, 2) <= 2) return known;
    // The known registrable name inside another domain: uniswap.org.evil.com, app-uniswap.com.
    if (name.length >= 4 && bare.includes(name)) return known;
  }
  return undefined;
}
