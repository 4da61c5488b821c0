// The swap pipeline: ONE state machine from a quote to a confirmed swap, persisted after every
// step (storage.local) so a restarted worker resumes tracking, and so a view can follow it.
//
//   quoting -> building -> checking -> approving -> simulating -> signing -> sent -> confirmed
//        \_________\__________\___________\____________\____________\________\--> failed
//                              \--> needs-consent (new or changed router: ask, then run again)
//
// Nothing is signed before every check passed; every failure says whether anything was sent.
import { type Address, getAddress, type Hex, type LocalAccount, type TransactionReceipt } from 'viem';
import type { SwapApiClient } from '@/lib/api/client';
import { QuoteOutdatedError } from '@/lib/api/errors';
import { userMessageFor } from '@/lib/api/messages';
import {
  ERROR_CODES,
  isNativeToken,
  NATIVE_TOKEN_ADDRESS,
  type Quote,
  type QuoteRequest,
} from '@/lib/api/schema';
import { sleep as abortableSleep } from '@/lib/async';
import { explorerTxUrl, getChain } from '@/lib/chains';
import { type BalanceReader, balanceOf, createBalanceReader } from '@/lib/rpc/balances';
import { cappedFees } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { isRpcUnavailable } from '@/lib/rpc/network';
import {
  broadcast,
  type Fees,
  SendError,
  type SignedTx,
  signCall,
  trackTransaction,
  withGasMargin,
} from '@/lib/rpc/transactions';
import {
  type ApprovalTxState,
  isTerminal,
  type RevertReason,
  type SentTx,
  type SwapFailureCode,
  type SwapState,
  SwapStateSchema,
  type SwapStatus,
  type SwapStep,
} from '@/lib/state/pipeline-state';
import { type ApprovalMode, approvalTransactions, planApproval, readAllowance } from './approval';
import { simulateAssets, simulationGas } from './asset-sim';
import { buildCheckMessage, checkBuild, isConsentReason } from './build-checks';
import { approvalHistoryEntry, createSwapHistory, type SwapHistory, swapHistoryEntry } from './history';
import { createPendingSwapStore, type PendingSwapStore } from './pending-store';
import { sentNote, swapFailureMessage } from './pipeline-messages';
import { assetWords } from './preview-words';
import { hashesAtNonce, type ReplacementKind, replacementOf, replaceSentSwap } from './replace';
import { createRouterPins, type RouterPins } from './router-pins';
import { receivedFromLogs, simulateSwap } from './simulate';
import { verifyFailureMessage, verifyQuote } from './verify';

export interface SwapTiming {
  /** Receipt polling interval. */
  pollMs: number;
  /** Not found while the account's nonce moved on for this long: dropped. */
  dropAfterMs: number;
  /** Re-broadcast a transaction the node forgot (nonce still free) at most this often. */
  rebroadcastMs: number;
  /** A swap signed but maybe not broadcast before a restart is broadcast on resume only this soon after. */
  resumeSendWindowMs: number;
  /** Added to every gas estimate. */
  gasMarginPercent: number;
}

export const DEFAULT_SWAP_TIMING: SwapTiming = {
  pollMs: 1_000,
  dropAfterMs: 60_000,
  rebroadcastMs: 15_000,
  resumeSendWindowMs: 120_000,
  gasMarginPercent: 25,
};

export interface SwapDeps {
  /** The public client of the swap's chain. */
  client: RpcClient;
  api: Pick<SwapApiClient, 'quote' | 'build'>;
  pins?: RouterPins;
  store?: PendingSwapStore;
  history?: SwapHistory;
  /** Invalidated after every approval and swap; one is made from `client` when absent. */
  balances?: BalanceReader;
  /** Every state, in order: what a view follows. */
  onChange?: (state: SwapState) => void;
  timing?: Partial<SwapTiming>;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  newId?: () => string;
}

