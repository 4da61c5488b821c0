// The swap pipeline: ONE state machine from a quote to a confirmed swap, persisted after every
// step (storage.local) so a restarted worker resumes tracking, and so a view can follow it.
//
//   quoting -> building -> checking -> approving -> simulating -> signing -> sent -> confirmed
//        \_________\__________\___________\____________\____________\________\--> failed
//                              \--> needs-consent (new or changed router: ask, then run again)
//
// Nothing is signed before every check passed; every failure says whether anything was sent.
// The steps are in ./step-*.ts; this file only sequences them (the state goes through a Ledger).
import { type Address, getAddress, type Hex, type LocalAccount } from 'viem';
import type { SwapApiClient } from '@/lib/api/client';
import { NATIVE_TOKEN_ADDRESS, type Quote, type QuoteRequest } from '@/lib/api/schema';
import { sleep as abortableSleep } from '@/lib/async';
import { type BalanceReader, balanceOf, createBalanceReader } from '@/lib/rpc/balances';
import { type FeeCeiling, feeCeilingFor } from '@/lib/rpc/fee-ceiling';
import { cappedFees, type FeeEstimate, feeEstimate } from '@/lib/rpc/fees';
import type { RpcClient } from '@/lib/rpc/network';
import { broadcast, SendError, type SignedTx, trackTransaction } from '@/lib/rpc/transactions';
import { isTerminal, type SwapState, SwapStateSchema, type SwapStep } from '@/lib/state/pipeline-state';
import type { PreparedSwap } from '@/lib/state/prepared-swap';
import type { ApprovalMode } from './approval';
import { asFailure, checkAbort, Halt, SwapFailure } from './failure';
import { createSigningFunnel, type ReviewedPlan, type SigningFunnel, type TransactionPlan } from './funnel';
import { createSwapHistory, type SwapHistory } from './history';
import { createPendingSwapStore, type PendingSwapStore } from './pending-store';
import { hashesAtNonce, type ReplacementKind, replacementPlan, replacementRecord } from './replace';
import { createRouterPins, type RouterPins } from './router-pins';
import { checkSwap } from './step-check';
import { checkGasFunds, preflightOnce, readFunds } from './step-preflight';
import { buildSwap, checkQuote, requote, usePrepared } from './step-quote';
import { approve, type Follow, finishApproval, sendSwap } from './step-send';
import { simulateStep } from './step-simulate';
import { followProven, nodeHas, resendSigned, trackSwap } from './step-track';
import { createLedger, failureOf, type Ledger } from './swap-ledger';
import { DEFAULT_SWAP_TIMING, type SwapTiming } from './swap-timing';

export { DEFAULT_SWAP_TIMING, type SwapTiming } from './swap-timing';

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
  /** The user's fee ceiling for the swap's chain (Settings); the chain's default when absent. */
  ceiling?: FeeCeiling;
  /** The signing funnel every transaction is signed in (the background's one); its own when absent. */
  funnel?: SigningFunnel;
}

