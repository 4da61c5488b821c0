// The one typed protocol between views (popup, options, content script) and the background.
// Requests are zod-parsed by the background before anything acts on them; every answer is
// `{ ok: true, result }` or `{ ok: false, error: { code, message } }`, and the caller parses
// `result` with the schema named for its request type in `RESULT_SCHEMAS`.
import * as z from 'zod/mini';
import { AddressSchema, AmountStringSchema, ChainIdSchema, QuoteSchema, TokenSchema } from '@/lib/api/schema';
import { ApprovalsStateSchema, DappResponseSchema } from '@/lib/dapp/approval';
import { SettingsSchema } from '@/lib/settings/settings';
import { ConnectedSitesSchema, DappSettingsSchema } from '@/lib/state/dapp';
import { HistorySchema, SwapStateSchema } from '@/lib/state/pipeline-state';
import { PrefillSchema } from '@/lib/state/prefill';
import { QuoteSessionStateSchema, UserMessageSchema } from '@/lib/state/session-state';
import { FeeEstimateSchema, SwapPreviewSchema } from '@/lib/swap/preview';
import { WalletStateSchema } from '@/lib/wallet/state';
import { TrustStatusSchema } from '@/lib/wallet/trust-mac';
import type { RequestType } from './requests';

export const TokenListViewSchema = z.object({
  chainId: ChainIdSchema,
  tokens: z.array(TokenSchema),
  fetchedAt: z.number(),
  status: z.enum(['fresh', 'refreshing', 'stale']),
  refreshError: z.optional(z.string()),
});

export const TokenLookupSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('listed'), token: TokenSchema }),
  z.object({ status: z.literal('whitelisted'), token: TokenSchema }),
  z.object({ status: z.literal('not-whitelisted'), token: z.nullable(TokenSchema) }),
  z.object({ status: z.literal('invalid-address'), message: z.string() }),
]);

export const OneClickQuoteSchema = z.object({
  quote: QuoteSchema,
  inSymbol: z.string(),
  outSymbol: z.string(),
  /** The chain's name, the settings' slippage (percent) and the origin of the service asked. */
  network: z.string(),
  slippage: z.number(),
  service: z.string(),
});

/**
 * The popup's first frame in one answer: the wallet, settings, the quote session and a swap under
 * way (the session port delivers every later change), and the few listed tokens the session names.
 */
export const PopupStartSchema = z.object({
  wallet: WalletStateSchema,
  settings: SettingsSchema,
  session: QuoteSessionStateSchema,
  swap: z.nullable(SwapStateSchema),
  /** From the cached list only (null when nothing is cached or named); the whole list comes later. */
  tokens: z.nullable(z.object({ chainId: ChainIdSchema, tokens: z.array(TokenSchema) })),
});

const QuoteInsightsSchema = z.object({
  /** The quote these insights are about (the view matches them to the quote it shows). */
  inAmount: AmountStringSchema,
  quoteOutAmount: AmountStringSchema,
  priceImpactBps: z.nullable(z.int()),
  prices: z.object({
    in: z.nullable(AmountStringSchema),
    out: z.nullable(AmountStringSchema),
    native: z.nullable(AmountStringSchema),
  }),
});
export type QuoteInsights = z.infer<typeof QuoteInsightsSchema>;
/** The network fee of the session's quote, as the review will compute it (lib/swap/network-fee.ts). */
const QuoteFeeSchema = z.object({
  /** The quote this fee is about (the view matches it to the quote it shows). */
  inAmount: AmountStringSchema,
  quoteOutAmount: AmountStringSchema,
  gas: AmountStringSchema,
  expected: AmountStringSchema,
  max: AmountStringSchema,
  approvalNeeded: z.boolean(),
  /** 'simulated': the review's simulation of this quote's build; 'about': a remembered or estimated gas. */
  basis: z.enum(['simulated', 'about']),
});
export type QuoteFee = z.infer<typeof QuoteFeeSchema>;
/** What the simulated buy and sell-back found (lib/safety/check.ts), and on which network. */
export const TokenSafetySchema = z.object({
  verdict: z.enum(['clean', 'tax', 'sell-blocked', 'no-pool', 'buy-failed', 'unsupported']),
  buyTaxBps: z.optional(z.int().check(z.minimum(0), z.maximum(10_000))),
  sellTaxBps: z.optional(z.int().check(z.minimum(0), z.maximum(10_000))),
  network: z.string(),
  /** The card's words for the verdict (lib/explorer/safety-text.ts), worded in the background. */
  headline: z.string(),
  detail: z.string(),
});

