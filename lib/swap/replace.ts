// Speed up or cancel a sent swap: a new transaction at the same nonce with higher fees (nodes want
// at least 10% more on both fee fields to replace one). Speed up repeats the call; cancel is a
// 0-value transfer to the sender itself, so whichever is mined the nonce is used once.
import { type Address, fromRlp, type Hex, type LocalAccount } from 'viem';
import { explorerTxUrl } from '@/lib/chains';
import type { RpcClient } from '@/lib/rpc/network';
import { broadcast, type Fees, signCall, type UnsignedCall } from '@/lib/rpc/transactions';
import type { Replacement, SentTx, SwapState } from '@/lib/state/pipeline-state';

export type ReplacementKind = Replacement['kind'];

export class ReplaceError extends Error {
  override name = 'ReplaceError';
  constructor(
    readonly code: 'NOT_PENDING' | 'WRONG_ACCOUNT' | 'TOO_MANY_REPLACEMENTS',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The fields of a signed EIP-1559 transaction (0x02 || rlp[chainId, nonce, maxPriorityFeePerGas,
 * maxFeePerGas, gas, to, value, data, accessList, v, r, s]), read with RLP alone: viem's
 * parseTransaction would bring every transaction type's parser into the background bundle.
 */
export function readEip1559(raw: Hex): {
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  to: Address;
  value: bigint;
  data: Hex;
} {
  if (!raw.startsWith('0x02')) throw new Error('the sent swap is not an EIP-1559 transaction');
  const fields = fromRlp(`0x${raw.slice(4)}`, 'hex') as Hex[];
  const [, , priority, max, gas, to, value, data] = fields;
  if (fields.length !== 12 || !to || to.length !== 42) throw new Error('the sent swap is not a call');
  const big = (field: Hex | undefined) => (field && field !== '0x' ? BigInt(field) : 0n);
  return {
    maxPriorityFeePerGas: big(priority),
    maxFeePerGas: big(max),
    gas: big(gas),
    to: to as Address,
    value: big(value),
    data: (data ?? '0x') as Hex,
  };
}

/** At least 10% (and 1 wei) above the replaced transaction's fees, and at least today's fees. */
export function replacementFees(replaced: Fees, now: Fees): Fees {
  const bump = (value: bigint) => (value * 110n) / 100n + 1n;
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  const maxPriorityFeePerGas = max(bump(replaced.maxPriorityFeePerGas), now.maxPriorityFeePerGas);
  const maxFeePerGas = max(max(bump(replaced.maxFeePerGas), now.maxFeePerGas), maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** The call of the replacement: the same one (speed up) or a 0-value transfer to oneself (cancel). */
export function replacementCall(
  kind: ReplacementKind,
  replaced: { to: Address; data: Hex; value: bigint; gas: bigint },
  sender: Address,
): UnsignedCall {
  return kind === 'cancel' ? { to: sender, data: '0x', value: 0n, gas: 21_000n } : replaced;
}

/** Every hash sent at the swap's nonce, oldest first (the original, then each replacement). */
export function hashesAtNonce(state: Pick<SwapState, 'tx' | 'replacements'>): Hex[] {
  const replacements = state.replacements ?? [];
  const first = replacements[0]?.replacedHash ?? state.tx?.hash;
  return [...(first ? [first] : []), ...replacements.map((r) => r.hash)] as Hex[];
}

/** The replacement a mined hash is, if it is one. */
export function replacementOf(state: Pick<SwapState, 'replacements'>, hash: string): Replacement | undefined {
  return state.replacements?.find((r) => r.hash.toLowerCase() === hash.toLowerCase());
}

/**
 * Signs and sends the replacement of the swap's current transaction. Returns the new transaction and
 * the record of the replacement; the caller persists both (the tracker then follows every hash).
 */
export async function replaceSentSwap(input: {
  client: RpcClient;
  account: LocalAccount;
  state: SwapState;
  kind: ReplacementKind;
  fees: Fees;
  now: number;
}): Promise<{ tx: SentTx; replacement: Replacement }> {
  const { client, account, state, kind, now } = input;
  const sent = state.tx;
  if (state.status !== 'sent' || !sent)
    throw new ReplaceError(
      'NOT_PENDING',
      'This swap is not waiting to be mined any more: nothing to speed up or cancel.',
    );
  if (account.address.toLowerCase() !== state.account.toLowerCase())
    throw new ReplaceError(
      'WRONG_ACCOUNT',
      'Switch to the account that sent this swap to speed it up or cancel it.',
    );
  if ((state.replacements?.length ?? 0) >= 10)
    throw new ReplaceError('TOO_MANY_REPLACEMENTS', 'This swap was already replaced 10 times.');
  const replaced = readEip1559(sent.raw as Hex);
  const fees = replacementFees(
    { maxFeePerGas: replaced.maxFeePerGas, maxPriorityFeePerGas: replaced.maxPriorityFeePerGas },
    input.fees,
  );
  const call = replacementCall(
    kind,
    {
      to: replaced.to,
      data: replaced.data ?? '0x',
      value: replaced.value ?? 0n,
      gas: replaced.gas ?? BigInt(sent.gasLimit),
    },
    account.address,
  );
  const signed = await signCall(client, account, call, fees, sent.nonce);
  await broadcast(client, signed.raw);
  return {
    tx: {
      hash: signed.hash,
      nonce: sent.nonce,
      raw: signed.raw,
      gasLimit: call.gas.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      explorerUrl: explorerTxUrl(state.chainId, signed.hash) ?? null,
      signedAt: now,
      sentAt: now,
    },
    replacement: { kind, replacedHash: sent.hash, hash: signed.hash, at: now },
  };
}
