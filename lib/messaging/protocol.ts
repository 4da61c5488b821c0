// The one typed protocol between views (popup, options, content script) and the background.
// Requests are zod-parsed by the background before anything acts on them; every answer is
// `{ ok: true, result }` or `{ ok: false, error: { code, message } }`, and the caller parses
// `result` with the schema named for its request type in `RESULT_SCHEMAS`.
import { z } from 'zod';
import { AddressSchema, AmountStringSchema, ChainIdSchema, QuoteSchema, TokenSchema } from '@/lib/api/schema';
import { SettingsSchema } from '@/lib/storage/settings';
import { HistorySchema, SwapStateSchema } from '@/lib/swap/pipeline-state';
import { PrefillSchema } from '@/lib/swap/prefill';
import { QuoteInputSchema, QuoteSessionStateSchema, UserMessageSchema } from '@/lib/swap/session-state';
import { WalletStateSchema } from '@/lib/wallet/state';

const ChainRequest = { chainId: ChainIdSchema };
const Secret = z.string().max(1_000);
const AccountName = z.string().min(1).max(40);

export const RequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('getSettings') }),
  z.object({ type: z.literal('updateSettings'), settings: SettingsSchema }),
  z.object({ type: z.literal('getTokenList'), ...ChainRequest }),
  z.object({ type: z.literal('refreshTokenList'), ...ChainRequest }),
  z.object({ type: z.literal('lookupToken'), ...ChainRequest, address: z.string().max(100) }),
  /** Which of these addresses are whitelisted tokens on the chain (content script, batched). */
  z.object({
    type: z.literal('whitelistedTokens'),
    ...ChainRequest,
    addresses: z.array(AddressSchema).max(500),
  }),
  z.object({ type: z.literal('getQuoteSession') }),
  z.object({ type: z.literal('setQuoteInput'), input: QuoteInputSchema.nullable() }),
  z.object({ type: z.literal('markTyping') }),
  z.object({ type: z.literal('refreshQuote') }),
  /** A one-click quote for a token seen on an explorer page (content script). */
  z.object({ type: z.literal('oneClickQuote'), ...ChainRequest, token: AddressSchema }),
  /** Open the popup on the swap screen with this token and chain (content script). */
  z.object({ type: z.literal('openPopupPrefilled'), ...ChainRequest, token: AddressSchema }),
  /** The chain of the explorer page the content script runs on, from the sender's URL (content script). */
  z.object({ type: z.literal('explorerChain') }),
  /** Add (chainId) or remove (null) an explorer host of the user's; adding needs its permission first. */
  z.object({
    type: z.literal('setExplorerHost'),
    host: z.string().max(260),
    chainId: ChainIdSchema.nullable(),
  }),
  /** The prefill the popup should start from, consumed once. */
  z.object({ type: z.literal('takePrefill') }),
  // Wallet (views only). Secrets and passwords are bounded strings; the background validates them.
  z.object({ type: z.literal('walletState') }),
  z.object({ type: z.literal('walletStartCreate'), words: z.union([z.literal(12), z.literal(24)]) }),
  z.object({
    type: z.literal('walletConfirmCreate'),
    password: Secret,
    confirmation: Secret,
    answers: z
      .array(z.object({ position: z.number().int().min(1).max(24), word: z.string().max(20) }))
      .max(24),
  }),
  z.object({
    type: z.literal('walletImport'),
    kind: z.enum(['mnemonic', 'privateKey']),
    secret: Secret,
    password: Secret,
    confirmation: Secret,
  }),
  z.object({ type: z.literal('walletUnlock'), password: Secret }),
  z.object({ type: z.literal('walletLock') }),
  z.object({ type: z.literal('walletAddAccount'), name: AccountName.optional() }),
  z.object({ type: z.literal('walletImportKey'), privateKey: Secret, name: AccountName.optional() }),
  z.object({ type: z.literal('walletRename'), id: z.string().max(100), name: AccountName }),
  z.object({ type: z.literal('walletSetActive'), id: z.string().max(100) }),
  z.object({ type: z.literal('walletReveal'), password: Secret, target: z.string().max(100) }),
  // Swaps (views only): execute the session's quote, follow it, balances and history.
  z.object({
    type: z.literal('startSwap'),
    approvalMode: z.enum(['exact', 'unlimited']),
    routerConsent: AddressSchema.optional(),
  }),
  z.object({ type: z.literal('getSwap') }),
  z.object({ type: z.literal('dismissSwap') }),
  z.object({ type: z.literal('getBalances'), ...ChainRequest, tokens: z.array(AddressSchema).max(50) }),
  z.object({ type: z.literal('getHistory') }),
]);
export type Request = z.infer<typeof RequestSchema>;
export type RequestType = Request['type'];

