// Requests of the one protocol between views and the background (see protocol.ts for answers).
// Only the background parses requests, so views import this module's types only: its schemas (a
// 40-branch union) are never built in the popup, where start-up time is budgeted (docs/PERFORMANCE.md).
import * as z from 'zod/mini';
import { AddressSchema, ChainIdSchema, HexDataSchema } from '@/lib/api/schema';
import { SettingsSchema } from '@/lib/settings/settings';
import { DappSettingsSchema } from '@/lib/state/dapp';
import { QuoteInputSchema } from '@/lib/state/session-state';

const ChainRequest = { chainId: ChainIdSchema };
const Secret = z.string().check(z.maxLength(1_000));
const AccountName = z.string().check(z.minLength(1), z.maxLength(40));
/** The bridge's key for one request: letters, digits and dashes. */
const BridgeKey = z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/));

export const RequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('getSettings') }),
  z.object({
    type: z.literal('updateSettings'),
    settings: SettingsSchema,
    /** The user confirmed a change of the service, an RPC or an API chain name (options page). */
    confirmTrustChange: z.optional(z.boolean()),
  }),
  // ----- the seal on the trust-deciding settings (lib/background/trust-settings.ts) -----
  z.object({ type: z.literal('trustSettingsStatus') }),
  /** The user checked the current trust-deciding settings and confirms them (wallet unlocked). */
  z.object({ type: z.literal('confirmTrustSettings') }),
  /** The user discards the outside change: each changed field gets back its confirmed value (unlocked). */
  z.object({ type: z.literal('discardTrustChanges') }),
  z.object({ type: z.literal('getTokenList'), ...ChainRequest }),
  z.object({ type: z.literal('lookupToken'), ...ChainRequest, address: z.string().check(z.maxLength(100)) }),
  /** Which of these addresses are whitelisted tokens on the chain (content script, batched). */
  z.object({
    type: z.literal('whitelistedTokens'),
    ...ChainRequest,
    addresses: z.array(AddressSchema).check(z.maxLength(500)),
  }),
  z.object({ type: z.literal('setQuoteInput'), input: z.nullable(QuoteInputSchema) }),
  z.object({ type: z.literal('markTyping') }),
  z.object({ type: z.literal('refreshQuote') }),
  /** A one-click quote for a token seen on an explorer page (content script). */
  z.object({ type: z.literal('oneClickQuote'), ...ChainRequest, token: AddressSchema }),
  /** Open the popup on the swap screen with this token and chain (content script). */
  z.object({
    type: z.literal('openPopupPrefilled'),
    ...ChainRequest,
    token: AddressSchema,
    /** The card's native-coin amount, smallest unit. */
    amount: z.optional(z.string().check(z.regex(/^\d{1,78}$/))),
  }),
  /** The chain of the explorer page the content script runs on, from the sender's URL (content script). */
  z.object({ type: z.literal('explorerChain') }),
  /** Add (chainId) or remove (null) an explorer host of the user's; adding needs its permission first. */
  z.object({
    type: z.literal('setExplorerHost'),
    host: z.string().check(z.maxLength(260)),
    chainId: z.nullable(ChainIdSchema),
  }),
  /** The prefill the popup should start from, consumed once. */
  z.object({ type: z.literal('takePrefill') }),
  /** What the popup's first frame needs, in one answer (views only). */
  z.object({ type: z.literal('popupStart') }),
  // Wallet (views only). Secrets and passwords are bounded strings; the background validates them.
  z.object({ type: z.literal('walletState') }),
  z.object({ type: z.literal('walletStartCreate'), words: z.union([z.literal(12), z.literal(24)]) }),
  z.object({
    type: z.literal('walletConfirmCreate'),
    password: Secret,
    confirmation: Secret,
    answers: z
      .array(
        z.object({
          position: z.int().check(z.minimum(1), z.maximum(24)),
          word: z.string().check(z.maxLength(20)),
        }),
      )
      .check(z.maxLength(24)),
  }),
  z.object({
    type: z.literal('walletImport'),
    kind: z.enum(['mnemonic', 'privateKey']),
    secret: Secret,
    password: Secret,
    confirmation: Secret,
  }),
  /** Forgot password: the wallet made again from its phrase under a new password (views only). */
  z.object({
    type: z.literal('walletRestore'),
    mnemonic: Secret,
    password: Secret,
    confirmation: Secret,
  }),
  z.object({ type: z.literal('walletUnlock'), password: Secret }),
  z.object({ type: z.literal('walletLock') }),
  z.object({ type: z.literal('walletAddAccount'), name: z.optional(AccountName) }),
  z.object({ type: z.literal('walletImportKey'), privateKey: Secret, name: z.optional(AccountName) }),
  z.object({ type: z.literal('walletRename'), id: z.string().check(z.maxLength(100)), name: AccountName }),
  z.object({ type: z.literal('walletSetActive'), id: z.string().check(z.maxLength(100)) }),
  z.object({ type: z.literal('walletReveal'), password: Secret, target: z.string().check(z.maxLength(100)) }),
  /** Clear the clipboard in 30 s if it still holds what was copied (its SHA-256), even after the popup closes. */
  z.object({ type: z.literal('clipboardClearLater'), digest: z.string().check(z.regex(/^[0-9a-f]{64}$/)) }),
  // Trust boundary (wt-15): a new vault password, the current one first.
  z.object({
    type: z.literal('walletChangePassword'),
    password: Secret,
    newPassword: Secret,
    confirmation: Secret,
  }),
  // Swaps (views only): execute the session's quote, follow it, balances and history.
  /** Build, check and simulate the session's quote for the review, freezing the quote (views only). */
  z.object({ type: z.literal('previewSwap'), approvalMode: z.enum(['exact', 'unlimited']) }),
  z.object({
    type: z.literal('startSwap'),
    approvalMode: z.enum(['exact', 'unlimited']),
    routerConsent: z.optional(AddressSchema),
    /** Digest of the reviewed preview's quote: the background refuses another quote (QUOTE_CHANGED). */
    quoteDigest: z.optional(HexDataSchema),
    /** Codes of the preview's warnings the user acknowledged. */
    acknowledged: z.optional(z.array(z.string().check(z.maxLength(60))).check(z.maxLength(20))),
  }),
  z.object({ type: z.literal('dismissSwap') }),
  /** The picker's shortlist: tokens held (of those checked) and swapped lately on the chain. */
  z.object({ type: z.literal('pickerTokens'), ...ChainRequest }),
  /** Speed up or cancel the swap waiting to be mined (same nonce, higher fees). */
  /** Speed up or cancel: first its review (the new fee on screen), then the reviewed one, once. */
  z.object({ type: z.literal('previewReplace'), kind: z.enum(['speed-up', 'cancel']) }),
  z.object({
    type: z.literal('replaceSwap'),
    kind: z.enum(['speed-up', 'cancel']),
    reviewId: z.string().check(z.maxLength(64)),
  }),
  z.object({
    type: z.literal('getBalances'),
    ...ChainRequest,
    tokens: z.array(AddressSchema).check(z.maxLength(50)),
  }),
  z.object({ type: z.literal('getHistory') }),
  /** The home's holdings: the active account's native coin and every listed token it holds. */
  z.object({ type: z.literal('holdings'), ...ChainRequest }),
  // Informed swaps (views only): USD prices, and the price impact and network fee of the session's quote.
  z.object({
    type: z.literal('getPrices'),
    ...ChainRequest,
    tokens: z.array(AddressSchema).check(z.maxLength(20)),
  }),
  z.object({ type: z.literal('quoteInsights'), ...ChainRequest }),
  /** The network fee of the session's quote (its own request: a simulation, never holding the insights). */
  z.object({ type: z.literal('quoteFee'), ...ChainRequest }),
  /** Which networks the configured service and RPCs serve, with the reason for each that is not. */
  z.object({ type: z.literal('servedNetworks') }),
  /** The allowances Swaplane granted, with their on-chain value; revoke one of them (views only). */
  z.object({ type: z.literal('listApprovals') }),
  /** A revoke's review (its capped network fee), then the reviewed revoke, signed once. */
  z.object({
    type: z.literal('previewRevoke'),
    ...ChainRequest,
    token: AddressSchema,
    spender: AddressSchema,
  }),
  z.object({ type: z.literal('revokeApproval'), reviewId: z.string().check(z.maxLength(64)) }),
  // ----- Dapps (EIP-1193 provider; lib/background/handlers/dapp.ts) -----
  /** The provider's start: window.ethereum allowed?, the site's chain (content script). */
  z.object({ type: z.literal('dappInit') }),
  /** A page's EIP-1193 request; the origin is the sender's, as the browser reports it (content script). */
  z.object({
    type: z.literal('dappRequest'),
    method: z.string().check(z.minLength(1), z.maxLength(100)),
    params: z.optional(z.unknown()),
    /** The bridge's key for this request, to ask for its answer again after a worker restart. */
    key: z.optional(BridgeKey),
  }),
  /** The bridge asks again for the answer to its request `key`: its message died with the worker. */
  z.object({ type: z.literal('dappResume'), key: BridgeKey }),
  /** What the approval window shows: the oldest waiting request and the queue (views only). */
  z.object({ type: z.literal('dappApprovals'), selected: z.optional(z.string().check(z.maxLength(100))) }),
  z.object({
    type: z.literal('dappDecide'),
    id: z.string().check(z.maxLength(100)),
    approve: z.boolean(),
    password: z.optional(Secret),
    /** Codes of the warnings the user ticked. */
    acknowledged: z.optional(z.array(z.string().check(z.maxLength(40))).check(z.maxLength(10))),
    /** The accounts the user chose for a connecting site. */
    accounts: z.optional(z.array(AddressSchema).check(z.minLength(1), z.maxLength(50))),
  }),
  z.object({ type: z.literal('dappSites') }),
  z.object({ type: z.literal('dappDisconnect'), origin: z.string().check(z.maxLength(300)) }),
  z.object({ type: z.literal('dappGetSettings') }),
  z.object({ type: z.literal('dappSetSettings'), settings: DappSettingsSchema }),
  // ----- end of dapps -----
  // Explorer pages (wt-17): the card's token safety check.
  /** Simulate a small buy and sell-back of a token not on the service's list (content script). */
  z.object({ type: z.literal('tokenSafety'), ...ChainRequest, token: AddressSchema }),
]);
export type Request = z.infer<typeof RequestSchema>;
export type RequestType = Request['type'];

/** A content script may look tokens up, ask for a quote, and open the popup (docs/ARCHITECTURE.md). */
export const CONTENT_SCRIPT_REQUESTS: ReadonlySet<RequestType> = new Set<RequestType>([
  'lookupToken',
  'whitelistedTokens',
  'oneClickQuote',
  'openPopupPrefilled',
  'explorerChain',
  'dappInit',
  'dappRequest',
  'dappResume',
  'tokenSafety',
]);
