import * as z from 'zod/mini';
import { AddressSchema, AmountStringSchema, ChainIdSchema } from '@/lib/api/schema';

/** What the content script asked the popup to open with (a token on a chain), consumed once. */
export const PrefillSchema = z.object({
  chainId: ChainIdSchema,
  token: AddressSchema,
  /** The native coin amount the explorer card quoted (smallest units): the popup quotes the same. */
  amount: z.optional(AmountStringSchema),
  createdAt: z.number(),
});
export type Prefill = z.infer<typeof PrefillSchema>;