/** DESIGN.md section 1: a content script may look tokens up, ask for a quote, and open the popup. */
export const CONTENT_SCRIPT_REQUESTS: ReadonlySet<RequestType> = new Set<RequestType>([
  'ping',
  'lookupToken',
  'whitelistedTokens',
  'oneClickQuote',
  'openPopupPrefilled',
  'explorerChain',
]);

export const TokenListViewSchema = z.object({
  chainId: ChainIdSchema,
  tokens: z.array(TokenSchema),
  fetchedAt: z.number(),
  status: z.enum(['fresh', 'refreshing', 'stale']),
  refreshError: z.string().optional(),
});

export const TokenLookupSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('listed'), token: TokenSchema }),
  z.object({ status: z.literal('whitelisted'), token: TokenSchema }),
  z.object({ status: z.literal('not-whitelisted'), token: TokenSchema.nullable() }),
  z.object({ status: z.literal('invalid-address'), message: z.string() }),
]);

export const OneClickQuoteSchema = z.object({
  quote: QuoteSchema,
  inSymbol: z.string(),
  outSymbol: z.string(),
});

export const RESULT_SCHEMAS = {
  ping: z.object({ version: z.string(), startedAt: z.number() }),
  getSettings: SettingsSchema,
  updateSettings: SettingsSchema,
  getTokenList: TokenListViewSchema,
  refreshTokenList: TokenListViewSchema,
  lookupToken: TokenLookupSchema,
  whitelistedTokens: z.array(AddressSchema),
  getQuoteSession: QuoteSessionStateSchema,
  setQuoteInput: QuoteSessionStateSchema,
  markTyping: z.null(),
  refreshQuote: QuoteSessionStateSchema,
  oneClickQuote: OneClickQuoteSchema,
  openPopupPrefilled: z.object({ opened: z.boolean() }),
  takePrefill: PrefillSchema.nullable(),
  explorerChain: z.object({ chainId: ChainIdSchema.nullable() }),
  setExplorerHost: SettingsSchema,
  walletState: WalletStateSchema,
  walletStartCreate: z.object({ mnemonic: z.string(), confirmPositions: z.array(z.number().int()) }),
  walletConfirmCreate: WalletStateSchema,
  walletImport: WalletStateSchema,
  walletUnlock: WalletStateSchema,
  walletLock: WalletStateSchema,
  walletAddAccount: WalletStateSchema,
  walletImportKey: WalletStateSchema,
  walletRename: WalletStateSchema,
  walletSetActive: WalletStateSchema,
  walletReveal: z.object({ secret: z.string() }),
  startSwap: SwapStateSchema.nullable(),
  getSwap: SwapStateSchema.nullable(),
  dismissSwap: z.null(),
  getBalances: z.record(z.string(), AmountStringSchema),
  getHistory: HistorySchema,
} satisfies Record<RequestType, z.ZodType>;

export type ResultOf<T extends RequestType> = z.infer<(typeof RESULT_SCHEMAS)[T]>;

export const ErrorResultSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** A human message with a next step, when the error came from the service or a check. */
  user: UserMessageSchema.optional(),
});
export type ErrorResult = z.infer<typeof ErrorResultSchema>;

export const ResponseSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorResultSchema }),
]);
export type Response = z.infer<typeof ResponseSchema>;

/** Port through which views follow the quote session: the current state at once, then each change. */
export const QUOTE_SESSION_PORT = 'quote-session';
export const SessionPortMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), state: QuoteSessionStateSchema }),
  z.object({ type: z.literal('swap'), state: SwapStateSchema }),
]);
