// Swap step 8: the sent swap followed to its receipt (or its replacement's), and the outcome
// recorded: what was received against the quote, the gas paid.
import type { Address, Hex } from 'viem';
import { explorerTxUrl } from '@/lib/chains';
import type { RpcClient } from '@/lib/rpc/network';
import { isRpcUnavailable } from '@/lib/rpc/network';
import { StoredTxError, verifyStoredTx } from '@/lib/rpc/stored-tx';
import { broadcast } from '@/lib/rpc/transactions';
import type { SwapState } from '@/lib/state/pipeline-state';
import { SwapFailure } from './failure';
import { replacementOf } from './replace';
import { receivedFromLogs } from './simulate';
import { type Follow, gasPaidOf } from './step-send';
import type { Ledger } from './swap-ledger';

export async function trackSwap({
  ledger,
  follow,
  invalidate,
  signal,
}: {
  ledger: Ledger;
  follow: Follow;
  /** Forgets the account's cached balances once the swap is mined. */
  invalidate: (account: Address) => void;
  signal?: AbortSignal | undefined;
}): Promise<SwapState> {
  const s = ledger.current();
  const tx = s.tx;
  if (!tx || !s.quote)
    throw new SwapFailure({ code: 'UNEXPECTED', step: 'track', detail: 'no transaction to track' });
  const result = await follow(tx, s.account as Address, signal);
  if (result.kind === 'aborted') return ledger.current(); // still 'sent': resume later
  invalidate(s.account as Address);
  if (result.kind === 'dropped') throw new SwapFailure({ code: 'DROPPED', step: 'track' });
  const receipt = result.receipt;
  const mined = replacementOf(ledger.current(), receipt.transactionHash);
  const sentTx = ledger.current().tx;
  // The transaction mined at the nonce is the one the state names (an earlier one may have won).
  if (sentTx && sentTx.hash.toLowerCase() !== receipt.transactionHash.toLowerCase()) {
    const hash = receipt.transactionHash;
    await ledger.update({ tx: { ...sentTx, hash, explorerUrl: explorerTxUrl(s.chainId, hash) ?? null } });
  }
  if (mined?.kind === 'cancel') {
    throw new SwapFailure({
      code: 'CANCELLED',
      step: 'track',
      user: {
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
  await ledger.update({
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
      confirmedAt: ledger.now(),
    },
  });
  if (!success) throw new SwapFailure({ code: 'REVERTED', step: 'track' });
  const confirmed = await ledger.moveTo('confirmed');
  await ledger.recordSwap(confirmed);
  return confirmed;
}

/** Whether the node has a transaction (pending or mined); an unreachable node throws. */
export function nodeHas(client: RpcClient, hash: string): Promise<boolean> {
  return client.getTransaction({ hash: hash as Hex }).then(
    () => true,
    (error: unknown) => {
      if (isRpcUnavailable(error)) throw error;
      return false;
    },
  );
}

/**
 * Following after a restart: a transaction's bytes read back from storage.local are re-broadcast
 * only when they are the account's own at its hash, chain and nonce (verifyStoredTx, the check
 * Speed up and Cancel make); other bytes are never sent, the transaction is followed by its hash.
 */
export function followProven(follow: Follow, chainId: number): Follow {
  return async (tx, from, signal) => {
    const { raw, hash, nonce } = tx;
    const proven =
      raw !== undefined &&
      (await verifyStoredTx({ raw, hash, chainId, signer: from, nonce }).then(
        () => true,
        () => false,
      ));
    return follow(proven ? tx : { hash, nonce }, from, signal);
  };
}

/**
 * A swap signed before a restart: broadcast it again unless the node has it, it was mined, or
 * it is too late (its nonce was used, or the send window passed); then it is 'sent'. The stored
 * bytes come from storage.local: they must be the account's own transaction at the swap's chain,
 * hash and nonce (the check Speed up and Cancel make) before Swaplane sends or follows them.
 */
export async function resendSigned({
  client,
  ledger,
  tx,
  resumeSendWindowMs,
}: {
  client: RpcClient;
  ledger: Ledger;
  tx: NonNullable<SwapState['tx']>;
  resumeSendWindowMs: number;
}): Promise<void> {
  const s = ledger.current();
  await verifyStoredTx({
    raw: tx.raw,
    hash: tx.hash,
    chainId: s.chainId,
    signer: s.account as Address,
    nonce: tx.nonce,
  }).catch((error: unknown) => {
    if (!(error instanceof StoredTxError)) throw error;
    throw new SwapFailure({
      code: 'INTERRUPTED',
      step: 'resume',
      detail: error.message,
      user: {
        title: 'Saved swap not sent',
        detail: `Swaplane restarted before the swap was sent. ${error.message}`,
        action: 'Check Activity, then start the swap again with a fresh quote.',
      },
    });
  });
  if (!(await nodeHas(client, tx.hash))) {
    const used = await client.getTransactionCount({ address: s.account as Address, blockTag: 'latest' });
    const receipt = await client.getTransactionReceipt({ hash: tx.hash as Hex }).catch(() => null);
    if (!receipt) {
      if (used > tx.nonce || ledger.now() - tx.signedAt > resumeSendWindowMs) {
        throw new SwapFailure({
          code: 'INTERRUPTED',
          step: 'resume',
          detail: 'signed swap was never broadcast',
        });
      }
      await broadcast(client, tx.raw as Hex);
    }
  }
  await ledger.moveTo('sent', { tx: { ...tx, sentAt: tx.sentAt ?? ledger.now() } });
  await ledger.recordSwap(ledger.current());
}
