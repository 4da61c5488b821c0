// Sign, broadcast and track one transaction. Signing and sending are split so the caller can
// persist the hash (and the signed bytes) before the network sees them: a worker that dies in
// between can still find, or re-broadcast, exactly that transaction.
import {
  type AccessList,
  type Address,
  BaseError,
  type Hex,
  keccak256,
  type LocalAccount,
  type TransactionReceipt,
} from 'viem';
import { sleep as abortableSleep } from '@/lib/async';
import type { RpcClient } from './network';
import { isRpcUnavailable } from './network';

export interface UnsignedCall {
  to: Address;
  data: Hex;
  value: bigint;
  gas: bigint;
}

/** What signCall signs: `to` null deploys a contract (a site's, reviewed as such in its window). */
export type SignableCall = Omit<UnsignedCall, 'to'> & {
  to: Address | null;
  /** EIP-2930 access list (a site's transaction may carry one): signed as given. */
  accessList?: AccessList;
};

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface SignedTx {
  raw: Hex;
  hash: Hex;
  nonce: number;
  gas: bigint;
  fees: Fees;
}

/** A margin on gas estimates: anvil (and real nodes) have come up short on first swaps through pools. */
export function withGasMargin(estimate: bigint, percent = 25): bigint {
  return (estimate * BigInt(100 + percent) + 99n) / 100n;
}

export async function estimateFees(client: RpcClient): Promise<Fees> {
  const fees = await client.estimateFeesPerGas(); // EIP-1559 by default
  if (fees.maxFeePerGas === undefined || fees.maxPriorityFeePerGas === undefined) {
    throw new Error('the RPC gave no EIP-1559 fees');
  }
  return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}

/** Signs an EIP-1559 transaction with the next nonce (pending block: counts our own queued txs). */
export async function signCall(
  client: RpcClient,
  account: LocalAccount,
  call: SignableCall,
  fees: Fees,
  /** A replacement reuses its transaction's nonce; otherwise the next one. */
  fixedNonce?: number,
): Promise<SignedTx> {
  const chainId = client.chain?.id ?? (await client.getChainId());
  const nonce =
    fixedNonce ?? (await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
  const serializer = client.chain?.serializers?.transaction;
  const raw = await account.signTransaction(
    {
      chainId,
      type: 'eip1559',
      to: call.to,
      data: call.data,
      value: call.value,
      gas: call.gas,
      ...(call.accessList ? { accessList: call.accessList } : {}),
      nonce,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    },
    serializer ? { serializer } : undefined,
  );
  return { raw, hash: keccak256(raw), nonce, gas: call.gas, fees };
}

export type SendErrorCode =
  | 'NONCE_CONFLICT'
  | 'REPLACEMENT_UNDERPRICED'
  | 'INSUFFICIENT_FUNDS'
  | 'RPC_UNAVAILABLE'
  | 'REJECTED';

export class SendError extends Error {
  override readonly name = 'SendError';
  constructor(
    readonly code: SendErrorCode,
    readonly underlying: unknown,
  ) {
    super(`transaction not sent (${code}): ${errorText(underlying).slice(0, 300)}`);
  }
}

/** Every message and detail in an error chain, for matching node error texts. */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 10; depth++) {
    if (current instanceof BaseError) parts.push(current.details ?? '', current.shortMessage);
    if (current instanceof Error) parts.push(current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.filter(Boolean).join(' | ');
}

/** Node answers differ (geth, anvil, erigon…): match what they say, not what viem calls it. */
export function classifySendError(error: unknown): SendErrorCode {
  if (isRpcUnavailable(error)) return 'RPC_UNAVAILABLE';
  const text = errorText(error).toLowerCase();
  if (
    /replacement (transaction )?underpriced|replacement fee too low|already imported with higher/.test(text)
  ) {
    return 'REPLACEMENT_UNDERPRICED';
  }
  if (
    /nonce too (low|high)|nonce has already been used|invalid nonce|nonce.*(lower|higher) than/.test(text)
  ) {
    return 'NONCE_CONFLICT';
  }
  if (/insufficient funds|exceeds balance|insufficient balance/.test(text)) return 'INSUFFICIENT_FUNDS';
  return 'REJECTED';
}

/** Broadcasts signed bytes. "Already known" means the node has it: that is a success. */
export async function broadcast(client: RpcClient, raw: Hex): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    if (/already known|known transaction|already imported/i.test(errorText(error))) return;
    throw new SendError(classifySendError(error), error);
  }
}

