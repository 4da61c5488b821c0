// Speed up or cancel a sent swap: a new transaction at the same nonce with higher fees (nodes want
// at least 10% more on both fee fields to replace one). Speed up repeats the call; cancel is a
// 0-value transfer to the sender itself, so whichever is mined the nonce is used once.
import type { Address, Hex } from 'viem';
import { bigMax } from '@/lib/amounts/min-max';
import { explorerTxUrl } from '@/lib/chains';
import { verifyStoredTx } from '@/lib/rpc/stored-tx';
import type { Fees, SignedTx, UnsignedCall } from '@/lib/rpc/transactions';
import type { Replacement, SentTx, SwapState } from '@/lib/state/pipeline-state';
import type { TransactionPlan } from './funnel';

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

/** At least 10% (and 1 wei) above the replaced transaction's fees, and at least today's fees. */
export function replacementFees(replaced: Fees, now: Fees): Fees {
  const bump = (value: bigint) => (value * 110n) / 100n + 1n;
  const maxPriorityFeePerGas = bigMax(bump(replaced.maxPriorityFeePerGas), now.maxPriorityFeePerGas);
  const maxFeePerGas = bigMax(bigMax(bump(replaced.maxFeePerGas), now.maxFeePerGas), maxPriorityFeePerGas);
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
 * The replacement's plan for the funnel, from the sent swap's stored bytes only once they are
 * proven: keccak(raw) == hash, signed by the swap's account on its chain, at its nonce
 * (lib/rpc/stored-tx.ts). A forged record is refused; nothing is signed.
 */
export async function replacementPlan(input: {
  state: SwapState;
  kind: ReplacementKind;
  from: Address;
  fees: Fees;
}): Promise<TransactionPlan> {
  const { state, kind, from } = input;
  const sent = state.tx;
  if (state.status !== 'sent' || !sent)
    throw new ReplaceError(
      'NOT_PENDING',
      'This swap is not waiting to be mined any more: nothing to speed up or cancel.',
    );
  if (from.toLowerCase() !== state.account.toLowerCase())
    throw new ReplaceError(
      'WRONG_ACCOUNT',
      'Switch to the account that sent this swap to speed it up or cancel it.',
    );
  if ((state.replacements?.length ?? 0) >= 10)
    throw new ReplaceError('TOO_MANY_REPLACEMENTS', 'This swap was already replaced 10 times.');
  const replaced = await verifyStoredTx({
    raw: sent.raw,
    hash: sent.hash,
    chainId: state.chainId,
    signer: from,
    nonce: sent.nonce,
  });
  const fees = replacementFees(
    { maxFeePerGas: replaced.maxFeePerGas, maxPriorityFeePerGas: replaced.maxPriorityFeePerGas },
    input.fees,
  );
  const call = replacementCall(kind, replaced, from);
  return {
    kind,
    chainId: state.chainId,
    from,
    ...call,
    // The replaced transaction's limit came from its simulation; a cancel is a plain transfer.
    gasUsed: call.gas,
    fees,
    nonce: sent.nonce,
  };
}

/** The sent replacement as the swap records it (the caller persists both). */
export function replacementRecord(
  state: SwapState,
  kind: ReplacementKind,
  signed: SignedTx,
  now: number,
): { tx: SentTx; replacement: Replacement } {
  const replacedHash = state.tx?.hash ?? '';
  return {
    tx: {
      hash: signed.hash,
      nonce: signed.nonce,
      raw: signed.raw,
      gasLimit: signed.gas.toString(),
      maxFeePerGas: signed.fees.maxFeePerGas.toString(),
      explorerUrl: explorerTxUrl(state.chainId, signed.hash) ?? null,
      signedAt: now,
      sentAt: now,
    },
    replacement: { kind, replacedHash, hash: signed.hash, at: now },
  };
}