export interface SwapInput {
  chainId: number;
  /** From the keyring's signerFor: the only signer. */
  account: LocalAccount;
  request: QuoteRequest;
  /** The quote the user confirmed (from the quote session), or null to quote now. */
  quote: Quote | null;
  /** The session says the quote is too old: re-quote before building. */
  quoteStale?: boolean;
  approvalMode?: ApprovalMode;
  /** A router address the user consented to after a needs-consent state. */
  routerConsent?: string;
  /**
   * Calls no known router family reads: 'refuse' (default) or 'allow' (the user acknowledged
   * UNREADABLE_CALLDATA on a review whose asset-change simulation proved the outcome).
   */
  unreadable?: 'refuse' | 'allow';
  /**
   * Before anything is sent: cancels the swap. After an approval or the swap was sent: stops
   * following it; the state stays 'approving' or 'sent' in the pending store for a resume.
   */
  signal?: AbortSignal;
}

export interface SwapMachine {
  run(input: SwapInput): Promise<SwapState>;
  /** Speeds up or cancels the sent swap (same nonce, higher fees); tracking follows every hash. */
  replace(kind: ReplacementKind, account: LocalAccount): Promise<SwapState>;
  /** Continues a persisted swap: tracks a sent one; closes one interrupted before sending. */
  resume(saved: SwapState, options?: { signal?: AbortSignal }): Promise<SwapState>;
  /** The latest state of the current (or last) run. */
  current(): SwapState | null;
}

export { createPendingSwapStore, type PendingSwapStore } from './pending-store';

export function resumeSwap(
  saved: SwapState,
  deps: SwapDeps,
  options?: { signal?: AbortSignal },
): Promise<SwapState> {
  return createSwapMachine(deps).resume(saved, options);
}

/** Resumes every persisted swap; `depsFor` supplies the client of each swap's chain. */
export async function resumePendingSwaps(
  depsFor: (chainId: number) => SwapDeps,
  store: PendingSwapStore = createPendingSwapStore(),
  options?: { signal?: AbortSignal },
): Promise<SwapState[]> {
  const pending = await store.list();
  return Promise.all(
    pending.map((saved) => resumeSwap(saved, { store, ...depsFor(saved.chainId) }, options)),
  );
}

const SEND_FAILURES: Readonly<Record<SendError['code'], SwapFailureCode>> = {
  NONCE_CONFLICT: 'NONCE_CONFLICT',
  REPLACEMENT_UNDERPRICED: 'REPLACEMENT_UNDERPRICED',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_GAS_FUNDS',
  RPC_UNAVAILABLE: 'RPC_UNAVAILABLE',
  REJECTED: 'SEND_FAILED',
};

/** Thrown inside a run to stop it; turned into the `failed` state. */
class Stop extends Error {
  constructor(
    readonly code: SwapFailureCode,
    readonly step: SwapStep,
    readonly extra: {
      detail?: string;
      revert?: RevertReason;
      message?: ReturnType<typeof userMessageFor>;
    } = {},
  ) {
    super(code);
  }
}

/** Thrown inside a run to return the current state as it is (needs-consent, or detached tracking). */
class Halt extends Error {}