/** Consecutive answers that are errors (not unreachability) before tracking gives up. */
const MAX_TRACK_ERRORS = 20;

export type TrackResult =
  | { kind: 'mined'; receipt: TransactionReceipt }
  | { kind: 'dropped' }
  | { kind: 'aborted' };

export interface TrackOptions {
  client: RpcClient;
  hash: Hex;
  from: Address;
  nonce: number;
  /** Signed bytes: re-broadcast when the node forgot the transaction but its nonce is still free. */
  raw?: Hex;
  signal?: AbortSignal;
  pollMs: number;
  /** Not found while the nonce moved on for this long: dropped (replaced or evicted). */
  dropAfterMs: number;
  rebroadcastMs: number;
  /** Replacements at the same nonce (sped up, cancelled), newest last: any one's receipt ends it. */
  alsoHashes?: () => readonly Hex[];
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Polls to a receipt. Survives RPC hiccups (an unreachable node is retried, not fatal: the
 * transaction is out there either way). Returns 'aborted' when the signal fires; tracking can
 * start again later from the same hash.
 */
export async function trackTransaction(options: TrackOptions): Promise<TrackResult> {
  const { client, hash, from, nonce, raw, signal } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  let missingSince: number | null = null;
  let lastBroadcast = now();
  let errors = 0;
  for (;;) {
    if (signal?.aborted) return { kind: 'aborted' };
    try {
      const hashes = [hash, ...(options.alsoHashes?.() ?? [])];
      const receipt = await firstReceipt(client, hashes);
      if (receipt) return { kind: 'mined', receipt };
      const known = await client.getTransaction({ hash: hashes[hashes.length - 1] as Hex }).then(
        () => true,
        (error: unknown) => {
          if (isNotFound(error)) return false;
          throw error;
        },
      );
      if (known) {
        missingSince = null;
      } else {
        missingSince ??= now();
        const used = await client.getTransactionCount({ address: from, blockTag: 'latest' });
        if (used > nonce) {
          // The nonce is spent: mined between our two calls, or replaced by another transaction.
          const late = await firstReceipt(client, hashes);
          if (late) return { kind: 'mined', receipt: late };
          if (now() - missingSince >= options.dropAfterMs) return { kind: 'dropped' };
        } else if (raw && now() - lastBroadcast >= options.rebroadcastMs) {
          lastBroadcast = now();
          await broadcast(client, raw).catch(() => undefined);
        }
      }
      errors = 0;
    } catch (error) {
      // The transaction is out there whatever the node says now: an unreachable node is waited
      // for; other errors are tolerated a while (flaky load balancers) before giving up.
      if (!isRpcUnavailable(error) && ++errors >= MAX_TRACK_ERRORS) throw error;
    }
    await sleep(options.pollMs, signal);
  }
}

async function firstReceipt(client: RpcClient, hashes: readonly Hex[]): Promise<TransactionReceipt | null> {
  for (const candidate of hashes) {
    const receipt = await receiptOf(client, candidate);
    if (receipt) return receipt;
  }
  return null;
}

async function receiptOf(client: RpcClient, hash: Hex): Promise<TransactionReceipt | null> {
  let receipt: TransactionReceipt;
  try {
    receipt = await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  // viem formats whatever JSON the node sent: only a receipt of this hash, in a block, with a
  // status is believed (garbage must not read as a revert, or end tracking). Else: an RPC error.
  const wellFormed =
    typeof receipt.transactionHash === 'string' &&
    receipt.transactionHash.toLowerCase() === hash.toLowerCase() &&
    typeof receipt.blockNumber === 'bigint' &&
    (receipt.status === 'success' || receipt.status === 'reverted') &&
    Array.isArray(receipt.logs);
  if (!wellFormed) throw new Error(`the RPC answered a malformed receipt for ${hash}`);
  return receipt;
}

function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'TransactionReceiptNotFoundError' || name === 'TransactionNotFoundError';
}
