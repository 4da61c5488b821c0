// The quote session's state: what the background persists in storage.session and pushes to views.
import * as z from 'zod/mini';
import { AddressSchema, AmountStringSchema, ChainIdSchema, QuoteSchema } from '@/lib/api/schema';

export const QuoteInputSchema = z.object({
  chainId: ChainIdSchema,
  inToken: AddressSchema,
  outToken: AddressSchema,
  /** Smallest units of inToken; views parse what the user typed with lib/amounts. */
  inAmount: AmountStringSchema.check(z.refine((value) => value !== '0', 'enter an amount above zero')),
  slippage: z.number().check(z.positive(), z.maximum(50)),
});
export type QuoteInput = z.infer<typeof QuoteInputSchema>;

export const UserMessageSchema = z.object({
  title: z.string(),
  detail: z.string(),
  action: z.string(),
});
export type UserMessage = z.infer<typeof UserMessageSchema>;

export const QuoteSessionStatusSchema = z.enum([
  'idle', // no input yet
  'debouncing', // input changed, waiting for the user to stop typing
  'loading', // a request is in flight
  'ready', // a verified quote is shown and will be refreshed
  'stale', // the quote shown is too old to execute; refresh to continue
  'error', // the last request failed; the message says why and what to do
]);

export const QuoteSessionStateSchema = z.object({
  /** Increases with every input change, so late answers for old input are recognised. */
  revision: z.int().check(z.minimum(0)),
  status: QuoteSessionStatusSchema,
  input: z.nullable(QuoteInputSchema),
  quote: z.nullable(QuoteSchema),
  /** Service timestamp of the quote and when the background received it (ms since epoch). */
  quotedAt: z.nullable(z.string()),
  receivedAt: z.nullable(z.number()),
  /** When the next automatic refresh happens; null while paused (no view watching, or budget spent). */
  nextRefreshAt: z.nullable(z.number()),
  refreshCount: z.int().check(z.minimum(0)),
  error: z.nullable(UserMessageSchema),
  /** Why the quote is stale, when it is. */
  staleReason: z.nullable(z.string()),
  /**
   * While loading: when the client asks again after the service answered 429 (ms since epoch), so
   * the view can say "The swap service is busy, retrying in N s". Absent in states saved before it.
   */
  busyRetryAt: z.optional(z.nullable(z.number())),
});
export type QuoteSessionState = z.infer<typeof QuoteSessionStateSchema>;

export const INITIAL_SESSION_STATE: QuoteSessionState = {
  revision: 0,
  status: 'idle',
  input: null,
  quote: null,
  quotedAt: null,
  receivedAt: null,
  nextRefreshAt: null,
  refreshCount: 0,
  error: null,
  staleReason: null,
  busyRetryAt: null,
};