export interface SwapInput {
  chainId: number;
  /** From the keyring's signerFor: the only signer. */
  account: LocalAccount;
  request: QuoteRequest;
  /** The quote the user confirmed (from the quote session), or null to quote now. */
  quote: Quote | null;
  /**
   * The review's prepared swap (lib/swap/prepare.ts) of `quote`: its checked call is signed as is
   * (no second build), and its asset simulation is reused when the nonce and the approvals needed
   * at Confirm are still the reviewed ones (no second simulation).
   */
  prepared?: PreparedSwap;
  /**
   * The swap review's funnel ticket, taken at Confirm: the reviewed call is signed on it, at no more
   * per gas than the review showed.
   */
  ticket?: ReviewedPlan;
  /** The trust-checked signer, asked again at signing (the account must still be `account`). */
  signer?: () => Promise<LocalAccount>;
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
  /** The speed up or cancel of the sent swap (same nonce, higher fees), to review and sign in the funnel. */
  planReplace(
    kind: ReplacementKind,
    from: Address,
    ceiling?: FeeCeiling,
  ): Promise<{ plan: TransactionPlan; fee: FeeEstimate }>;
  /** Sends the funnel-signed replacement; tracking follows every hash at the nonce. */
  sendReplacement(kind: ReplacementKind, signed: SignedTx): Promise<SwapState>;
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

/** What run and resume share: the deps resolved, the ledger, and the chain helpers. */
interface Machine {
  client: RpcClient;
  api: Pick<SwapApiClient, 'quote' | 'build'>;
  pins: RouterPins;
  timing: SwapTiming;
  ledger: Ledger;
  follow: Follow;
  reader: (chainId: number) => BalanceReader;
  /** Forgets cached balances of an account (after an approval or the swap). */
  invalidate: (account: Address) => void;
  newId: () => string;
  ceiling: FeeCeiling;
  funnel: SigningFunnel;
}

export function createSwapMachine(deps: SwapDeps): SwapMachine {
  const { client } = deps;
  const timing: SwapTiming = { ...DEFAULT_SWAP_TIMING, ...deps.timing };
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  const ledger = createLedger(
    deps.store ?? createPendingSwapStore(),
    deps.history ?? createSwapHistory(),
    now,
    deps.onChange,
  );
  let balances = deps.balances;
  const ceiling = deps.ceiling ?? feeCeilingFor(client.chain?.id ?? 0);
  const m: Machine = {
    client,
    api: deps.api,
    pins: deps.pins ?? createRouterPins(),
    timing,
    ledger,
    follow: (tx, from, signal) =>
      trackTransaction({
        client,
        hash: tx.hash as Hex,
        from,
        nonce: tx.nonce,
        ...(tx.raw ? { raw: tx.raw as Hex } : {}),
        pollMs: timing.pollMs,
        dropAfterMs: timing.dropAfterMs,
        rebroadcastMs: timing.rebroadcastMs,
        // A swap sped up or cancelled: the receipt of any transaction at its nonce ends tracking.
        alsoHashes: () => {
          const state = ledger.peek();
          return state ? hashesAtNonce(state) : [];
        },
        now,
        sleep,
        ...(signal ? { signal } : {}),
      }),
    reader: (chainId) => {
      balances ??= createBalanceReader({ client, chainId });
      return balances;
    },
    invalidate: (account) => balances?.invalidate(account),
    newId: deps.newId ?? (() => `swap-${now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`),
    ceiling,
    funnel: deps.funnel ?? createSigningFunnel({ ceilingFor: () => ceiling }),
  };

  /** The speed up or cancel of the sent swap, as a plan for the signing funnel. */
  async function planReplace(kind: ReplacementKind, from: Address, ceiling?: FeeCeiling) {
    const fees = await cappedFees(client, ceiling);
    const plan = await replacementPlan({ state: ledger.current(), kind, from, fees });
    return { plan, fee: feeEstimate(plan.gas, plan.gas, { ...fees, ...plan.fees }) };
  }

  /** Sends a signed replacement and records it: tracking then follows every hash at the nonce. */
  async function sendReplacement(kind: ReplacementKind, signed: SignedTx): Promise<SwapState> {
    await broadcast(client, signed.raw);
    const { tx, replacement } = replacementRecord(ledger.current(), kind, signed, now());
    return ledger.update({ tx, replacements: [...(ledger.current().replacements ?? []), replacement] });
  }

  return {
    run: (input) => run(m, input),
    resume: (saved, options) => resume(m, saved, options),
    planReplace,
    sendReplacement,
    current: () => ledger.peek(),
  };
}

/** The failed state of a SwapFailure; a failed swap that was sent is in the history too. */
async function fail(ledger: Ledger, failure: SwapFailure): Promise<SwapState> {
  const failed = await ledger.moveTo('failed', { failure: failureOf(failure, ledger.current()) });
  if (failed.tx?.sentAt != null) await ledger.recordSwap(failed);
  return failed;
}

function firstState(m: Machine, input: SwapInput): SwapState {
  const created = m.ledger.now();
  return {
    id: m.newId(),
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
  };
}

async function run(m: Machine, input: SwapInput): Promise<SwapState> {
  const { client, ledger, timing, api } = m;
  const { signal, prepared } = input;
  const first = firstState(m, input);
  ledger.set(null);
  await ledger.commit(first);
  let step: SwapStep = 'network';
  try {
    const from = input.account.address;
    const rpcChain = await client.getChainId();
    if (rpcChain !== input.chainId) {
      throw new SwapFailure({ code: 'RPC_WRONG_CHAIN', step: 'network', detail: `rpc chain ${rpcChain}` });
    }

    // 1. The confirmed quote, or a fresh one.
    step = 'quote';
    const confirmedMin = input.quote ? BigInt(input.quote.minReceived) : null;
    let quote = input.quote;
    if (quote) checkQuote({ request: input.request, quote });
    if (!quote || input.quoteStale) quote = await requote({ api, ledger, input, confirmedMin });
    checkAbort(signal, 'quote');

    // 2. The prepared build of the reviewed quote; else build (one automatic re-quote if outdated).
    step = 'build';
    const built =
      prepared && quote === input.quote
        ? await usePrepared({ ledger, quote, build: prepared.build })
        : await buildSwap({ api, ledger, input, quote, confirmedMin });
    quote = built.quote;
    checkAbort(signal, 'build');

    // 3. Build checks and the router pin.
    step = 'check';
    const checked = await checkSwap({
      ledger,
      pins: m.pins,
      input: { ...input, from },
      quote,
      build: built.build,
    });
    const { router, swapCall } = checked;

    // 4. Balances, allowance, fees and nonce again (they can change while a review is open), then
    // the review's simulation (or a preflight when they did), before anything is sent.
    step = 'balance';
    const reader = m.reader(input.chainId);
    const { approvalMode, account } = input;
    const signing = {
      funnel: m.funnel,
      signer: input.signer ?? (async () => account),
      reviewed: input.ticket,
    };
    const ceiling = m.ceiling;
    const funds = await readFunds({ client, ledger, reader, from, quote, router, approvalMode, ceiling });
    step = 'preflight';
    const result = await preflightOnce({ client, from, quote, checked, funds, build: built.build, prepared });
    step = 'balance';
    const gasMarginPercent = timing.gasMarginPercent;
    await checkGasFunds({ ledger, quote, swapValue: swapCall.value, funds, result, gasMarginPercent });
    checkAbort(signal, 'balance');

    // 5. Approvals, each to its receipt.
    if (funds.approvalCalls.length > 0) {
      step = 'approve';
      const calls = funds.approvalCalls;
      const follow = m.follow;
      await approve({ client, ledger, follow, from, calls, gasMarginPercent, signal, signing, ceiling });
      m.invalidate(from);
    }

    // 6. Simulate the swap itself, then the exact gas check.
    step = 'simulate';
    const nativeBalance = async (holder: Address) => {
      const snapshot = await reader.read(holder, [NATIVE_TOKEN_ADDRESS]);
      return balanceOf(snapshot, NATIVE_TOKEN_ADDRESS) ?? (await client.getBalance({ address: holder }));
    };
    const minReceived = BigInt(quote.minReceived);
    const simulated = await simulateStep({
      ...{ client, ledger, from, swapCall, minReceived, gasMarginPercent },
      ...{ nativeBalance, signal, ceiling },
    });

    // 7. Sign, persist, send.
    step = 'sign';
    const { gasLimit: gas, gasEstimate: gasUsed, fees } = simulated;
    const plan = { kind: 'swap', chainId: input.chainId, from, ...swapCall, gas, gasUsed, fees } as const;
    await sendSwap({ client, ledger, plan, signing });

    // 8. Track to the receipt.
    step = 'track';
    return await trackSwap({ ledger, follow: m.follow, invalidate: m.invalidate, signal });
  } catch (error) {
    if (error instanceof Halt) return ledger.current();
    // Once sent, only the chain decides the outcome: keep the swap pending for a resume.
    if (!(error instanceof SwapFailure) && ledger.current().status === 'sent') return ledger.current();
    return fail(ledger, asFailure(error, step));
  }
}

async function resume(
  m: Machine,
  saved: SwapState,
  options: { signal?: AbortSignal } = {},
): Promise<SwapState> {
  const { ledger } = m;
  const s = SwapStateSchema.parse(saved);
  ledger.set(s);
  if (isTerminal(s.status)) return s;
  try {
    // Stored bytes are re-broadcast only when proven the account's own (step-track.ts).
    const follow = followProven(m.follow, s.chainId);
    const tracking = { ledger, follow, invalidate: m.invalidate, signal: options.signal };
    if (s.status === 'sent') return await trackSwap(tracking);
    if (s.status === 'signing' && s.tx) {
      await resendSigned({
        client: m.client,
        ledger,
        tx: s.tx,
        resumeSendWindowMs: m.timing.resumeSendWindowMs,
      });
      return await trackSwap(tracking);
    }
    // Before the swap was sent: finish any approval that was in flight, then stop. One signed but
    // not recorded as sent is in flight if the node has it (the worker stopped between the two):
    // followed too, so the next review sees its allowance instead of signing it again.
    for (const tx of s.approval?.txs ?? []) {
      if (tx.status !== 'pending') continue;
      if (tx.sentAt === null && !(await nodeHas(m.client, tx.hash))) continue;
      await finishApproval({
        ledger,
        follow,
        tx: { ...tx, sentAt: tx.sentAt ?? ledger.now() },
        from: s.account as Address,
        signal: options.signal,
      });
    }
    throw new SwapFailure({ code: 'INTERRUPTED', step: 'resume' });
  } catch (error) {
    if (error instanceof SendError)
      return fail(ledger, new SwapFailure({ code: 'INTERRUPTED', step: 'resume', detail: error.message }));
    return fail(ledger, asFailure(error, 'resume'));
  }
}
