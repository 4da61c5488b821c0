// Explorer hosts the user adds in settings (host -> chain): validation (the options page and the
// background) and the chain of a page on one. Pure. Not imported by the content script.
import { chainForExplorerHost, EXPLORER_HOSTS, getChain, normalizeHostname } from '@/lib/chains';

export type HostCheck = { ok: true; host: string } | { ok: false; message: string };

/** The optional host permission (and the content-script match pattern) of a user host: https only. */
export function userHostOrigin(host: string): string {
  return `https://${host}/*`;
}

/** Optimal string alignment distance (Levenshtein plus adjacent swaps), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit = 3): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (prevPrev[j - 2] as number) + 1);
      }
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length] as number;
}

/**
 * The host of what the user pasted: a bare host as it is, an address copied from the browser's bar
 * (https://etherscan.io/, a page's URL) cut down to its host. Only https sites, on their usual port.
 */
export function hostOfPasted(input: string): { host: string } | { message: string } {
  if (!input.includes('/') && !input.includes(':')) return { host: input };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    // "host/path" without a scheme: the part before the first slash, if nothing else is odd.
    const [first] = input.split('/');
    return first && !first.includes(':') ? { host: first } : { message: HOST_HINT };
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { message: HOST_HINT };
  }
  if (url.protocol !== 'https:') return { message: 'Only https:// explorer sites can be added.' };
  if (url.port || url.username || url.password) return { message: HOST_HINT };
  return { host: url.hostname };
}

const HOST_HINT = "Enter a host name like explorer.example.org, or paste the site's https:// address.";

/**
 * A host the user may add: a plain DNS name (what normalizeHostname accepts, with a dot and a
 * letters-only top-level label, as settings store it) that is not a built-in explorer and does not
 * look like one. A page asking the user to "add our explorer" must not get a built-in's trust by
 * resemblance, so these are refused:
 * - a built-in host itself, its `www.` form, or any name under it (`x.etherscan.io`): built-ins are
 *   matched by the manifest, and other subdomains are other chains (hosts.ts);
 * - a built-in's labels inside a longer name (`etherscan.io.evil.com`);
 * - the same name under another top-level domain (`etherscan.com`, `basescan.io`);
 * - a near miss, at most two edits or swaps from a built-in (`etherscam.io`, `ehterscan.io`);
 * - punycode labels (`xn--`): homographs render like the name they imitate.
 */
export function checkExplorerHost(input: string): HostCheck {
  const pasted = hostOfPasted(typeof input === 'string' ? input.trim() : '');
  if ('message' in pasted) return { ok: false, message: pasted.message };
  const host = normalizeHostname(pasted.host);
  if (!host || !/^(?=.{1,253}$)(?:[a-z0-9-]+\.)+[a-z]{2,63}$/.test(host)) {
    return { ok: false, message: HOST_HINT };
  }
  if (host.split('.').some((label) => label.startsWith('xn--'))) {
    return {
      ok: false,
      message: 'Internationalised (xn--) host names are not accepted: they can imitate others.',
    };
  }
  if (chainForExplorerHost(host) !== undefined) {
    return { ok: false, message: `${host} is built in already.` };
  }
  const labels = host.split('.');
  for (const { host: builtIn } of EXPLORER_HOSTS) {
    const known = builtIn.split('.');
    if (containsRun(labels, known)) {
      return { ok: false, message: `${host} contains the built-in ${builtIn}: refused as a look-alike.` };
    }
    if (labels.length === known.length && labels.slice(0, -1).join('.') === known.slice(0, -1).join('.')) {
      return { ok: false, message: `${host} is ${builtIn} under another domain: refused as a look-alike.` };
    }
    if (editDistance(host, builtIn, 2) <= 2) {
      return { ok: false, message: `${host} looks like ${builtIn}: refused as a look-alike.` };
    }
  }
  return { ok: true, host };
}

function containsRun(labels: string[], run: string[]): boolean {
  for (let start = 0; start + run.length <= labels.length; start++) {
    if (run.every((label, i) => labels[start + i] === label)) return true;
  }
  return false;
}

/** The user hosts that pass checkExplorerHost, with a registry chain (stored settings may predate the rules). */
export function validUserHosts(hosts: Readonly<Record<string, number>>): Record<string, number> {
  const valid: Record<string, number> = {};
  for (const [host, chainId] of Object.entries(hosts)) {
    const check = checkExplorerHost(host);
    if (check.ok && check.host === host && getChain(chainId)) valid[host] = chainId;
  }
  return valid;
}

/**
 * The chain of the explorer page at `url` (the frame URL the browser reports for a sender, never one
 * a page supplies): a built-in host, or a valid user host, exactly; https on the default port only.
 */
export function explorerChainForUrl(
  url: string | undefined,
  userHosts: Readonly<Record<string, number>>,
): number | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:') return undefined;
  return chainForExplorerHost(parsed.host, validUserHosts(userHosts));
}
