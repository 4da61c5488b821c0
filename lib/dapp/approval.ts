// What the approval window receives about the request it shows: serializable, parsed by the window
// with these schemas like every other answer. Amounts are decimal strings of bigints.
import * as z from 'zod/mini';

const Warning = z.object({ code: z.string(), message: z.string() });

const Field = z.object({ path: z.string(), type: z.string(), value: z.string() });

export const PermitSchema = z.object({
  standard: z.enum(['EIP-2612', 'DAI', 'Permit2']),
  spender: z.string(),
  allowances: z.array(z.object({ token: z.string(), amount: z.string(), unlimited: z.boolean() })),
  expiry: z.nullable(z.number()),
});

const TokenAmount = z.object({
  token: z.string(),
  symbol: z.nullable(z.string()),
  decimals: z.nullable(z.int()),
  /** Signed decimal integer string in the smallest unit. */
  amount: z.string(),
});

export const ApprovalDetailSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('connect'), chainId: z.int() }),
  z.object({
    kind: z.literal('sign'),
    account: z.string(),
    message: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('text'), text: z.string() }),
      z.object({ kind: z.literal('hex'), hex: z.string() }),
    ]),
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
    }),
    fields: z.array(Field),
    permit: z.nullable(PermitSchema),
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
    warnings: z.array(Warning),
  }),
]);
export type ApprovalDetail = z.infer<typeof ApprovalDetailSchema>;

export const ApprovalViewSchema = z.object({
  id: z.string(),
  origin: z.string(),
  warnings: z.array(Warning),
  detail: ApprovalDetailSchema,
});
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;

export const ApprovalsStateSchema = z.object({
  wallet: z.enum(['none', 'locked', 'unlocked']),
  current: z.nullable(ApprovalViewSchema),
  waiting: z.array(z.object({ id: z.string(), origin: z.string(), kind: z.string() })),
});
export type ApprovalsState = z.infer<typeof ApprovalsStateSchema>;

/** What a page gets back for a dapp request: a result or an EIP-1193 error, never a thrown one. */
export const DappResponseSchema = z.union([
  z.object({ result: z.unknown() }),
  z.object({ error: z.object({ code: z.int(), message: z.string() }) }),
]);
export type DappResponse = { result: unknown } | { error: { code: number; message: string } };
