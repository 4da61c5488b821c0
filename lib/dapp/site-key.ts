// The registrable site of an origin, as the approval queue bounds it: one budget for all of a
// site's subdomains (a.evil.example, b.evil.example, …), without the Public Suffix List (thousands
// of entries, and a list to keep current). The rule: the last two labels of the host; three under
// a two-letter country code whose second level is a generic one (example.co.uk, example.com.br);
// one more under the shared hosting suffixes dapps are served from (name.eth.limo, name.github.io).
// An IP address or a single-label host (localhost) is its own site. Where this groups more than the
// list would (a shared suffix it does not know), those hosts share one budget: they can be refused
// sooner, never flood the queue.

/** Second levels under a country code that are registries, not sites (co.uk, com.au, …). */
const GENERIC_SECOND_LEVELS = new Set(['ac', 'co', 'com', 'edu', 'gov', 'net', 'ne', 'or', 'org', 'go']);

/** Shared hosting suffixes where each name below is someone else's site (dapp hosting, mostly). */
const SHARED_SUFFIXES = new Set([
  'eth.limo',
  'eth.link',
  'ipfs.dweb.link',
  'ipns.dweb.link',
  'github.io',
  'gitlab.io',
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'workers.dev',
  'web.app',
  'firebaseapp.com',
  'herokuapp.com',
  'onrender.com',
  'on-fleek.app',
  'fleek.co',
  'replit.app',
  'surge.sh',
  'azurewebsites.net',
  'cloudfront.net',
  'amplifyapp.com',
  'appspot.com',
]);

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** The site key of an origin (its registrable domain, roughly); the origin itself if it has no host. */
export function registrableSite(origin: string): string {
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return origin;
  }
  if (host.startsWith('[') || IPV4.test(host)) return host;
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const lastTwo = labels.slice(-2).join('.');
  const lastThree = labels.slice(-3).join('.');
  let take = 2;
  if (SHARED_SUFFIXES.has(lastTwo)) take = 3;
  else if (SHARED_SUFFIXES.has(lastThree)) take = 4;
  else if ((labels.at(-1) as string).length === 2 && GENERIC_SECOND_LEVELS.has(labels.at(-2) as string))
    take = 3;
  return labels.slice(-Math.min(take, labels.length)).join('.');
}