export const RESULT_SCHEMAS = {
  getSettings: SettingsSchema,
  updateSettings: SettingsSchema,
  trustSettingsStatus: TrustStatusSchema,
  confirmTrustSettings: TrustStatusSchema,
  discardTrustChanges: TrustStatusSchema,
  getTokenList: TokenListViewSchema,
  lookupToken: TokenLookupSchema,
  whitelistedTokens: z.array(AddressSchema),
  setQuoteInput: QuoteSessionStateSchema,
  markTyping: z.null(),
  refreshQuote: QuoteSessionStateSchema,
  oneClickQuote: OneClickQuoteSchema,
  openPopupPrefilled: z.object({ opened: z.boolean() }),
  takePrefill: z.nullable(PrefillSchema),
  explorerChain: z.object({ chainId: z.nullable(ChainIdSchema) }),
  setExplorerHost: SettingsSchema,
  popupStart: PopupStartSchema,
  walletState: WalletStateSchema,
  walletStartCreate: z.object({ mnemonic: z.string(), confirmPositions: z.array(z.int()) }),
  walletConfirmCreate: WalletStateSchema,
  walletImport: WalletStateSchema,
  walletRestore: WalletStateSchema,
  walletUnlock: WalletStateSchema,
  walletLock: WalletStateSchema,
  walletAddAccount: WalletStateSchema,
  walletImportKey: WalletStateSchema,
  walletRename: WalletStateSchema,
  walletSetActive: WalletStateSchema,
  walletReveal: z.object({ secret: z.string() }),
  clipboardClearLater: z.object({ at: z.number() }),
  // Trust boundary (wt-15).
  walletChangePassword: WalletStateSchema,
  previewSwap: SwapPreviewSchema,
  startSwap: z.nullable(SwapStateSchema),
  dismissSwap: z.null(),
  previewReplace: z.object({ reviewId: z.string(), fee: FeeEstimateSchema }),
  replaceSwap: SwapStateSchema,
  pickerTokens: z.object({
    /** lowercase address -> balance (decimal string), non-zero only. */
    held: z.record(z.string(), AmountStringSchema),
    recent: z.array(z.string()),
  }),
  getBalances: z.record(z.string(), AmountStringSchema),
  getHistory: HistorySchema,
  holdings: z.object({
    chainId: ChainIdSchema,
    /** The account the balances are of (null: no account), so a view never shows another's. */
    account: z.nullable(AddressSchema),
    /** lowercase address -> balance (decimal string): the native coin always, tokens when non-zero. */
    balances: z.record(z.string(), AmountStringSchema),
    /** Listed tokens whose balance could not be read. */
    failed: z.int(),
  }),
  // Informed swaps: prices are USD per whole token x 10^8 (decimal strings), null when unknown.
  getPrices: z.record(z.string(), z.nullable(AmountStringSchema)),
  quoteInsights: z.nullable(QuoteInsightsSchema),
  quoteFee: z.nullable(QuoteFeeSchema),
  listApprovals: z.array(
    z.object({
      chainId: ChainIdSchema,
      token: AddressSchema,
      spender: AddressSchema,
      allowance: z.nullable(AmountStringSchema),
    }),
  ),
  previewRevoke: z.object({ reviewId: z.string(), fee: FeeEstimateSchema }),
  revokeApproval: z.object({ hash: z.string(), status: z.enum(['pending', 'confirmed', 'failed']) }),
  servedNetworks: z.array(
    z.object({ chainId: ChainIdSchema, served: z.boolean(), reason: z.nullable(z.string()) }),
  ),
  // ----- Dapps (EIP-1193 provider) -----
  dappInit: z.object({ exposeWindowEthereum: z.boolean(), chainId: z.string() }),
  dappRequest: DappResponseSchema,
  dappResume: DappResponseSchema,
  dappApprovals: ApprovalsStateSchema,
  dappDecide: ApprovalsStateSchema,
  dappSites: ConnectedSitesSchema,
  dappDisconnect: ConnectedSitesSchema,
  dappGetSettings: DappSettingsSchema,
  dappSetSettings: DappSettingsSchema,
  // ----- end of dapps -----
  // Explorer pages (wt-17): the card's token safety check.
  tokenSafety: TokenSafetySchema,
} satisfies Record<RequestType, z.ZodMiniType>;

export type ResultOf<T extends RequestType> = z.infer<(typeof RESULT_SCHEMAS)[T]>;

export const ErrorResultSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** A human message with a next step, when the error came from the service or a check. */
  user: z.optional(UserMessageSchema),
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
