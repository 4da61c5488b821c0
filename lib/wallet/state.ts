import * as z from 'zod/mini';

/** What views learn about the wallet: never key material. */
export const WalletStateSchema = z.object({
  status: z.enum(['none', 'locked', 'unlocked']),
  accounts: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['derived', 'imported']),
      address: z.string(),
      name: z.string(),
    }),
  ),
  activeId: z.nullable(z.string()),
  /** Epoch ms of the auto-lock, while unlocked. */
  lockAt: z.nullable(z.number()),
  /** While locked after too many wrong passwords: when the next attempt is checked (epoch ms). */
  retryAt: z.optional(z.nullable(z.number())),
  /** Set once the stored account list was found changed outside Swaplane and rebuilt from the vault. */
  accountsNotice: z.optional(z.string()),
  /** Set when the stored vault cannot be read: it is kept, never overwritten. */
  vaultError: z.nullable(z.string()),
});
export type WalletState = z.infer<typeof WalletStateSchema>;
