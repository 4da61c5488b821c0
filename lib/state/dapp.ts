// The stored shapes of the dapp provider (connected sites, the provider's settings): zod only, below
// storage like the other state shapes; the logic on them is lib/dapp/.
import * as z from 'zod/mini';
import { AddressSchema, ChainIdSchema } from '@/lib/api/schema';

/** An origin as the browser reports it: scheme://host[:port], nothing else. */
export const OriginSchema = z
  .string()
  .check(z.maxLength(300), z.regex(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/, 'expected an http(s) origin'));

export const ConnectedSiteSchema = z.object({
  origin: OriginSchema,
  accounts: z.array(AddressSchema).check(z.minLength(1), z.maxLength(20)),
  chainId: ChainIdSchema,
  connectedAt: z.number(),
});
export type ConnectedSite = z.infer<typeof ConnectedSiteSchema>;

export const ConnectedSitesSchema = z.array(ConnectedSiteSchema).check(z.maxLength(500));

/** The provider's own settings (a storage item of its own; the Settings schema is untouched). */
export const DappSettingsSchema = z.object({
  /** Also set window.ethereum (when no other wallet holds it); EIP-6963 announces regardless. */
  exposeWindowEthereum: z.boolean(),
});
export type DappSettings = z.infer<typeof DappSettingsSchema>;
