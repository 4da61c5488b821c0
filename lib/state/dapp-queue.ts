// The approval queue as kept in storage.session across a worker restart: what the window shows
// (the view), what the page asked (method and params, parsed again when the request is revived),
// where the answer goes (the page's frame and the bridge's key for the request), and for a
// transaction the figures its review was made from. storage.session is reachable from Swaplane's
// own pages and worker only; every read is parsed all the same: here, and each view again with the
// window's own schema when the queue revives it (lib/background/dapp-approvals.ts).
import * as z from 'zod/mini';

/** The most requests waiting for the user at once (lib/dapp/queue.ts). */
export const MAX_WAITING_APPROVALS = 20;

const Decimal = z.string().check(z.regex(/^\d{1,78}$/));

/** A transaction's review figures not in its view: the funnel's gas basis and the base fee shown. */
export const StoredTransactionSchema = z.object({
  gasUsed: Decimal,
  baseFee: Decimal,
  source: z.enum(['site', 'wallet']),
  capped: z.boolean(),
  /** The nonce the page set, checked again at Confirm. */
  nonce: z.optional(Decimal),
});
export type StoredTransaction = z.infer<typeof StoredTransactionSchema>;

export const StoredApprovalSchema = z.object({
  id: z.string().check(z.maxLength(100)),
  origin: z.string().check(z.maxLength(300)),
  kind: z.enum(['connect', 'sign', 'typed-data', 'transaction']),
  /** tab:frame of the page that asked. */
  frame: z.nullable(z.string().check(z.maxLength(40))),
  /** The bridge's key for the request: a restarted worker answers it through dappResume. */
  key: z.nullable(z.string().check(z.maxLength(64))),
  method: z.string().check(z.maxLength(100)),
  params: z.optional(z.unknown()),
  /** The window's view of it: parsed with ApprovalViewSchema (lib/dapp/approval.ts) on revival. */
  view: z.record(z.string(), z.unknown()),
  transaction: z.optional(StoredTransactionSchema),
});
export type StoredApproval = z.infer<typeof StoredApprovalSchema>;

export const StoredQueueSchema = z.object({
  /** The approval window, so closing it after a restart still rejects what it showed. */
  windowId: z.nullable(z.int()),
  requests: z.array(StoredApprovalSchema).check(z.maxLength(MAX_WAITING_APPROVALS)),
});
export type StoredQueue = z.infer<typeof StoredQueueSchema>;

export const EMPTY_QUEUE: StoredQueue = { windowId: null, requests: [] };

/** The most origins whose refusals are remembered (the window-bombing cool-down). */
export const MAX_REFUSING_ORIGINS = 200;

/**
 * When the user last refused each origin's requests (at most the cool-down's count, newest last):
 * kept in storage.session so a page cannot wipe its cool-down by letting the worker stop.
 */
export const DappRefusalsSchema = z
  .array(
    z.object({
      origin: z.string().check(z.maxLength(300)),
      at: z.array(z.number().check(z.nonnegative())).check(z.maxLength(10)),
    }),
  )
  .check(z.maxLength(MAX_REFUSING_ORIGINS));
export type DappRefusals = z.infer<typeof DappRefusalsSchema>;
