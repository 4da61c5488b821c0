// Tokens the user swapped lately, per chain, newest first: the picker offers them before the list.
export const RECENT_LIMIT = 8;

/** `address` moved to the front (lowercase, once), the list capped at RECENT_LIMIT. */
export function withRecent(list: readonly string[], address: string): string[] {
  const lower = address.toLowerCase();
  return [lower, ...list.filter((item) => item !== lower)].slice(0, RECENT_LIMIT);
}

/** How many of the list's first tokens the picker checks for a balance (no indexer: the list's top). */
export const HELD_CHECK_LIMIT = 60;

/** The addresses whose balance the picker asks for: recent ones, then the top of the list, once each. */
export function heldCandidates(recent: readonly string[], listed: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const address of [...recent, ...listed.slice(0, HELD_CHECK_LIMIT)]) {
    const lower = address.toLowerCase();
    if (seen.has(lower)) continue;
    seen.add(lower);
    out.push(lower);
  }
  return out;
}
