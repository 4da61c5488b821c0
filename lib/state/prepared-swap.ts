// The prepared swap (lib/swap/prepare.ts): everything a review shows and a Confirm signs, as one
// typed value. It lives in storage.session while its review is open, so a review opened before the
// worker stopped still confirms after it restarts. storage holds JSON: amounts are stored as decimal
// strings and read back as bigints (one shape, two number types). zod/mini only, no viem.
import * as z from 'zod/mini';
import {
  AddressSchema,
  AmountStringSchema,
  BuildResultSchema,
  ChainIdSchema,
  DecimalsSchema,
  HexDataSchema,
  QuoteRequestSchema,
  QuoteSchema,
} from '@/lib/api/schema';
import { ApprovalModeSchema } from './pipeline-state';

const SignedStringSchema = z
  .string()
  .check(z.regex(/^-?(0|[1-9][0-9]{0,77})$/, 'expected a decimal integer'));
const BigSchema = z.pipe(
  SignedStringSchema,
  z.transform((s: string) => BigInt(s)),
);
const UnsignedBigSchema = z.pipe(
  AmountStringSchema,
  z.transform((s: string) => BigInt(s)),
);

/** One transaction's fee as the review shows it (decimal strings; the preview's FeeEstimate). */
const ShownFeeSchema = z.object({
  gasLimit: AmountStringSchema,
  maxFeePerGas: AmountStringSchema,
  maxPriorityFeePerGas: AmountStringSchema,
  expected: AmountStringSchema,
  max: AmountStringSchema,
  capped: z.boolean(),
});

function preparedShape<B extends z.ZodMiniType, S extends z.ZodMiniType>(big: B, signed: S) {
  return z.object({
    /** Names this preparation: the review, its stored copy and its funnel ticket. */
    id: z.string().check(z.minLength(1), z.maxLength(100)),
    chainId: ChainIdSchema,
    from: AddressSchema,
    request: QuoteRequestSchema,
    /** The quote under review, frozen. */
    quote: QuoteSchema,
    /** Digest of the quote (hex); a Confirm must carry it. */
    digest: HexDataSchema,
    approvalMode: ApprovalModeSchema,
    /** 'allow' only when the setting "Only sign swap calls Swaplane can read" is off. */
    unreadable: z.enum(['refuse', 'allow']),
    /** The service's build, as returned. */
    build: BuildResultSchema,
    /** The checked call, exactly as it is signed (gas and fees aside). */
    call: z.object({ to: AddressSchema, data: HexDataSchema, value: big }),
    calldata: z.object({ readable: z.boolean(), family: z.nullable(z.string()) }),
    /** The router is new or changed for this service: the user consents in the review. */
    consent: z.nullable(z.enum(['ROUTER_UNPINNED', 'ROUTER_CHANGED'])),
    /** The router trusted until now, when `consent` is ROUTER_CHANGED (the review shows both). */
    pinned: z.nullable(AddressSchema),
    /** The allowance plan: its kind and, when an approval is needed, the amount. */
    allowance: z.object({
      plan: z.enum(['none', 'approve', 'reset-then-approve']),
      allowance: big,
      amount: big,
      unlimited: z.boolean(),
    }),
    /** The approval transactions, in order (reset first when the token needs it). */
    approvals: z.array(
      z.object({ step: z.enum(['reset', 'approve']), to: AddressSchema, data: HexDataSchema, amount: big }),
    ),
    /** Capped fees (fee history caps, then the chain's ceiling). */
    fees: z.object({ maxFeePerGas: big, maxPriorityFeePerGas: big, baseFee: big, capped: z.boolean() }),
    /** The pending nonce the simulation ran at. */
    nonce: z.int().check(z.minimum(0)),
    /** The asset simulation: 'passed' (every change traced) or 'unsupported' (eth_call only). */
    simulation: z.union([
      z.object({ status: z.literal('unsupported') }),
      z.object({
        status: z.literal('passed'),
        deltas: z.array(z.object({ token: z.string(), delta: signed })),
        granted: z.array(z.object({ token: z.string(), spender: z.string(), amount: big })),
        gasUsed: z.array(big),
        violations: z.array(z.never()),
      }),
    ]),
    coverage: z.object({
      kind: z.enum(['assets', 'call']),
      missing: z.array(z.string()),
      swapGas: big,
      approvalGas: z.array(big),
    }),
    shownFees: z.object({ swap: ShownFeeSchema, approval: z.nullable(ShownFeeSchema) }),
    /** The simulation's deltas with their tokens' symbols and decimals (read once). */
    balanceChanges: z.array(
      z.object({
        token: AddressSchema,
        symbol: z.string(),
        decimals: DecimalsSchema,
        delta: SignedStringSchema,
      }),
    ),
    reviewedAt: z.number(),
    expiresAt: z.number(),
  });
}

/** The prepared swap as read (amounts as bigints). */
export const PreparedSwapSchema = preparedShape(UnsignedBigSchema, BigSchema);
export type PreparedSwap = z.output<typeof PreparedSwapSchema>;

/** The prepared swap as stored (amounts as decimal strings). */
export const StoredPreparedSwapSchema = preparedShape(AmountStringSchema, SignedStringSchema);
export type StoredPreparedSwap = z.output<typeof StoredPreparedSwapSchema>;

/** The stored form of a prepared swap: every bigint as its decimal string. */
export function storedPreparedSwap(prepared: PreparedSwap): StoredPreparedSwap {
  return JSON.parse(
    JSON.stringify(prepared, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)),
  );
}

/** A stored prepared swap read back (parsed again: storage is a trust boundary). */
export function preparedSwapOf(stored: unknown): PreparedSwap {
  return PreparedSwapSchema.parse(stored);
}
