// The approval queue: requests waiting for the user, oldest first. One shown at a time; an origin
// has at most PER_ORIGIN waiting (a page firing hundreds of requests gets -32005 for the rest,
// and never more than one window), a registrable site (all its subdomains) at most PER_SITE, and
// the whole queue is bounded too: one site's subdomains cannot fill it for everyone else.
import { MAX_WAITING_APPROVALS } from '@/lib/state/dapp-queue';
import { registrableSite } from './site-key';

export const QUEUE_LIMITS = { perOrigin: 3, perSite: 6, total: MAX_WAITING_APPROVALS } as const;

export interface Queued {
  id: string;
  origin: string;
}

export type Enqueue<T extends Queued> =
  | { ok: true; queue: T[] }
  | { ok: false; reason: 'origin-full' | 'site-full' | 'queue-full' };

export function enqueue<T extends Queued>(
  queue: readonly T[],
  item: T,
  limits: { perOrigin: number; perSite: number; total: number } = QUEUE_LIMITS,
): Enqueue<T> {
  if (queue.length >= limits.total) return { ok: false, reason: 'queue-full' };
  const fromOrigin = queue.filter((entry) => entry.origin === item.origin).length;
  if (fromOrigin >= limits.perOrigin) return { ok: false, reason: 'origin-full' };
  const site = registrableSite(item.origin);
  const fromSite = queue.filter((entry) => registrableSite(entry.origin) === site).length;
  if (fromSite >= limits.perSite) return { ok: false, reason: 'site-full' };
  return { ok: true, queue: [...queue, item] };
}

export function removeFromQueue<T extends Queued>(queue: readonly T[], id: string): T[] {
  return queue.filter((entry) => entry.id !== id);
}

/** The request the window shows: the oldest. */
export function current<T extends Queued>(queue: readonly T[]): T | undefined {
  return queue[0];
}
