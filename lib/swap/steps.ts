// The named steps of a swap that talk to the service or the chain: quote, build, approve, track.
// Each takes the machine (lib/swap/machine-core.ts) and moves its state on; lib/swap/execute.ts
// sequences them.
import type { Address } from 'viem';
import { QuoteOutdatedError } from '@/lib/api/errors';
import { userMessageFor } from '@/lib/api/messages';
import { ERROR_CODES, type Quote, type QuoteRequest } from '@/lib/api/schema';
import { explorerTxUrl } from '@/lib/chains';
import { cappedFees } from '@/lib/rpc/fees';
import { isRpcUnavailable } from '@/lib/rpc/network';
import { withGasMargin } from '@/lib/rpc/transactions';
import type { ApprovalTxState, SwapState } from '@/lib/state/pipeline-state';
import type { approvalTransactions } from './approval';
import type { SwapInput } from './execute';
import { gasPaidOf, Halt, type MachineCore, Stop } from './machine-core';
import { replacementOf } from './replace';
import { receivedFromLogs } from './simulate';
import { verifyFailureMessage, verifyQuote } from './verify';

/** The quote answers the request (lib/swap/verify.ts), or the run stops with the reason. */
export function checkQuote(request: QuoteRequest, quote: Quote): void {
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
export async function requote(m: MachineCore, input: SwapInput, confirmedMin: bigint | null): Promise<Quote> {
  await m.moveTo('quoting');
  let quote: Quote;
  try {
    ({ quote } = await m.api.quote(input.request, input.signal ? { signal: input.signal } : {}));
  } catch (error) {
    throw new Stop('QUOTE_FAILED', 'quote', { detail: String(error), message: userMessageFor(error) });
  }
  checkQuote(input.request, quote);
  // The decimals were checked on-chain for the reviewed quote: a re-quote may not change them.
  const reviewed = input.quote;
  if (reviewed && (quote.inDecimals !== reviewed.inDecimals || quote.outDecimals !== reviewed.outDecimals)) {
    throw new Stop('QUOTE_REJECTED', 'quote', {
      detail: `decimals ${quote.inDecimals}/${quote.outDecimals} differ from ${reviewed.inDecimals}/${reviewed.outDecimals}`,
    });
  }
  await m.update({ quote, requotes: m.current().requotes + 1 });
  if (confirmedMin !== null && BigInt(quote.minReceived) < confirmedMin) {
    throw new Stop('PRICE_CHANGED', 'quote', {
      detail: `new minReceived ${quote.minReceived} < confirmed ${confirmedMin}`,
    });
  }
  return quote;
}

/** POST /build; one automatic re-quote when the service says the quote is outdated. */
export async function buildFor(m: MachineCore, input: SwapInput, quote: Quote, confirmedMin: bigint | null) {
  for (let attempt = 0; ; attempt++) {
    await m.moveTo('building');
    try {
      const { build } = await m.api.build(quote, input.signal ? { signal: input.signal } : {});
      await m.update({ build });
      return { build, quote };
    } catch (error) {
      const outdated =
        error instanceof QuoteOutdatedError &&
        (error.serverCode === undefined || error.serverCode === ERROR_CODES.quoteOutdated);
      if (!outdated) {
        throw new Stop('BUILD_FAILED', 'build', { detail: String(error), message: userMessageFor(error) });
      }
      if (attempt >= 1) throw new Stop('QUOTE_OUTDATED', 'build', { detail: String(error) });
      quote = await requote(m, input, confirmedMin);
    }
  }
}

export async function approve(
  m: MachineCore,
  input: SwapInput,
  calls: ReturnType<typeof approvalTransactions>,
): Promise<void> {
  await m.moveTo('approving');
  for (const call of calls) {
    m.checkAbort(input.signal, 'approve');
    let gas: bigint;
    try {
      gas = withGasMargin(
        await m.client.estimateGas({ account: input.account.address, to: call.to, data: call.data }),
        m.timing.gasMarginPercent,
      );
    } catch (error) {
      if (isRpcUnavailable(error)) throw error;
      throw new Stop('APPROVAL_FAILED', 'approve', { detail: String(error) });
    }
    const fees = await cappedFees(m.client);
    const amount = call.amount.toString();
    const sent = await m.signAndSend(
      input.account,
      { ...call, value: 0n, gas },
      fees,
      'approve',
      async (_signed, tx) => {
        await m.setApprovalTx({ ...tx, step: call.step, amount, status: 'pending', gasPaid: null });
      },
    );
    const pending: ApprovalTxState = { ...sent, step: call.step, amount, status: 'pending', gasPaid: null };
    await m.setApprovalTx(pending);
    await m.recordApprovalHistory(m.current(), pending);
    await finishApproval(m, pending, input.account.address, input.signal);
  }
  m.balances?.invalidate(input.account.address);
}

/** Waits for an approval's receipt and records it; a revert or a drop stops the swap. */
export async function finishApproval(
  m: MachineCore,
  tx: ApprovalTxState,
  from: Address,
  signal?: AbortSignal,
): Promise<void> {
  const result = await m.follow(tx, from, signal);
  // Stop following, not cancel: the approval is out there. The m.state stays 'approving' (persisted)
  // and a resume finishes it.
  if (result.kind === 'aborted') throw new Halt();
  const gasPaid = result.kind === 'mined' ? gasPaidOf(result.receipt).toString() : null;
  const ok = result.kind === 'mined' && result.receipt.status === 'success';
  const done: ApprovalTxState = { ...tx, status: ok ? 'confirmed' : 'failed', gasPaid };
  await m.setApprovalTx(done);
  await m.recordApprovalHistory(m.current(), done);
  if (!ok) {
    throw new Stop('APPROVAL_FAILED', 'approve', {
      detail: result.kind === 'dropped' ? 'approval dropped' : 'approval reverted',
    });
  }
}

export async function trackSwap(m: MachineCore, signal: AbortSignal | undefined): Promise<SwapState> {
  const s = m.current();
  const tx = s.tx;
  if (!tx || !s.quote) throw new Stop('UNEXPECTED', 'track', { detail: 'no transaction to track' });
  const result = await m.follow(tx, s.account as Address, signal);
  if (result.kind === 'aborted') return m.current(); // still 'sent': resume later
  m.balances?.invalidate(s.account as Address);
  if (result.kind === 'dropped') throw new Stop('DROPPED', 'track');
  const receipt = result.receipt;
  const mined = replacementOf(m.current(), receipt.transactionHash);
  const sentTx = m.current().tx;
  // The transaction mined at the nonce is the one the m.state names (an earlier one may have won).
  if (sentTx && sentTx.hash.toLowerCase() !== receipt.transactionHash.toLowerCase()) {
    const hash = receipt.transactionHash;
    await m.update({ tx: { ...sentTx, hash, explorerUrl: explorerTxUrl(s.chainId, hash) ?? null } });
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
  await m.update({
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
      confirmedAt: m.now(),
    },
  });
  if (!success) throw new Stop('REVERTED', 'track');
  const confirmed = await m.moveTo('confirmed');
  await m.recordSwapHistory(confirmed);
  return confirmed;
}
