// Swaplane's own record of the addresses each account sent a dapp transaction to, per chain: the
// source of the approval window's "first interaction" (lib/background/dapp-recipients.ts). Kept in
// storage.local (outside the trust boundary), so each record carries a seal made with the vault's
// trust key; a record whose seal does not verify is not believed.
import * as z from 'zod/mini';
import { AddressSchema } from '@/lib/api/schema';

/** Recipients kept per account and chain, newest last; the oldest are forgotten past this. */
export const MAX_RECORDED_RECIPIENTS = 500;

export const SentToRecordSchema = z.object({
  chainId: z.int(),
  account: AddressSchema,
  /** Lower-case addresses. */
  recipients: z.array(AddressSchema).check(z.maxLength(MAX_RECORDED_RECIPIENTS)),
  seal: z.string().check(z.maxLength(200)),
});
export type SentToRecord = z.infer<typeof SentToRecordSchema>;

export const SentToRecordsSchema = z.array(SentToRecordSchema).check(z.maxLength(200));
