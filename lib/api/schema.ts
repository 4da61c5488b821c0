// The Swap Routing Service contract (docs/API.md) as zod schemas.
// Single source of truth: imported by the extension (to parse responses) and by the
// reference service in service/ (to parse requests and to shape its responses).
// zod/mini, as every schema of lib/: the popup builds and parses them at its start, where the mini
// API is several times cheaper than the classic one (docs/PERFORMANCE.md). The classic API always loaded its
// English messages; mini does not, so they are set here, where every schema module starts.

import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

/** `0x` + 40 hex digits, any letter case. Compare with `sameAddress`, display with viem's getAddress. */
export const AddressSchema = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address: 0x followed by 40 hex digits'));
export type Address = `0x${string}`;

/** The address that stands for a chain's native coin (docs/API.md). */
export const NATIVE_TOKEN_ADDRESS = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' as const;

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function isNativeToken(address: string): boolean {
  return sameAddress(address, NATIVE_TOKEN_ADDRESS);
}

const MAX_UINT256_PLUS_ONE = 2n ** 256n;

/** Smallest-unit amount as a decimal integer string: digits only, no sign, point, exponent or `+`. */
export const AmountStringSchema = z.string().check(
  z.regex(/^(0|[1-9][0-9]*)$/, 'expected a decimal integer string (digits only, no leading zeros)'),
  z.maxLength(78, 'amount does not fit in 256 bits'), // cheap guard before BigInt: 2^256 - 1 has 78 digits
  // 78 digits still reach 10^78 - 1 > 2^256 - 1: the exact bound needs the value.
  z.refine((s) => s.length < 78 || BigInt(s) < MAX_UINT256_PLUS_ONE, 'amount does not fit in 256 bits'),
);

export const ChainIdSchema = z
  .int('chainId must be an integer')
  .check(
    z.positive('chainId must be positive'),
    z.maximum(Number.MAX_SAFE_INTEGER, 'chainId must be a safe integer'),
  );

export const DecimalsSchema = z.int().check(z.minimum(0), z.maximum(255));

/** Slippage in percent (1 means 1%). Bounds are server policy; the contract only asks for a finite number >= 0. */
export const SlippageSchema = z.number().check(z.minimum(0, 'slippage cannot be negative'));

export const BlockNumberSchema = z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));

export const IsoTimestampSchema = z.iso.datetime({ offset: true });

export const TokenExtensionsSchema = z.looseObject({
  opListId: z.string(),
  opTokenId: z.string(),
});

export const TokenSchema = z.object({
  chainId: ChainIdSchema,
  address: AddressSchema,
  name: z.string(),
  symbol: z.string(),
  decimals: DecimalsSchema,
  logoURI: z.string(),
  extensions: z.optional(TokenExtensionsSchema),
});
export type Token = z.infer<typeof TokenSchema>;

/** A search result entry: same Token, `extensions` required. */
export const TokenWithExtensionsSchema = z.extend(TokenSchema, { extensions: TokenExtensionsSchema });
export type TokenWithExtensions = z.infer<typeof TokenWithExtensionsSchema>;

/** GET /v1/tokens/{chain_name}/full */
export const TokenListResponseSchema = z.array(TokenSchema);
/** GET /v1/tokens/{chain_name}/search/{token_address}: entries carry `extensions`. */
export const TokenSearchResponseSchema = z.array(TokenWithExtensionsSchema);

export const QuoteRequestSchema = z.object({
  chainId: ChainIdSchema,
  inToken: AddressSchema,
  outToken: AddressSchema,
  inAmount: AmountStringSchema,
  slippage: SlippageSchema,
  refCode: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
});
export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;

/**
 * A swap entry: the contract does not show its shape, so any JSON object is accepted and kept
 * intact (loose), because /build must receive the quote exactly as it was received.
 * The reference service's entries are documented by `ReferenceSwapSchema`.
 */
export const SwapEntrySchema = z.looseObject({});

export const RouteShareSchema = z.looseObject({
  percent: z
    .number()
    .check(
      z.gt(0, 'a route share must carry more than 0 percent'),
      z.maximum(100, 'a route share cannot carry more than 100 percent'),
    ),
  swaps: z.array(SwapEntrySchema).check(z.minLength(1, 'a route share needs at least one swap')),
});
export type RouteShare = z.infer<typeof RouteShareSchema>;