export function createSwapMachine(deps: SwapDeps): SwapMachine {
  const { client, api } = deps;
  const timing: SwapTiming = { ...DEFAULT_SWAP_TIMING, ...deps.timing };
  const pins = deps.pins ?? createRouterPins();
  const store = deps.store ?? createPendingSwapStore();
  const history = deps.history ?? createSwapHistory();
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  const newId = deps.newId ?? (() => `swap-${now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`);
  let balances = deps.balances;
  let state: SwapState | null = null;

  function balanceReader(chainId: number): BalanceReader {
    balances ??= createBalanceReader({ client, chainId });
    return balances;
  }

  async function commit(next: SwapState): Promise<SwapState> {
    state = SwapStateSchema.parse({ ...next, updatedAt: now() });
    try {
      if (isTerminal(state.status)) await store.remove(state.id);
      else await store.save(state);
    } catch {
      // Storage trouble must not stop a swap mid-flight; it only costs resumability.
    }
    deps.onChange?.(state);
    return state;
  }

  function current(): SwapState {
    if (!state) throw new Error('no swap in progress');
    return state;
  }

  const update = (patch: Partial<SwapState>) => commit({ ...current(), ...patch });
  const moveTo = (status: SwapStatus, patch: Partial<SwapState> = {}) => update({ ...patch, status });

  function anythingSent(s: SwapState): { any: boolean; approval: boolean } {
    const approval = (s.approval?.txs ?? []).some((tx) => tx.sentAt !== null);
    const swap = s.tx?.sentAt != null;
    return { any: approval || swap, approval: approval && !swap };
  }

  async function fail(stop: Stop): Promise<SwapState> {
    const s = current();
    const sent = anythingSent(s);
    const context = {
      anythingSent: sent.any,
      approvalSent: sent.approval,
      ...(stop.extra.revert ? { revert: stop.extra.revert } : {}),
      nativeSymbol: getChain(s.chainId)?.nativeSymbol ?? 'ETH',
    };
    // A message from another layer (API client, build checks) still ends by saying what was sent.
    const given = stop.extra.message;
    const message = given
      ? { ...given, detail: `${given.detail} ${sentNote(context)}` }
      : swapFailureMessage(stop.code, context);
    const failure = {
      step: stop.step,
      code: stop.code,
      message,
      anythingSent: sent.any,
      ...(stop.extra.detail ? { detail: stop.extra.detail.slice(0, 2_000) } : {}),
      ...(stop.extra.revert ? { revert: stop.extra.revert } : {}),
    };
    const failed = await moveTo('failed', { failure });
    if (failed.tx?.sentAt != null) await recordSwapHistory(failed);
    return failed;
  }

  /** Any error of a step: our Stop, an unreachable RPC, or a bug (UNEXPECTED). */
  function asStop(error: unknown, step: SwapStep): Stop {
    if (error instanceof Stop) return error;
    const detail = error instanceof Error ? error.message : String(error);
    if (isRpcUnavailable(error)) return new Stop('RPC_UNAVAILABLE', step, { detail });
    return new Stop('UNEXPECTED', step, { detail });
  }

  // History is a record, not a step: a storage error there never stops a swap.
  async function recordSwapHistory(s: SwapState): Promise<void> {
    const entry = swapHistoryEntry(s, now());
    if (entry) await history.record(entry).catch(() => undefined);
  }

  async function recordApprovalHistory(s: SwapState, tx: ApprovalTxState): Promise<void> {
    const entry = approvalHistoryEntry(s, tx, now());
    if (entry) await history.record(entry).catch(() => undefined);
  }

  // ----- steps -----

  function checkQuote(request: QuoteRequest, quote: Quote): void {
    const verdict = verifyQuote(request, quote);
    if (!verdict.ok) {
      const words = verifyFailureMessage(verdict.reason);
      throw new Stop('QUOTE_REJECTED', 'quote', {
        detail: JSON.stringify(verdict.reason),
        message: words,
      });
    }
  }

  /** A fresh quote; a worse guaranteed minimum than the confirmed quote's needs the user. */
  async function requote(input: SwapInput, confirmedMin: bigint | null): Promise<Quote> {
    await moveTo('quoting');
    let quote: Quote;
    try {
      ({ quote } = await api.quote(input.request, input.signal ? { signal: input.signal } : {}));
    } catch (error) {
      throw new Stop('QUOTE_FAILED', 'quote', { detail: String(error), message: userMessageFor(error) });
    }
    checkQuote(input.request, quote);
    // The decimals were checked on-chain for the reviewed quote: a re-quote may not change them.
    const reviewed = input.quote;
    if (
      reviewed &&
      (quote.inDecimals !== reviewed.inDecimals || quote.outDecimals !== reviewed.outDecimals)
    ) {
      throw new Stop('QUOTE_REJECTED', 'quote', {
        detail: `decimals ${quote.inDecimals}/${quote.outDecimals} differ from ${reviewed.inDecimals}/${reviewed.outDecimals}`,
      });
    }
    await update({ quote, requotes: current().requotes + 1 });
    if (confirmedMin !== null && BigInt(quote.minReceived) < confirmedMin) {
      throw new Stop('PRICE_CHANGED', 'quote', {
        detail: `new minReceived ${quote.minReceived} < confirmed ${confirmedMin}`,
      });
    }
    return quote;
  }

  /** POST /build; one automatic re-quote when the service says the quote is outdated. */
  async function buildFor(input: SwapInput, quote: Quote, confirmedMin: bigint | null) {
    for (let attempt = 0; ; attempt++) {
      await moveTo('building');
      try {
        const { build } = await api.build(quote, input.signal ? { signal: input.signal } : {});
        await update({ build });
        return { build, quote };
      } catch (error) {
        const outdated =
          error instanceof QuoteOutdatedError &&
          (error.serverCode === undefined || error.serverCode === ERROR_CODES.quoteOutdated);
        if (!outdated) {
          throw new Stop('BUILD_FAILED', 'build', { detail: String(error), message: userMessageFor(error) });
        }
        if (attempt >= 1) throw new Stop('QUOTE_OUTDATED', 'build', { detail: String(error) });
        quote = await requote(input, confirmedMin);
      }
    }
  }

  function checkAbort(signal: AbortSignal | undefined, step: SwapStep): void {
    if (signal?.aborted) throw new Stop('CANCELLED', step);
  }

  /** Signs, persists the hash and bytes, then broadcasts: a restart in between loses nothing. */
  async function signAndSend(
    account: LocalAccount,
    call: { to: Address; data: Hex; value: bigint; gas: bigint },
    fees: Fees,
    step: SwapStep,
    persistSigned: (signed: SignedTx, tx: SentTx) => Promise<void>,
  ): Promise<SentTx> {
    const signed = await signCall(client, account, call, fees);
    const tx: SentTx = {
      hash: signed.hash,
      nonce: signed.nonce,
      raw: signed.raw,
      gasLimit: call.gas.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      explorerUrl: explorerTxUrl(current().chainId, signed.hash) ?? null,
      signedAt: now(),
      sentAt: null,
    };
    await persistSigned(signed, tx);
    try {
      await broadcast(client, signed.raw);
    } catch (error) {
      // No answer is not a refusal: the node may have the transaction (a cut or late answer).
      // Never say "nothing sent" then: track it by hash; the tracker re-broadcasts these same
      // bytes (same nonce, so at most one of them can ever be mined) while the node lacks it.
      if (error instanceof SendError && error.code === 'RPC_UNAVAILABLE') return { ...tx, sentAt: now() };
      if (error instanceof SendError) {
        const code = SEND_FAILURES[error.code];
        throw new Stop(code, step, { detail: error.message });
      }
      throw error;
    }
    return { ...tx, sentAt: now() };
  }

  async function nativeBalance(account: Address): Promise<bigint> {
    const snapshot = await balanceReader(current().chainId).read(account, [NATIVE_TOKEN_ADDRESS]);
    return balanceOf(snapshot, NATIVE_TOKEN_ADDRESS) ?? (await client.getBalance({ address: account }));
  }

  async function approve(input: SwapInput, calls: ReturnType<typeof approvalTransactions>): Promise<void> {
    await moveTo('approving');
    for (const call of calls) {
      checkAbort(input.signal, 'approve');
      let gas: bigint;
      try {
        gas = withGasMargin(
          await client.estimateGas({ account: input.account.address, to: call.to, data: call.data }),
          timing.gasMarginPercent,
        );
      } catch (error) {
        if (isRpcUnavailable(error)) throw error;
        throw new Stop('APPROVAL_FAILED', 'approve', { detail: String(error) });
      }
      const fees = await cappedFees(client);
      const amount = call.amount.toString();
      const sent = await signAndSend(
        input.account,
        { ...call, value: 0n, gas },
        fees,
        'approve',
        async (_signed, tx) => {
          await setApprovalTx({ ...tx, step: call.step, amount, status: 'pending', gasPaid: null });
        },
      );
      const pending: ApprovalTxState = { ...sent, step: call.step, amount, status: 'pending', gasPaid: null };
      await setApprovalTx(pending);
      await recordApprovalHistory(current(), pending);
      await finishApproval(pending, input.account.address, input.signal);
    }
    balances?.invalidate(input.account.address);
  }

  async function setApprovalTx(tx: ApprovalTxState): Promise<void> {
    const approval = current().approval;
    if (!approval) return;
    const txs = approval.txs.filter((t) => t.step !== tx.step);
    await update({ approval: { ...approval, txs: [...txs, tx] } });
  }

  /** Follows a sent transaction (approval or swap) until mined, dropped or the signal aborts. */
  function follow(tx: { hash: string; nonce: number; raw: string }, from: Address, signal?: AbortSignal) {
    return trackTransaction({
      client,
      hash: tx.hash as Hex,
      from,
      nonce: tx.nonce,
      raw: tx.raw as Hex,
      pollMs: timing.pollMs,
      dropAfterMs: timing.dropAfterMs,
      rebroadcastMs: timing.rebroadcastMs,
      // A swap sped up or cancelled: the receipt of any transaction at its nonce ends tracking.
      alsoHashes: () => (state ? hashesAtNonce(state) : []),
      now,
      sleep,
      ...(signal ? { signal } : {}),
    });
  }

  /** Waits for an approval's receipt and records it; a revert or a drop stops the swap. */
  async function finishApproval(tx: ApprovalTxState, from: Address, signal?: AbortSignal): Promise<void> {
    const result = await follow(tx, from, signal);
    // Stop following, not cancel: the approval is out there. The state stays 'approving' (persisted)
    // and a resume finishes it.
    if (result.kind === 'aborted') throw new Halt();
    const gasPaid = result.kind === 'mined' ? gasPaidOf(result.receipt).toString() : null;
    const ok = result.kind === 'mined' && result.receipt.status === 'success';
    const done: ApprovalTxState = { ...tx, status: ok ? 'confirmed' : 'failed', gasPaid };
    await setApprovalTx(done);
    await recordApprovalHistory(current(), done);
    if (!ok) {
      throw new Stop('APPROVAL_FAILED', 'approve', {
        detail: result.kind === 'dropped' ? 'approval dropped' : 'approval reverted',
      });
    }
  }

  async function trackSwap(signal: AbortSignal | undefined): Promise<SwapState> {
    const s = current();
    const tx = s.tx;
    if (!tx || !s.quote) throw new Stop('UNEXPECTED', 'track', { detail: 'no transaction to track' });
    const result = await follow(tx, s.account as Address, signal);
    if (result.kind === 'aborted') return current(); // still 'sent': resume later
    balances?.invalidate(s.account as Address);
    if (result.kind === 'dropped') throw new Stop('DROPPED', 'track');
    const receipt = result.receipt;
    const mined = replacementOf(current(), receipt.transactionHash);
    const sentTx = current().tx;
    // The transaction mined at the nonce is the one the state names (an earlier one may have won).
    if (sentTx && sentTx.hash.toLowerCase() !== receipt.transactionHash.toLowerCase()) {
      const hash = receipt.transactionHash;
      await update({ tx: { ...sentTx, hash, explorerUrl: explorerTxUrl(s.chainId, hash) ?? null } });
    }
    if (mined?.kind === 'cancel') {
      throw new Stop('CANCELLED', 'track', {
        message: {
          title: 'Swap cancelled',
          detail:
            'Your cancel transaction replaced the swap: no tokens were swapped, only its network fee was paid.',
          action: 'Start again when you are ready.',
        },
      });
    }
    const success = receipt.status === 'success';
    const received = success
      ? receivedFromLogs(receipt.logs, {
          outToken: s.quote.outToken,
          recipient: s.account,
          router: s.build?.to ?? receipt.to ?? undefined,
        })
      : null;
    await update({
      outcome: {
        status: success ? 'success' : 'reverted',
        blockNumber: receipt.blockNumber.toString(),
        gasUsed: receipt.gasUsed.toString(),
        effectiveGasPrice: receipt.effectiveGasPrice.toString(),
        gasPaid: gasPaidOf(receipt).toString(),
        received: received?.toString() ?? null,
        quotedOut: s.quote.outAmount,
        minReceived: s.quote.minReceived,
        difference: received === null ? null : (received - BigInt(s.quote.outAmount)).toString(),
        confirmedAt: now(),
      },
    });
    if (!success) throw new Stop('REVERTED', 'track');
    const confirmed = await moveTo('confirmed');
    await recordSwapHistory(confirmed);
    return confirmed;
  }

  // ----- the run -----

  async function run(input: SwapInput): Promise<SwapState> {
    const created = now();
    state = null;
    await commit({
      id: newId(),
      status: input.quote && !input.quoteStale ? 'building' : 'quoting',
      chainId: input.chainId,
      account: getAddress(input.account.address),
      approvalMode: input.approvalMode ?? 'exact',
      request: input.request,
      quote: input.quote,
      requotes: 0,
      build: null,
      approval: null,
      simulation: null,
      tx: null,
      outcome: null,
      failure: null,
      consent: null,
      createdAt: created,
      updatedAt: created,
    });
    let step: SwapStep = 'network';
    try {
      const from = input.account.address;
      const rpcChain = await client.getChainId();
      if (rpcChain !== input.chainId) {
        throw new Stop('RPC_WRONG_CHAIN', 'network', { detail: `rpc chain ${rpcChain}` });
      }

      // 1. The confirmed quote, or a fresh one.
      step = 'quote';
      const confirmedMin = input.quote ? BigInt(input.quote.minReceived) : null;
      let quote = input.quote;
      if (quote) checkQuote(input.request, quote);
      if (!quote || input.quoteStale) quote = await requote(input, confirmedMin);
      checkAbort(input.signal, 'quote');

      // 2. Build (one automatic re-quote if outdated).
      step = 'build';
      const built = await buildFor(input, quote, confirmedMin);
      const build = built.build;
      quote = built.quote;
      checkAbort(input.signal, 'build');

      // 3. Build checks and the router pin.
      step = 'check';
      await moveTo('checking');
      const checked = checkBuild({
        request: input.request,
        quote,
        build,
        account: from,
        pinnedRouter: await pins.get(input.chainId),
        unreadable: input.unreadable ?? 'refuse',
        ...(input.routerConsent ? { consentRouter: input.routerConsent } : {}),
      });
      if (!checked.ok) {
        if (isConsentReason(checked.reason)) {
          const reason = checked.reason;
          await moveTo('needs-consent', {
            consent: {
              kind: reason.code,
              router: reason.router,
              pinned: reason.code === 'ROUTER_CHANGED' ? reason.pinned : null,
            },
          });
          throw new Halt();
        }
        const words = buildCheckMessage(checked.reason);
        throw new Stop(
          checked.reason.code === 'QUOTE_MISMATCH' ? 'QUOTE_REJECTED' : 'BUILD_REJECTED',
          'check',
          {
            detail: JSON.stringify(checked.reason),
            message: words,
          },
        );
      }
      if (checked.pin) await pins.pin(input.chainId, checked.router);
      const router = checked.router;
      const swapCall = { to: router, data: build.transaction as Hex, value: BigInt(build.value) };
      const inAmount = BigInt(quote.inAmount);
      const minReceived = BigInt(quote.minReceived);

      // 4. Balances, approval plan, and a preflight of everything, before anything is sent.
      step = 'balance';
      const reader = balanceReader(input.chainId);
      const snapshot = await reader.read(from, [quote.inToken, NATIVE_TOKEN_ADDRESS]);
      const nativeHeld = balanceOf(snapshot, NATIVE_TOKEN_ADDRESS) ?? 0n;
      const inHeld = balanceOf(snapshot, quote.inToken);
      if (inHeld === undefined || inHeld < inAmount) {
        throw new Stop('INSUFFICIENT_BALANCE', 'balance', {
          detail: `have ${inHeld ?? 'unknown'}, need ${inAmount}`,
        });
      }
      const nativeIn = isNativeToken(quote.inToken);
      const allowance = nativeIn ? 0n : await readAllowance(client, quote.inToken as Address, from, router);
      const plan = planApproval({
        token: quote.inToken,
        allowance,
        required: inAmount,
        mode: input.approvalMode ?? 'exact',
      });
      const approvalCalls = nativeIn ? [] : approvalTransactions(plan, quote.inToken as Address, router);
      if (!nativeIn) {
        await update({
          approval: {
            token: getAddress(quote.inToken),
            spender: router,
            plan: plan.kind,
            unlimited: plan.kind === 'none' ? false : plan.unlimited,
            allowance: allowance.toString(),
            required: inAmount.toString(),
            txs: [],
          },
        });
      }
      let fees: Fees = await cappedFees(client);

      step = 'preflight';
      const nonce = await client.getTransactionCount({ address: from, blockTag: 'pending' });
      const preflight = await simulateAssets(client, {
        from,
        nonce,
        fees,
        approvals: approvalCalls.map((call) => ({ to: call.to, data: call.data, value: 0n })),
        swap: swapCall,
        swapGas: simulationGas(quote.bestRoute),
        inToken: quote.inToken,
        outToken: quote.outToken,
        inAmount,
        minReceived,
        router,
      });
      if (preflight.status === 'no-funds') {
        throw new Stop('INSUFFICIENT_GAS_FUNDS', 'balance', { detail: preflight.detail });
      }
      if (preflight.status === 'reverted') {
        throw new Stop(preflight.call === 'swap' ? 'SIMULATION_REVERTED' : 'APPROVAL_FAILED', 'preflight', {
          revert: preflight.revert,
          detail: preflight.revert.text,
        });
      }
      if (preflight.status === 'violated') {
        const low = preflight.violations[0]?.code === 'OUTPUT_LOW';
        throw new Stop(low ? 'SIMULATED_OUTPUT_LOW' : 'BUILD_REJECTED', 'preflight', {
          detail: JSON.stringify(preflight.violations, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
          ...(low ? {} : { message: assetWords(preflight.violations) }),
        });
      }
      if (preflight.status === 'unsupported' && !checked.calldata.readable) {
        // Unreadable calldata is signed only when an asset-change simulation proved the outcome.
        throw new Stop('BUILD_REJECTED', 'preflight', {
          detail: 'unreadable calldata without asset simulation',
        });
      }
      step = 'balance';
      const gasBudget =
        preflight.status === 'passed'
          ? withGasMargin(
              preflight.gasUsed.reduce((a, b) => a + b, 0n),
              timing.gasMarginPercent,
            )
          : 0n;
      if (nativeHeld < swapCall.value + gasBudget * fees.maxFeePerGas) {
        throw new Stop('INSUFFICIENT_GAS_FUNDS', 'balance', {
          detail: `have ${nativeHeld}, need ${swapCall.value} + ${gasBudget} gas at ${fees.maxFeePerGas}`,
        });
      }
      const outKey = (isNativeToken(quote.outToken) ? NATIVE_TOKEN_ADDRESS : quote.outToken).toLowerCase();
      const simulatedIn =
        preflight.status === 'passed' ? preflight.deltas.find((d) => d.token === outKey) : undefined;
      await update({
        simulation: {
          preflight: preflight.status === 'passed' ? 'passed' : 'unsupported',
          gasEstimate: null,
          gasLimit: null,
          simulatedReceived: simulatedIn ? simulatedIn.delta.toString() : null,
        },
      });
      checkAbort(input.signal, 'balance');

      // 5. Approvals, each to its receipt.
      if (approvalCalls.length > 0) {
        step = 'approve';
        await approve(input, approvalCalls);
      }

      // 6. Simulate the swap itself, then the exact gas check.
      step = 'simulate';
      checkAbort(input.signal, 'simulate');
      await moveTo('simulating');
      const sim = await simulateSwap(client, {
        from,
        swap: swapCall,
        minReceived,
        gasMarginPercent: timing.gasMarginPercent,
      });
      if (!sim.ok) {
        if (sim.kind === 'reverted') {
          throw new Stop('SIMULATION_REVERTED', 'simulate', { revert: sim.revert, detail: sim.revert.text });
        }
        throw new Stop('SIMULATED_OUTPUT_LOW', 'simulate', {
          detail: `simulated ${sim.received} < minReceived ${sim.minReceived}`,
        });
      }
      fees = await cappedFees(client);
      const native = await nativeBalance(from);
      if (native < swapCall.value + sim.gasLimit * fees.maxFeePerGas) {
        throw new Stop('INSUFFICIENT_GAS_FUNDS', 'simulate', {
          detail: `have ${native}, need ${swapCall.value} + ${sim.gasLimit} gas at ${fees.maxFeePerGas}`,
        });
      }
      const simulation = current().simulation;
      await update({
        simulation: {
          preflight: simulation?.preflight ?? 'skipped',
          gasEstimate: sim.gasEstimate.toString(),
          gasLimit: sim.gasLimit.toString(),
          simulatedReceived: sim.received?.toString() ?? simulation?.simulatedReceived ?? null,
        },
      });
      checkAbort(input.signal, 'simulate');

      // 7. Sign, persist, send.
      step = 'sign';
      await moveTo('signing');
      const sent = await signAndSend(
        input.account,
        { ...swapCall, gas: sim.gasLimit },
        fees,
        'send',
        (_s, tx) => update({ tx }).then(() => undefined),
      );
      const sentState = await moveTo('sent', { tx: sent });
      await recordSwapHistory(sentState);

      // 8. Track to the receipt.
      step = 'track';
      return await trackSwap(input.signal);
    } catch (error) {
      if (error instanceof Halt) return current();
      // Once sent, only the chain decides the outcome: keep the swap pending for a resume.
      if (!(error instanceof Stop) && current().status === 'sent') return current();
      return fail(asStop(error, step));
    }
  }

  async function resume(saved: SwapState, options: { signal?: AbortSignal } = {}): Promise<SwapState> {
    state = SwapStateSchema.parse(saved);
    const s = state;
    if (isTerminal(s.status)) return s;
    try {
      if (s.status === 'sent') return await trackSwap(options.signal);
      if (s.status === 'signing' && s.tx) {
        const tx = s.tx;
        const known = await client.getTransaction({ hash: tx.hash as Hex }).then(
          () => true,
          (error: unknown) => {
            if (isRpcUnavailable(error)) throw error;
            return false;
          },
        );
        if (!known) {
          const used = await client.getTransactionCount({
            address: s.account as Address,
            blockTag: 'latest',
          });
          const receipt = await client.getTransactionReceipt({ hash: tx.hash as Hex }).catch(() => null);
          if (!receipt) {
            if (used > tx.nonce || now() - tx.signedAt > timing.resumeSendWindowMs) {
              throw new Stop('INTERRUPTED', 'resume', { detail: 'signed swap was never broadcast' });
            }
            await broadcast(client, tx.raw as Hex);
          }
        }
        await moveTo('sent', { tx: { ...tx, sentAt: tx.sentAt ?? now() } });
        await recordSwapHistory(current());
        return await trackSwap(options.signal);
      }
      // Before the swap was sent: finish any approval that was in flight, then stop.
      for (const tx of s.approval?.txs ?? []) {
        if (tx.status !== 'pending' || tx.sentAt === null) continue;
        await finishApproval(tx, s.account as Address, options.signal);
      }
      throw new Stop('INTERRUPTED', 'resume');
    } catch (error) {
      if (error instanceof SendError)
        return fail(new Stop('INTERRUPTED', 'resume', { detail: error.message }));
      return fail(asStop(error, 'resume'));
    }
  }

  async function replace(kind: ReplacementKind, account: LocalAccount): Promise<SwapState> {
    const { tx, replacement } = await replaceSentSwap({
      client,
      account,
      state: current(),
      kind,
      fees: await cappedFees(client),
      now: now(),
    });
    return update({ tx, replacements: [...(current().replacements ?? []), replacement] });
  }

  return { run, resume, replace, current: () => state };
}

function gasPaidOf(receipt: TransactionReceipt): bigint {
  return receipt.gasUsed * receipt.effectiveGasPrice;
}
