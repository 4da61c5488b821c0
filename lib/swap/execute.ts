// The swap pipeline: ONE state machine from a quote to a confirmed swap, persisted after every
// step (storage.local) so a restarted worker resumes tracking, and so a view can follow it.
//
//   quoting -> building -> checking -> approving -> simulating -> signing -> sent -> confirmed
//        \_________\__________\___________\____________\____________\________\--> failed
//                              \--> needs-consent (new or changed router: ask, then run again)
//
// Nothing is signed before every check passed; every failure says whether anything was sent.
import type { Address, Hex, LocalAccount } from 'viem';
import type { Quote, QuoteRequest } from '@/lib/api/schema';
import { cappedFees } from '@/lib/rpc/fees';
import { isRpcUnavailable } from '@/lib/rpc/network';
import { broadcast, SendError } from '@/lib/rpc/transactions';
import { isTerminal, type SwapState, SwapStateSchema } from '@/lib/state/pipeline-state';
import type { ApprovalMode } from './approval';
import { Halt, MachineCore, Stop, type SwapDeps } from './machine-core';
import { createPendingSwapStore, type PendingSwapStore } from './pending-store';
import { type ReplacementKind, replaceSentSwap } from './replace';
import {
  beginRun,
  checkFundsAndPreflight,
  checkRouter,
  quoteAndBuild,
  type RunProgress,
  simulateBeforeSigning,
} from './run-phases';
import { approve, finishApproval, trackSwap } from './steps';

export { DEFAULT_SWAP_TIMING, type SwapDeps, type SwapTiming } from './machine-core';

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

export function createSwapMachine(deps: SwapDeps): SwapMachine {
  const m = new MachineCore(deps);
  return {
    run: (input) => runSwap(m, input),
    resume: (saved, options) => resumeRun(m, saved, options),
    replace: (kind, account) => replaceSent(m, kind, account),
    current: () => m.state,
  };
}

/** The run: each phase in order, persisted after every step; a failure says whether anything was sent. */
async function runSwap(m: MachineCore, input: SwapInput): Promise<SwapState> {
  await beginRun(m, input);
  const at: RunProgress = { step: 'network' };
  try {
    const { quote, build } = await quoteAndBuild(m, input, at);
    at.step = 'check';
    const route = await checkRouter(m, input, quote, build);
    const { approvalCalls } = await checkFundsAndPreflight(m, input, quote, route, at);

    // 5. Approvals, each to its receipt.
    if (approvalCalls.length > 0) {
      at.step = 'approve';
      await approve(m, input, approvalCalls);
    }

    // 6. Simulate the swap itself, then the exact gas check.
    at.step = 'simulate';
    const { sim, fees } = await simulateBeforeSigning(m, input, route.swapCall, BigInt(quote.minReceived));

    // 7. Sign, persist, send.
    at.step = 'sign';
    await m.moveTo('signing');
    const sent = await m.signAndSend(
      input.account,
      { ...route.swapCall, gas: sim.gasLimit },
      fees,
      'send',
      (_s, tx) => m.update({ tx }).then(() => undefined),
    );
    const sentState = await m.moveTo('sent', { tx: sent });
    await m.recordSwapHistory(sentState);

    // 8. Track to the receipt.
    at.step = 'track';
    return await trackSwap(m, input.signal);
  } catch (error) {
    if (error instanceof Halt) return m.current();
    // Once sent, only the chain decides the outcome: keep the swap pending for a resume.
    if (!(error instanceof Stop) && m.current().status === 'sent') return m.current();
    return m.fail(m.asStop(error, at.step));
  }
}

async function resumeRun(
  m: MachineCore,
  saved: SwapState,
  options: { signal?: AbortSignal } = {},
): Promise<SwapState> {
  m.state = SwapStateSchema.parse(saved);
  const s = m.state;
  if (isTerminal(s.status)) return s;
  try {
    if (s.status === 'sent') return await trackSwap(m, options.signal);
    if (s.status === 'signing' && s.tx) {
      const tx = s.tx;
      const known = await m.client.getTransaction({ hash: tx.hash as Hex }).then(
        () => true,
        (error: unknown) => {
          if (isRpcUnavailable(error)) throw error;
          return false;
        },
      );
      if (!known) {
        const used = await m.client.getTransactionCount({
          address: s.account as Address,
          blockTag: 'latest',
        });
        const receipt = await m.client.getTransactionReceipt({ hash: tx.hash as Hex }).catch(() => null);
        if (!receipt) {
          if (used > tx.nonce || m.now() - tx.signedAt > m.timing.resumeSendWindowMs) {
            throw new Stop('INTERRUPTED', 'resume', { detail: 'signed swap was never broadcast' });
          }
          await broadcast(m.client, tx.raw as Hex);
        }
      }
      await m.moveTo('sent', { tx: { ...tx, sentAt: tx.sentAt ?? m.now() } });
      await m.recordSwapHistory(m.current());
      return await trackSwap(m, options.signal);
    }
    // Before the swap was sent: finish any approval that was in flight, then stop.
    for (const tx of s.approval?.txs ?? []) {
      if (tx.status !== 'pending' || tx.sentAt === null) continue;
      await finishApproval(m, tx, s.account as Address, options.signal);
    }
    throw new Stop('INTERRUPTED', 'resume');
  } catch (error) {
    if (error instanceof SendError)
      return m.fail(new Stop('INTERRUPTED', 'resume', { detail: error.message }));
    return m.fail(m.asStop(error, 'resume'));
  }
}

async function replaceSent(m: MachineCore, kind: ReplacementKind, account: LocalAccount): Promise<SwapState> {
  const { tx, replacement } = await replaceSentSwap({
    client: m.client,
    account,
    state: m.current(),
    kind,
    fees: await cappedFees(m.client),
    now: m.now(),
  });
  return m.update({ tx, replacements: [...(m.current().replacements ?? []), replacement] });
}
