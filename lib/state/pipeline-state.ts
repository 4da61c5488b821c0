// What the swap pipeline persists (storage.local) and shows to views: the swap state machine's
// state, history entries and router pins. zod only (no viem), so lib/storage/items.ts and views
// can import it cheaply. Amounts are decimal strings in the smallest unit: storage holds JSON.
import * as z from 'zod/mini';
import {
  AddressSchema,
  AmountStringSchema,
  BuildResultSchema,
  ChainIdSchema,
  HexDataSchema,
  QuoteRequestSchema,
  QuoteSchema,
} from '@/lib/api/schema';
import { UserMessageSchema } from './session-state';

export const TxHashSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'expected a transaction hash'));
/** actual - quoted can be negative. */
export const SignedAmountSchema = z
  .string()
  .check(z.regex(/^-?(0|[1-9][0-9]{0,77})$/, 'expected a decimal integer'));

/**
 * The machine's states, in order:
 * quoting -> building -> checking -> approving -> simulating -> signing -> sent -> confirmed,
 * or failed from any of them, or needs-consent (a new router: nothing sent, ask the user).
 */
export const SwapStatusSchema = z.enum([
  'quoting', // asking the service for a fresh quote (the given one was stale or outdated)
  'building', // POST /v1/build
  'checking', // build checks, balances, preflight simulation of approvals + swap
  'approving', // approval transaction(s) sent, waiting for their receipts
  'simulating', // eth_call + gas estimate of the swap itself
  'signing', // signed, being broadcast
  'sent', // broadcast: hash known, tracking to receipt
  'confirmed', // mined successfully; the outcome is recorded
  'failed', // stopped; `failure` says where, why, and whether anything was sent
  'needs-consent', // the build's router is not the pinned one: ask the user, then run again
]);
export type SwapStatus = z.infer<typeof SwapStatusSchema>;

export const TERMINAL_STATUSES: readonly SwapStatus[] = ['confirmed', 'failed', 'needs-consent'];

