// The digest of a quote: what startSwap must name so the background signs only the quote the user
// reviewed. Canonical JSON (keys sorted at every level) so the same quote always hashes the same,
// whatever order the service sent its fields in; every field counts, including ones this client
// does not know (the quote reaches /build unchanged).
import { keccak256, stringToHex } from 'viem';
import type { Quote } from '@/lib/api/schema';

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function quoteDigest(quote: Quote): `0x${string}` {
  return keccak256(stringToHex(canonicalJson(quote)));
}
