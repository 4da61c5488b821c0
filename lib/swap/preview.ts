// What the review shows before anything is signed: the frozen quote, what the transaction will do
// to the user's balances (from a simulation), the network fee, approvals, and what could not be
// checked. The background builds it (`previewSwap`); the popup renders it; `startSwap` carries the
// preview's digest so the background signs only the quote the user reviewed (QUOTE_CHANGED otherwise).
// zod/mini only: views import this module.
import * as z from 'zod/mini';
import {
  AddressSchema,
  AmountStringSchema,
  DecimalsSchema,
  HexDataSchema,
  QuoteSchema,
} from '@/lib/api/schema';

/** A decimal integer that may be negative (a balance that goes down). */
export const SignedAmountStringSchema = z
  .string()
  .check(z.regex(/^-?(0|[1-9][0-9]{0,77})$/, 'expected a decimal integer'));

/** One transaction's fee, in wei of the chain's native coin (decimal strings). */
export const FeeEstimateSchema = z.object({
  gasLimit: AmountStringSchema,
  maxFeePerGas: AmountStringSchema,
  maxPriorityFeePerGas: AmountStringSchema,
  /** What the user is likely to pay: gas estimate x (base fee + priority fee). */
  expected: AmountStringSchema,
  /** The most it can cost: gasLimit x maxFeePerGas. */
  max: AmountStringSchema,
  /** The RPC suggested more than Swaplane's cap allows, and the cap was applied. */
  capped: z.boolean(),
});
export type FeeEstimate = z.infer<typeof FeeEstimateSchema>;

/** One asset of the user's account, before -> after, as the simulation saw it. */
export const BalanceChangeSchema = z.object({
  token: AddressSchema, // the native coin is NATIVE_TOKEN_ADDRESS
  symbol: z.string(),
  decimals: DecimalsSchema,
  /** Negative: leaves the account; positive: arrives. Fees are not included (see `fees`). */
  delta: SignedAmountStringSchema,
});
export type BalanceChange = z.infer<typeof BalanceChangeSchema>;

export const ApprovalPlanSchema = z.object({
  token: AddressSchema,
  spender: AddressSchema,
  amount: AmountStringSchema,
  unlimited: z.boolean(),
  /** The token needs its allowance set to zero first (USDT-style). */
  resetFirst: z.boolean(),
});
export type ApprovalPlan = z.infer<typeof ApprovalPlanSchema>;

export const PreviewWarningSchema = z.object({
  code: z.string(),
  level: z.enum(['info', 'warning', 'danger']),
  message: z.string(),
  /** The user must tick an acknowledgement before Confirm (sent back in startSwap). */
  needsAcknowledgement: z.boolean(),
});
export type PreviewWarning = z.infer<typeof PreviewWarningSchema>;

// Built on first use (z.lazy caches it): the popup needs it at a review, not on its first screen.
export const SwapPreviewSchema = z.lazy(() =>
  z.object({
    /** The quote under review, frozen: it does not change while the review is open. */
    quote: QuoteSchema,
    /** Digest of the reviewed quote (hex); startSwap must carry it. */
    digest: HexDataSchema,
    reviewedAt: z.number(),
    /** When the frozen quote stops being executable (ms since epoch); then "Get a new quote". */
    expiresAt: z.number(),
    /** The transaction that would be signed (router, calldata, value), as checked. */
    transaction: z.object({ to: AddressSchema, data: HexDataSchema, value: AmountStringSchema }),
    /**
     * Whether the user trusts `transaction.to` for this service and network: 'new' (first swap) or
     * 'changed' (another router was trusted before, `pinned`) need the review's trust tick (the
     * warning of the same code), and startSwap pins the router only for a review that carries it.
     */
    routerTrust: z.optional(
      z.object({ status: z.enum(['trusted', 'new', 'changed']), pinned: z.nullable(AddressSchema) }),
    ),
    approval: z.nullable(ApprovalPlanSchema),
    fees: z.object({
      swap: FeeEstimateSchema,
      approval: z.nullable(FeeEstimateSchema),
      /** Sum of `expected` (and of `max`) over the transactions above. */
      totalExpected: AmountStringSchema,
      totalMax: AmountStringSchema,
    }),
    /** From the simulation; empty when no asset-change simulation was possible (see `simulation`). */
    balanceChanges: z.array(BalanceChangeSchema),
    /** Allowances the transactions would grant (beyond `approval`, normally none). */
    approvalsGranted: z.array(
      z.object({ token: AddressSchema, spender: AddressSchema, amount: AmountStringSchema }),
    ),
    simulation: z.object({
      /** 'assets': every asset change traced (eth_simulateV1); 'call': only eth_call/estimateGas ran. */
      kind: z.enum(['assets', 'call']),
      /** Plain-words guarantees that could not be checked with this RPC. */
      missing: z.array(z.string()),
    }),
    calldata: z.object({
      /** The router call was decoded and its arguments checked against the quote. */
      readable: z.boolean(),
      /** Which router family decoded it, e.g. 'swaplane-router' or 'uniswap-v2-router02'. */
      family: z.nullable(z.string()),
    }),
    warnings: z.array(PreviewWarningSchema),
  }),
);
export type SwapPreview = z.infer<typeof SwapPreviewSchema>;