export function isTerminal(status: SwapStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export const SwapStepSchema = z.enum([
  'network',
  'quote',
  'build',
  'check',
  'balance',
  'preflight',
  'approve',
  'simulate',
  'sign',
  'send',
  'track',
  'resume',
]);
export type SwapStep = z.infer<typeof SwapStepSchema>;

export const SwapFailureCodeSchema = z.enum([
  'RPC_UNAVAILABLE',
  'RPC_WRONG_CHAIN',
  'QUOTE_FAILED', // the service did not quote (message from the API client's error)
  'QUOTE_REJECTED', // the quote does not answer the request, or its minReceived is inconsistent
  'QUOTE_OUTDATED', // still outdated after one automatic re-quote: ask the user
  'PRICE_CHANGED', // a re-quote guarantees less than the quote the user confirmed
  'BUILD_FAILED',
  'BUILD_REJECTED', // build checks (value, calldata) refused the transaction
  'INSUFFICIENT_BALANCE',
  'INSUFFICIENT_GAS_FUNDS',
  'APPROVAL_FAILED', // an approval reverted or was dropped
  'SIMULATION_REVERTED',
  'SIMULATED_OUTPUT_LOW',
  'NONCE_CONFLICT',
  'REPLACEMENT_UNDERPRICED',
  'SEND_FAILED',
  'FEE_ABOVE_CEILING', // the network asks more per gas than the user's ceiling for this chain
  'GAS_ABOVE_SIMULATION', // the gas limit is above what the simulation used plus its margin
  'REVERTED', // mined, but reverted: gas was paid
  'DROPPED', // gone from the network while the account's nonce moved on
  'INTERRUPTED', // the worker stopped before the swap was sent
  'CANCELLED',
  'UNEXPECTED',
]);
export type SwapFailureCode = z.infer<typeof SwapFailureCodeSchema>;

export const RevertReasonSchema = z.object({
  kind: z.enum(['custom', 'error', 'panic', 'unknown']),
  /** Custom error name, 'Error', 'Panic', or '' when the revert carried no data. */
  name: z.string().check(z.maxLength(200)),
  /** One line for people (also for logs). */
  text: z.string().check(z.maxLength(500)),
  data: z.optional(z.string().check(z.maxLength(2_000))),
});
export type RevertReason = z.infer<typeof RevertReasonSchema>;

export const SwapFailureSchema = z.object({
  step: SwapStepSchema,
  code: SwapFailureCodeSchema,
  message: UserMessageSchema,
  /** Whether any transaction (approval or swap) was broadcast before the failure. */
  anythingSent: z.boolean(),
  /** Technical detail for logs; never shown as the headline. */
  detail: z.optional(z.string().check(z.maxLength(2_000))),
  revert: z.optional(RevertReasonSchema),
});

export const ConsentRequestSchema = z.object({
  kind: z.enum(['ROUTER_UNPINNED', 'ROUTER_CHANGED']),
  router: AddressSchema,
  pinned: z.nullable(AddressSchema),
});

export const ApprovalModeSchema = z.enum(['exact', 'unlimited']);

export const SentTxSchema = z.object({
  hash: TxHashSchema,
  nonce: z.int().check(z.minimum(0)),
  /** The signed transaction: re-broadcast after a restart if the node never saw it. Not secret. */
  raw: HexDataSchema,
  gasLimit: AmountStringSchema,
  maxFeePerGas: AmountStringSchema,
  explorerUrl: z.nullable(z.string()),
  signedAt: z.number(),
  sentAt: z.nullable(z.number()),
});
export type SentTx = z.infer<typeof SentTxSchema>;

export const ApprovalTxStateSchema = z.extend(SentTxSchema, {
  step: z.enum(['reset', 'approve']),
  amount: AmountStringSchema,
  status: z.enum(['pending', 'confirmed', 'failed']),
  gasPaid: z.nullable(AmountStringSchema),
});
export type ApprovalTxState = z.infer<typeof ApprovalTxStateSchema>;

export const ApprovalStateSchema = z.object({
  token: AddressSchema,
  spender: AddressSchema,
  plan: z.enum(['none', 'approve', 'reset-then-approve']),
  unlimited: z.boolean(),
  allowance: AmountStringSchema,
  required: AmountStringSchema,
  txs: z.array(ApprovalTxStateSchema).check(z.maxLength(2)),
});

export const SimulationSchema = z.object({
  /** eth_simulateV1 of approvals + swap ran before anything was sent ('unsupported' by the RPC). */
  preflight: z.enum(['passed', 'unsupported', 'skipped']),
  gasEstimate: z.nullable(AmountStringSchema),
  gasLimit: z.nullable(AmountStringSchema),
  /** What the simulation says the user receives; null when it could not be read. */
  simulatedReceived: z.nullable(AmountStringSchema),
});
export type Simulation = z.infer<typeof SimulationSchema>;

export const SwapOutcomeSchema = z.object({
  status: z.enum(['success', 'reverted']),
  blockNumber: AmountStringSchema,
  gasUsed: AmountStringSchema,
  effectiveGasPrice: AmountStringSchema,
  gasPaid: AmountStringSchema,
  /** From the receipt: Transfer logs of the output token to the user (native: the Swapped event). */
  received: z.nullable(AmountStringSchema),
  quotedOut: AmountStringSchema,
  minReceived: AmountStringSchema,
  /** received - quotedOut. */
  difference: z.nullable(SignedAmountSchema),
  confirmedAt: z.number(),
});

/** A sent swap replaced by the user: sped up (same call) or cancelled (0-value self-transfer). */
export const ReplacementSchema = z.object({
  kind: z.enum(['speed-up', 'cancel']),
  /** The replaced transaction (the one before this replacement). */
  replacedHash: TxHashSchema,
  hash: TxHashSchema,
  at: z.number(),
});
export type Replacement = z.infer<typeof ReplacementSchema>;

export const SwapStateSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(80)),
  status: SwapStatusSchema,
  chainId: ChainIdSchema,
  account: AddressSchema,
  approvalMode: ApprovalModeSchema,
  request: QuoteRequestSchema,
  quote: z.nullable(QuoteSchema),
  /** Automatic re-quotes so far (stale input, one outdated build). */
  requotes: z.int().check(z.minimum(0)),
  build: z.nullable(BuildResultSchema),
  approval: z.nullable(ApprovalStateSchema),
  simulation: z.nullable(SimulationSchema),
  tx: z.nullable(SentTxSchema),
  outcome: z.nullable(SwapOutcomeSchema),
  failure: z.nullable(SwapFailureSchema),
  consent: z.nullable(ConsentRequestSchema),
  /**
   * Replacements of the sent swap (same nonce, higher fees), oldest first; `tx` is the newest. Any
   * of them, or the original, may be the one mined.
   */
  replacements: z.optional(z.array(ReplacementSchema).check(z.maxLength(10))),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** HMAC of what was signed (lib/swap/entry-seal.ts); absent: not trusted for a speed up / cancel. */
  seal: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
});
export type SwapState = z.infer<typeof SwapStateSchema>;

