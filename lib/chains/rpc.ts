// RPC URL classification; no viem, so views can use it cheaply.

/**
 * True when `url` is an http(s)/ws(s) URL whose host is this machine's loopback: `localhost` or a
 * `*.localhost` name (RFC 6761; browsers resolve them to loopback), any 127.0.0.0/8 address, or
 * `[::1]`. The WHATWG URL parser canonicalises first, so `127.1`, `0x7f.0.0.1` and
 * `[0:0:0:0:0:0:0:1]` count, and `http://localhost@evil.com` (userinfo) does not. Anything
 * unparsable is not local. 0.0.0.0 and IPv4-mapped IPv6 are deliberately not treated as loopback.
 */
export function isLocalRpcUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  // After URL canonicalisation an IPv4 host is always four dotted decimals.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
