// The swap machine's state and the steps every phase shares: persisting each state, failing with
// words that say what was sent, signing and sending, following a transaction to its receipt.
import type { Address, Hex, LocalAccount, TransactionReceipt } from 'viem';
import type { SwapApiClient } from '@/lib/api/client';
import type { userMessageFor } from '@/lib/api/messages';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { sleep as abortableSleep } from '@/lib/async';
import { explorerTxUrl, getChain } from '@/lib/chains';
import { type BalanceReader, balanceOf, createBalanceReader } from '@/lib/rpc/balances';
import type { RpcClient } from '@/lib/rpc/network';
import { isRpcUnavailable } from '@/lib/rpc/network';
import {
  broadcast,
  type Fees,
  SendError,
  type SignedTx,
  signCall,
  trackTransaction,
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
import { approvalHistoryEntry, createSwapHistory, type SwapHistory, swapHistoryEntry } from './history';
import { createPendingSwapStore, type PendingSwapStore } from './pending-store';
import { sentNote, swapFailureMessage } from './pipeline-messages';
import { hashesAtNonce } from './replace';
import { createRouterPins, type RouterPins } from './router-pins';

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

export const SEND_FAILURES: Readonly<Record<SendError['code'], SwapFailureCode>> = {
  NONCE_CONFLICT: 'NONCE_CONFLICT',
  REPLACEMENT_UNDERPRICED: 'REPLACEMENT_UNDERPRICED',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_GAS_FUNDS',
  RPC_UNAVAILABLE: 'RPC_UNAVAILABLE',
  REJECTED: 'SEND_FAILED',
};

/** Thrown inside a run to stop it; turned into the `failed` state. */
export class Stop extends Error {
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
export class Halt extends Error {}

/** One swap's machine: its dependencies and the latest state. */
export class MachineCore {
  readonly client: RpcClient;
  readonly api: Pick<SwapApiClient, 'quote' | 'build'>;
  readonly timing: SwapTiming;
  readonly pins: RouterPins;
  readonly store: PendingSwapStore;
  readonly history: SwapHistory;
  readonly now: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly newId: () => string;
  balances: BalanceReader | undefined;
  state: SwapState | null = null;

  constructor(readonly deps: SwapDeps) {
    this.client = deps.client;
    this.api = deps.api;
    this.timing = { ...DEFAULT_SWAP_TIMING, ...deps.timing };
    this.pins = deps.pins ?? createRouterPins();
    this.store = deps.store ?? createPendingSwapStore();
    this.history = deps.history ?? createSwapHistory();
    this.now = deps.now ?? Date.now;
    this.sleep = deps.sleep ?? abortableSleep;
    this.newId = deps.newId ?? (() => `swap-${this.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`);
    this.balances = deps.balances;
  }

  update(patch: Partial<SwapState>): Promise<SwapState> {
    return this.commit({ ...this.current(), ...patch });
  }

  moveTo(status: SwapStatus, patch: Partial<SwapState> = {}): Promise<SwapState> {
    return this.update({ ...patch, status });
  }

  balanceReader(chainId: number): BalanceReader {
    this.balances ??= createBalanceReader({ client: this.client, chainId });
    return this.balances;
  }

  async commit(next: SwapState): Promise<SwapState> {
    this.state = SwapStateSchema.parse({ ...next, updatedAt: this.now() });
    try {
      if (isTerminal(this.state.status)) await this.store.remove(this.state.id);
      else await this.store.save(this.state);
    } catch {
      // Storage trouble must not stop a swap mid-flight; it only costs resumability.
    }
    this.deps.onChange?.(this.state);
    return this.state;
  }

  current(): SwapState {
    if (!this.state) throw new Error('no swap in progress');
    return this.state;
  }

  anythingSent(s: SwapState): { any: boolean; approval: boolean } {
    const approval = (s.approval?.txs ?? []).some((tx) => tx.sentAt !== null);
    const swap = s.tx?.sentAt != null;
    return { any: approval || swap, approval: approval && !swap };
  }

  async fail(stop: Stop): Promise<SwapState> {
    const s = this.current();
    const sent = this.anythingSent(s);
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
    const failed = await this.moveTo('failed', { failure });
    if (failed.tx?.sentAt != null) await this.recordSwapHistory(failed);
    return failed;
  }

  /** Any error of a step: our Stop, an unreachable RPC, or a bug (UNEXPECTED). */
  asStop(error: unknown, step: SwapStep): Stop {
    if (error instanceof Stop) return error;
    const detail = error instanceof Error ? error.message : String(error);
    if (isRpcUnavailable(error)) return new Stop('RPC_UNAVAILABLE', step, { detail });
    return new Stop('UNEXPECTED', step, { detail });
  }

  // History is a record, not a step: a storage error there never stops a swap.
  async recordSwapHistory(s: SwapState): Promise<void> {
    const entry = swapHistoryEntry(s, this.now());
    if (entry) await this.history.record(entry).catch(() => undefined);
  }

  async recordApprovalHistory(s: SwapState, tx: ApprovalTxState): Promise<void> {
    const entry = approvalHistoryEntry(s, tx, this.now());
    if (entry) await this.history.record(entry).catch(() => undefined);
  }

  checkAbort(signal: AbortSignal | undefined, step: SwapStep): void {
    if (signal?.aborted) throw new Stop('CANCELLED', step);
  }

  /** Signs, persists the hash and bytes, then broadcasts: a restart in between loses nothing. */
  async signAndSend(
    account: LocalAccount,
    call: { to: Address; data: Hex; value: bigint; gas: bigint },
    fees: Fees,
    step: SwapStep,
    persistSigned: (signed: SignedTx, tx: SentTx) => Promise<void>,
  ): Promise<SentTx> {
    const signed = await signCall(this.client, account, call, fees);
    const tx: SentTx = {
      hash: signed.hash,
      nonce: signed.nonce,
      raw: signed.raw,
      gasLimit: call.gas.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      explorerUrl: explorerTxUrl(this.current().chainId, signed.hash) ?? null,
      signedAt: this.now(),
      sentAt: null,
    };
    await persistSigned(signed, tx);
    try {
      await broadcast(this.client, signed.raw);
    } catch (error) {
      // No answer is not a refusal: the node may have the transaction (a cut or late answer).
      // Never say "nothing sent" then: track it by hash; the tracker re-broadcasts these same
      // bytes (same nonce, so at most one of them can ever be mined) while the node lacks it.
      if (error instanceof SendError && error.code === 'RPC_UNAVAILABLE')
        return { ...tx, sentAt: this.now() };
      if (error instanceof SendError) {
        const code = SEND_FAILURES[error.code];
        throw new Stop(code, step, { detail: error.message });
      }
      throw error;
    }
    return { ...tx, sentAt: this.now() };
  }

  async nativeBalance(account: Address): Promise<bigint> {
    const snapshot = await this.balanceReader(this.current().chainId).read(account, [NATIVE_TOKEN_ADDRESS]);
    return balanceOf(snapshot, NATIVE_TOKEN_ADDRESS) ?? (await this.client.getBalance({ address: account }));
  }

  async setApprovalTx(tx: ApprovalTxState): Promise<void> {
    const approval = this.current().approval;
    if (!approval) return;
    const txs = approval.txs.filter((t) => t.step !== tx.step);
    await this.update({ approval: { ...approval, txs: [...txs, tx] } });
  }

  /** Follows a sent transaction (approval or swap) until mined, dropped or the signal aborts. */
  follow(tx: { hash: string; nonce: number; raw: string }, from: Address, signal?: AbortSignal) {
    return trackTransaction({
      client: this.client,
      hash: tx.hash as Hex,
      from,
      nonce: tx.nonce,
      raw: tx.raw as Hex,
      pollMs: this.timing.pollMs,
      dropAfterMs: this.timing.dropAfterMs,
      rebroadcastMs: this.timing.rebroadcastMs,
      // A swap sped up or cancelled: the receipt of any transaction at its nonce ends tracking.
      alsoHashes: () => (this.state ? hashesAtNonce(this.state) : []),
      now: this.now,
      sleep: this.sleep,
      ...(signal ? { signal } : {}),
    });
  }
}

export function gasPaidOf(receipt: TransactionReceipt): bigint {
  return receipt.gasUsed * receipt.effectiveGasPrice;
}
