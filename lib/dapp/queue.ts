// The approval queue: requests waiting for the user, oldest first. One shown at a time; an origin
// has at most PER_ORIGIN waiting (a page firing hundreds of requests gets -32005 for the rest,
// and never more than one window), and the whole queue is bounded too.
import { MAX_WAITING_APPROVALS } from '@/lib/state/dapp-queue';

export const QUEUE_LIMITS = { perOrigin: 3, total: MAX_WAITING_APPROVALS } as const;

export interface Queued {
  id: string;
  origin: string;
}

export type Enqueue<T extends Queued> =
  | { ok: true; queue: T[] }
  | { ok: false; reason: 'origin-full' | 'queue-full' };

export function enqueue<T extends Queued>(
  queue: readonly T[],
  item: T,
  limits: { perOrigin: number; total: number } = QUEUE_LIMITS,
): Enqueue<T> {
  if (queue.length >= limits.total) return { ok: false, reason: 'queue-full' };
  const fromOrigin = queue.filter((entry) => entry.origin === item.origin).length;
  if (fromOrigin >= limits.perOrigin) return { ok: false, reason: 'origin-full' };
  return { ok: true, queue: [...queue, item] };
}

export function removeFromQueue<T extends Queued>(queue: readonly T[], id: string): T[] {
  return queue.filter((entry) => entry.id !== id);
}

/** The request the window shows: the oldest. */
export function current<T extends Queued>(queue: readonly T[]): T | undefined {
  return queue[0];
}
