import * as z from 'zod/mini';

/** The provider's own settings (a storage item of its own; the Settings schema is untouched). */
export const DappSettingsSchema = z.object({
  /** Also set window.ethereum (when no other wallet holds it); EIP-6963 announces regardless. */
  exposeWindowEthereum: z.boolean(),
});
export type DappSettings = z.infer<typeof DappSettingsSchema>;
