// The quote session's state: what the background persists in storage.session and pushes to views.
import { z } from 'zod';
import { AddressSchema, AmountStringSchema, ChainIdSchema, QuoteSchema } from '@/lib/api/schema';

export const QuoteInputSchema = z.object({
  chainId: ChainIdSchema,
  inToken: AddressSchema,
  outToken: AddressSchema,
  /** Smallest units of inToken; views parse what the user typed with lib/amounts. */
  inAmount: AmountStringSchema.refine((value) => value !== '0', 'enter an amount above zero'),
  slippage: z.number().finite().positive().max(50),
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
export type QuoteSessionStatus = z.infer<typeof QuoteSessionStatusSchema>;

export const QuoteSessionStateSchema = z.object({
  /** Increases with every input change, so late answers for old input are recognised. */
  revision: z.number().int().min(0),
  status: QuoteSessionStatusSchema,
  input: QuoteInputSchema.nullable(),
  quote: QuoteSchema.nullable(),
  /** Service timestamp of the quote and when the background received it (ms since epoch). */
  quotedAt: z.string().nullable(),
  receivedAt: z.number().nullable(),
  /** When the next automatic refresh happens; null while paused (no view watching, or budget spent). */
  nextRefreshAt: z.number().nullable(),
  refreshCount: z.number().int().min(0),
  error: UserMessageSchema.nullable(),
  /** Why the quote is stale, when it is. */
  staleReason: z.string().nullable(),
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
};
