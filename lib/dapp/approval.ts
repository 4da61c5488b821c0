// What the approval window receives about the request it shows: serializable, parsed by the window
// with these schemas like every other answer. Amounts are decimal strings of bigints.
import * as z from 'zod/mini';

/** `tick`: the user must tick "I understand" next to it before the primary button works. */
const Warning = z.object({ code: z.string(), message: z.string(), tick: z.optional(z.boolean()) });

const Field = z.object({ path: z.string(), type: z.string(), value: z.string() });

export const PermitSchema = z.object({
  standard: z.enum(['EIP-2612', 'DAI', 'Permit2']),
  spender: z.string(),
  allowances: z.array(z.object({ token: z.string(), amount: z.string(), unlimited: z.boolean() })),
  expiry: z.nullable(z.number()),
  witness: z.optional(z.nullable(z.string())),
});

const SeaportItem = z.object({
  kind: z.string(),
  token: z.string(),
  id: z.string(),
  amount: z.string(),
  recipient: z.nullable(z.string()),
});

const TokenAmount = z.object({
  token: z.string(),
  symbol: z.nullable(z.string()),
  decimals: z.nullable(z.int()),
  /** Signed decimal integer string in the smallest unit. */
  amount: z.string(),
});

// Built on first use (z.lazy caches it): the popup imports this module through the protocol's
// result schemas but never shows an approval, and building these was part of its start-up.
export const ApprovalDetailSchema = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('connect'),
      chainId: z.int(),
      /** The wallet's accounts to choose from, the active one first. */
      accounts: z.array(z.object({ address: z.string(), name: z.string(), active: z.boolean() })),
    }),
    z.object({
      kind: z.literal('sign'),
      account: z.string(),
      message: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('text'), text: z.string() }),
        z.object({ kind: z.literal('hex'), hex: z.string() }),
      ]),
      warnings: z.array(Warning),
    }),
    z.object({
      kind: z.literal('typed-data'),
      account: z.string(),
      primaryType: z.string(),
      domain: z.object({
        name: z.optional(z.string()),
        version: z.optional(z.string()),
        chainId: z.optional(z.number()),
        verifyingContract: z.optional(z.string()),
        salt: z.optional(z.string()),
      }),
      fields: z.array(Field),
      permit: z.nullable(PermitSchema),
      seaport: z.nullable(
        z.object({
          offerer: z.string(),
          offered: z.array(SeaportItem),
          received: z.array(SeaportItem),
          toOthers: z.array(SeaportItem),
        }),
      ),
      warnings: z.array(Warning),
    }),
    z.object({
      kind: z.literal('transaction'),
      account: z.string(),
      chainId: z.int(),
      to: z.nullable(z.string()),
      value: z.string(),
      data: z.string(),
      gasLimit: z.string(),
      maxFeePerGas: z.string(),
      maxPriorityFeePerGas: z.string(),
      /** gasLimit x maxFeePerGas: the most the network fee can be, in wei. */
      maxNetworkFee: z.string(),
      nativeSymbol: z.string(),
      simulation: z.enum(['ok', 'reverted', 'unavailable']),
      revertReason: z.nullable(z.string()),
      changes: z.array(TokenAmount),
      approvals: z.array(z.extend(TokenAmount, { spender: z.string() })),
      /** What the calldata asks for (null for a plain send). */
      call: z.nullable(
        z.object({
          name: z.string(),
          functionName: z.nullable(z.string()),
          selector: z.nullable(z.string()),
          args: z.array(z.object({ name: z.string(), kind: z.string(), value: z.string() })),
          known: z.boolean(),
        }),
      ),
      /** The site's EIP-2930 access list, signed as given (the window shows each address's slot count). */
      accessList: z.optional(z.array(z.object({ address: z.string(), storageKeys: z.array(z.string()) }))),
      /** Whether `to` has code: a contract runs whatever it was written to do with the value. */
      recipientKind: z.nullable(z.enum(['contract', 'account'])),
      /**
       * Whether the account sent to `to` before: never-sent (its nonce is 0: it never sent anything on
       * this network), not-recorded (Swaplane recorded no earlier send to it), sent-before.
       */
      recipientHistory: z.optional(z.enum(['never-sent', 'not-recorded', 'sent-before'])),
      nfts: z.array(
        z.object({
          token: z.string(),
          standard: z.enum(['ERC-721', 'ERC-1155']),
          tokenId: z.string(),
          amount: z.string(),
        }),
      ),
      nftApprovals: z.array(
        z.object({
          token: z.string(),
          scope: z.enum(['all', 'one']),
          operator: z.string(),
          tokenId: z.nullable(z.string()),
          approved: z.boolean(),
        }),
      ),
      warnings: z.array(Warning),
    }),
  ]),
);
export type ApprovalDetail = z.infer<typeof ApprovalDetailSchema>;

export const ApprovalViewSchema = z.object({
  id: z.string(),
  origin: z.string(),
  /** The site's network and the account the request is for (null: a connect, before the choice). */
  chainId: z.int(),
  account: z.nullable(z.string()),
  /**
   * Set when a frame of another origin asks: the top page's origin (null: a page that cannot be
   * named). `origin` is still the frame's: the one connected, and the one the permission is for.
   */
  embeddedIn: z.optional(z.nullable(z.string())),
  warnings: z.array(Warning),
  detail: ApprovalDetailSchema,
});
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;

export const ApprovalsStateSchema = z.object({
  wallet: z.enum(['none', 'locked', 'unlocked']),
  current: z.nullable(ApprovalViewSchema),
  waiting: z.array(z.object({ id: z.string(), origin: z.string(), kind: z.string() })),
  /** Ids of every request ready to show, oldest first: the window's "1 of N" and its arrows. */
  order: z.array(z.string()),
});
export type ApprovalsState = z.infer<typeof ApprovalsStateSchema>;

/** What a page gets back for a dapp request: a result or an EIP-1193 error, never a thrown one. */
export const DappResponseSchema = z.union([
  z.object({ result: z.unknown() }),
  z.object({ error: z.object({ code: z.int(), message: z.string() }) }),
]);
export type DappResponse = { result: unknown } | { error: { code: number; message: string } };
