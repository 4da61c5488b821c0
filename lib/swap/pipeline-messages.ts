// Words for the swap pipeline's failures: what happened, and what to do. The last sentence of
// every detail says what was sent, because that is what a user needs to know first.
import type { UserMessage } from '@/lib/api/messages';
import type { RevertReason, SwapFailureCode } from '@/lib/state/pipeline-state';

export interface FailureContext {
  anythingSent: boolean;
  /** The approval went through but the swap was not sent. */
  approvalSent?: boolean;
  revert?: RevertReason;
  /** Symbol of the coin that pays gas, for "not enough ETH" messages. */
  nativeSymbol?: string;
}

/** The sentence that says what was sent; every failure message ends its detail with it. */
export function sentNote(ctx: FailureContext): string {
  if (ctx.approvalSent) return 'Your token approval was sent; the swap itself was not.';
  return ctx.anythingSent ? 'The transaction was sent.' : 'Nothing was sent.';
}

export function swapFailureMessage(code: SwapFailureCode, ctx: FailureContext): UserMessage {
  const sent = sentNote(ctx);
  const coin = ctx.nativeSymbol ?? 'the network coin';
  const m = (title: string, detail: string, action: string): UserMessage => ({
    title,
    detail: `${detail} ${sent}`.trim(),
    action,
  });
  switch (code) {
    case 'RPC_UNAVAILABLE':
      return m(
        'Cannot reach the network',
        'The network node (RPC) did not answer.',
        'Check your connection and the RPC URL in Settings, then try again.',
      );
    case 'RPC_WRONG_CHAIN':
      return m(
        'RPC is for another network',
        'The RPC URL set for this network serves a different chain.',
        'Fix the RPC URL in Settings.',
      );
    case 'QUOTE_FAILED':
      return m('Could not get a quote', 'The swap service did not return a quote.', 'Try again in a moment.');
    case 'QUOTE_REJECTED':
      return m(
        'Quote refused',
        'The quote does not match what you asked for.',
        'Get a new quote; if this repeats, check the swap service in Settings.',
      );
    case 'QUOTE_OUTDATED':
      return m(
        'Quote expired',
        'The quote went out of date twice while preparing the swap.',
        'Review the new quote and confirm again.',
      );
    case 'PRICE_CHANGED':
      return m(
        'Price changed',
        'The refreshed quote guarantees less than the one you confirmed.',
        'Review the new quote and confirm again if it suits you.',
      );
    case 'BUILD_FAILED':
      return m(
        'Could not prepare the swap',
        'The swap service did not build the transaction.',
        'Get a new quote and try again.',
      );
    case 'BUILD_REJECTED':
      return m(
        'Swap transaction refused',
        'The transaction from the swap service failed Swaplane’s safety checks.',
        'Get a new quote; if this repeats, check the swap service in Settings.',
      );
    case 'INSUFFICIENT_BALANCE':
      return m(
        'Insufficient balance',
        'You do not have enough of the token you are selling.',
        'Lower the amount or add funds.',
      );
    case 'INSUFFICIENT_GAS_FUNDS':
      return m(
        `Not enough ${coin} for gas`,
        `Your ${coin} balance cannot cover the network fee${ctx.approvalSent ? '' : ' (and the amount sent)'}.`,
        `Add ${coin} or lower the amount.`,
      );
    case 'APPROVAL_FAILED':
      return m(
        'Token approval failed',
        ctx.revert
          ? `The approval failed: ${ctx.revert.text}.`
          : 'The approval transaction did not go through.',
        'Try again; if it repeats, the token may not allow this approval.',
      );
    case 'SIMULATION_REVERTED':
      return m(
        'This swap would fail',
        `A simulation of the swap reverted: ${ctx.revert?.text ?? 'no reason given'}.`,
        'Get a new quote, or raise the slippage if prices move fast.',
      );
    case 'SIMULATED_OUTPUT_LOW':
      return m(
        'You would receive less than the minimum',
        'A simulation pays less than the guaranteed minimum of the quote.',
        'Get a new quote.',
      );
    case 'NONCE_CONFLICT':
      return m(
        'Transaction order conflict',
        'The network rejected the transaction number (nonce): another transaction from this account got in first.',
        'Wait for your pending transactions to finish, then try again.',
      );
    case 'REPLACEMENT_UNDERPRICED':
      return m(
        'A pending transaction is in the way',
        'Another transaction from this account with the same number is pending, and this one does not pay more to replace it.',
        'Wait for the pending transaction to confirm, then try again.',
      );
    case 'SEND_FAILED':
      return m(
        'The network refused the transaction',
        'The node did not accept the transaction.',
        'Try again.',
      );
    case 'REVERTED':
      return m(
        'Swap failed on chain',
        'The swap was mined but reverted, so the network fee was spent and your tokens stayed with you.',
        'Get a new quote; consider a higher slippage if prices move fast.',
      );
    case 'DROPPED':
      return m(
        'Transaction replaced',
        'Another transaction from your account was mined with the same nonce (sent from another wallet holding this account, or a replacement), so this swap was dropped and never ran.',
        'Check your balances and Activity, then swap again if needed.',
      );
    case 'INTERRUPTED':
      return m(
        'Swap interrupted',
        'Swaplane restarted before the swap was sent.',
        'Start the swap again with a fresh quote.',
      );
    case 'CANCELLED':
      return m('Swap cancelled', 'The swap was stopped.', 'Start again when you are ready.');
    case 'UNEXPECTED':
      return m('Something went wrong', 'An unexpected error stopped the swap.', 'Try again.');
  }
}
