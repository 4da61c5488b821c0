import * as z from 'zod/mini';
import { AddressSchema, ChainIdSchema } from '@/lib/api/schema';

/** What the content script asked the popup to open with (a token on a chain), consumed once. */
export const PrefillSchema = z.object({
  chainId: ChainIdSchema,
  token: AddressSchema,
  /** The explorer card's amount of the native coin, smallest unit (optional: older callers had none). */
  amount: z.optional(z.string().check(z.regex(/^\d{1,78}$/))),
  createdAt: z.number(),
});
export type Prefill = z.infer<typeof PrefillSchema>;