/** Swaps not yet terminal, by id: what a restarted worker resumes. */
export const PendingSwapsSchema = z.array(SwapStateSchema).check(z.maxLength(50));

export const HistoryStatusSchema = z.enum(['pending', 'confirmed', 'failed']);

// Built on first use (z.lazy caches it): the popup imports this module for the swap state its first
// screen parses, and building the history's schemas was part of its start-up.
function historyEntrySchema() {
  const HistoryBase = z.object({
    id: z.string().check(z.minLength(1), z.maxLength(100)),
    chainId: ChainIdSchema,
    account: AddressSchema,
    status: HistoryStatusSchema,
    hash: z.nullable(TxHashSchema),
    explorerUrl: z.nullable(z.string()),
    gasPaid: z.nullable(AmountStringSchema),
    failure: z.nullable(z.object({ code: SwapFailureCodeSchema, title: z.string().check(z.maxLength(200)) })),
    createdAt: z.number(),
    updatedAt: z.number(),
    /** Set when read, never stored: the network was reset since (its transaction is not on it now). */
    earlierChain: z.optional(z.boolean()),
    /** HMAC of the fields the entry never changes (lib/swap/entry-seal.ts); absent: not trusted. */
    seal: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
  });

  const swap = z.extend(HistoryBase, {
    kind: z.literal('swap'),
    inToken: AddressSchema,
    outToken: AddressSchema,
    inDecimals: z.int().check(z.minimum(0), z.maximum(255)),
    outDecimals: z.int().check(z.minimum(0), z.maximum(255)),
    inAmount: AmountStringSchema,
    quotedOut: AmountStringSchema,
    minReceived: AmountStringSchema,
    received: z.nullable(AmountStringSchema),
  });

  const approval = z.extend(HistoryBase, {
    kind: z.literal('approval'),
    /** The swap this approval was sent for. */
    swapId: z.string().check(z.minLength(1), z.maxLength(80)),
    token: AddressSchema,
    spender: AddressSchema,
    amount: AmountStringSchema,
    unlimited: z.boolean(),
    /** The reset-to-zero step of a USDT-like token. */
    reset: z.boolean(),
  });

  return z.discriminatedUnion('kind', [swap, approval]);
}

export const HistoryEntrySchema = z.lazy(historyEntrySchema);
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const HISTORY_LIMIT = 200;
/** Newest first. */
export const HistorySchema = z.array(HistoryEntrySchema).check(z.maxLength(HISTORY_LIMIT));

/** "<service origin> <chainId>": the pin of one swap service on one chain. */
export function routerPinKey(serviceOrigin: string, chainId: number): string {
  return `${serviceOrigin} ${String(chainId)}`;
}

/** "<service origin> <chainId>" -> the router the user trusted for that service on that chain. */
export const RouterPinsSchema = z.record(
  z.string().check(z.regex(/^https?:\/\/[^\s/]+ \d+$/)),
  z.object({ address: AddressSchema, pinnedAt: z.number() }),
);
export type RouterPinsMap = z.infer<typeof RouterPinsSchema>;