// Shares are compared after rounding to 1e-9 so 33.3 + 33.3 + 33.4 passes despite float error.
const sumsToHundred = (shares: { percent: number }[]) =>
  Math.abs(shares.reduce((sum, share) => sum + share.percent, 0) - 100) < 1e-9;

export const BestRouteSchema = z
  .array(RouteShareSchema)
  .check(
    z.minLength(1, 'bestRoute needs at least one share'),
    z.refine(sumsToHundred, 'bestRoute shares must sum to 100 percent'),
  );

/** Loose: fields this client does not know are kept, so the quote reaches /build unchanged. */
export const QuoteSchema = z.looseObject({
  chainId: ChainIdSchema,
  inToken: AddressSchema,
  inDecimals: DecimalsSchema,
  inAmount: AmountStringSchema,
  outToken: AddressSchema,
  outDecimals: DecimalsSchema,
  outAmount: AmountStringSchema,
  slippage: SlippageSchema,
  minReceived: AmountStringSchema,
  bestRoute: BestRouteSchema,
  contractAddress: AddressSchema,
  contractMethod: z.string().check(z.minLength(1)),
  blockNumber: BlockNumberSchema,
});
export type Quote = z.infer<typeof QuoteSchema>;

export const QuoteResponseSchema = z.object({
  success: z.literal(true),
  data: QuoteSchema,
  timestamp: IsoTimestampSchema,
});

export const HexDataSchema = z
  .string()
  .check(z.regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex bytes'));

export const BuildResultSchema = z.object({
  to: AddressSchema,
  transaction: HexDataSchema,
  value: AmountStringSchema,
});
export type BuildResult = z.infer<typeof BuildResultSchema>;

export const BuildResponseSchema = z.object({
  success: z.literal(true),
  data: BuildResultSchema,
  timestamp: IsoTimestampSchema,
});

/** Error body (docs/API.md). Clients must still cope with any other body, or none. */
export const ErrorCodeSchema = z.string().check(z.regex(/^[A-Z][A-Z0-9_]*$/, 'error codes are UPPER_SNAKE'));
export const ErrorBodySchema = z.object({
  success: z.literal(false),
  error: z.object({ code: ErrorCodeSchema, message: z.string() }),
  timestamp: IsoTimestampSchema,
});

/** The error codes the reference service sends; other services may send other codes. */
export const ERROR_CODES = {
  badRequest: 'BAD_REQUEST',
  notFound: 'NOT_FOUND',
  unsupportedChain: 'UNSUPPORTED_CHAIN',
  unsupportedTokens: 'UNSUPPORTED_TOKENS',
  tokenNotFound: 'TOKEN_NOT_FOUND',
  noRoute: 'NO_ROUTE',
  slippageOutOfRange: 'SLIPPAGE_OUT_OF_RANGE',
  quoteOutdated: 'QUOTE_OUTDATED',
  invalidQuote: 'INVALID_QUOTE',
  rpcUnavailable: 'RPC_UNAVAILABLE',
  serviceUnavailable: 'SERVICE_UNAVAILABLE',
  /** 429: the client's rate limit; Retry-After says when to ask again. */
  rateLimited: 'RATE_LIMITED',
  /** 422: the route search ran past the service's time bound. */
  routeSearchTooLong: 'ROUTE_SEARCH_TOO_LONG',
} as const;

/**
 * The reference service's swap entry (the contract leaves the shape open; docs/API.md).
 * Amounts are the exact amounts the pool gives at the quoted block; `fee` (hundredths of a basis
 * point) is given for Uniswap V3 pools, whose fee tier is part of the pool's identity.
 */
export const ReferenceSwapSchema = z.object({
  dex: z.string().check(z.minLength(1)),
  pool: AddressSchema,
  tokenIn: AddressSchema,
  tokenOut: AddressSchema,
  amountIn: AmountStringSchema,
  amountOut: AmountStringSchema,
  fee: z.optional(z.int().check(z.minimum(1), z.maximum(999_999))),
});
export type ReferenceSwap = z.infer<typeof ReferenceSwapSchema>;
