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

type Words = readonly [title: string, detail: string, action: string];

/** Title, detail (before the sent note) and action per failure code. */
const FAILURE_WORDS: Readonly<Record<SwapFailureCode, (ctx: FailureContext, coin: string) => Words>> = {
  RPC_UNAVAILABLE: () => [
    'Cannot reach the network',
    'The network node (RPC) did not answer.',
    'Check your connection and the RPC URL in Settings, then try again.',
  ],
  RPC_WRONG_CHAIN: () => [
    'RPC is for another network',
    'The RPC URL set for this network serves a different chain.',
    'Fix the RPC URL in Settings.',
  ],
  QUOTE_FAILED: () => [
    'Could not get a quote',
    'The swap service did not return a quote.',
    'Try again in a moment.',
  ],
  QUOTE_REJECTED: () => [
    'Quote refused',
    'The quote does not match what you asked for.',
    'Get a new quote; if this repeats, check the swap service in Settings.',
  ],
  QUOTE_OUTDATED: () => [
    'Quote expired',
    'The quote went out of date twice while preparing the swap.',
    'Review the new quote and confirm again.',
  ],
  PRICE_CHANGED: () => [
    'Price changed',
    'The refreshed quote guarantees less than the one you confirmed.',
    'Review the new quote and confirm again if it suits you.',
  ],
  BUILD_FAILED: () => [
    'Could not prepare the swap',
    'The swap service did not build the transaction.',
    'Get a new quote and try again.',
  ],
  BUILD_REJECTED: () => [
    'Swap transaction refused',
    'The transaction from the swap service failed Swaplane’s safety checks.',
    'Get a new quote; if this repeats, check the swap service in Settings.',
  ],
  INSUFFICIENT_BALANCE: () => [
    'Insufficient balance',
    'You do not have enough of the token you are selling.',
    'Lower the amount or add funds.',
  ],
  INSUFFICIENT_GAS_FUNDS: (ctx, coin) => [
    `Not enough ${coin} for gas`,
    `Your ${coin} balance cannot cover the network fee${ctx.approvalSent ? '' : ' (and the amount sent)'}.`,
    `Add ${coin} or lower the amount.`,
  ],
  APPROVAL_FAILED: (ctx) => [
    'Token approval failed',
    ctx.revert ? `The approval failed: ${ctx.revert.text}.` : 'The approval transaction did not go through.',
    'Try again; if it repeats, the token may not allow this approval.',
  ],
  SIMULATION_REVERTED: (ctx) => [
    'This swap would fail',
    `A simulation of the swap reverted: ${ctx.revert?.text ?? 'no reason given'}.`,
    'Get a new quote, or raise the slippage if prices move fast.',
  ],
  SIMULATED_OUTPUT_LOW: () => [
    'You would receive less than the minimum',
    'A simulation pays less than the guaranteed minimum of the quote.',
    'Get a new quote.',
  ],
  NONCE_CONFLICT: () => [
    'Transaction order conflict',
    'The network rejected the transaction number (nonce): another transaction from this account got in first.',
    'Wait for your pending transactions to finish, then try again.',
  ],
  FEE_ABOVE_CEILING: () => [
    'Network fee above your ceiling',
    'The network asks more per unit of gas than the ceiling set for this network in Settings.',
    'Wait for fees to fall, or raise the ceiling in Settings.',
  ],
  GAS_ABOVE_SIMULATION: () => [
    'Gas limit refused',
    'The transaction asks for more gas than its simulation used.',
    'Get a new quote; if this repeats, check the RPC in Settings.',
  ],
  REPLACEMENT_UNDERPRICED: () => [
    'A pending transaction is in the way',
    'Another transaction from this account with the same number is pending, and this one does not pay more to replace it.',
    'Wait for the pending transaction to confirm, then try again.',
  ],
  SEND_FAILED: () => [
    'The network refused the transaction',
    'The node did not accept the transaction.',
    'Try again.',
  ],
  REVERTED: () => [
    'Swap failed on chain',
    'The swap was mined but reverted, so the network fee was spent and your tokens stayed with you.',
    'Get a new quote; consider a higher slippage if prices move fast.',
  ],
  DROPPED: () => [
    'Transaction replaced',
    'Another transaction from your account was mined with the same nonce (sent from another wallet holding this account, or a replacement), so this swap was dropped and never ran.',
    'Check your balances and Activity, then swap again if needed.',
  ],
  INTERRUPTED: () => [
    'Swap interrupted',
    'Swaplane restarted before the swap was sent.',
    'Start the swap again with a fresh quote.',
  ],
  CANCELLED: () => ['Swap cancelled', 'The swap was stopped.', 'Start again when you are ready.'],
  UNEXPECTED: () => ['Something went wrong', 'An unexpected error stopped the swap.', 'Try again.'],
};

export function swapFailureMessage(code: SwapFailureCode, ctx: FailureContext): UserMessage {
  const [title, detail, action] = FAILURE_WORDS[code](ctx, ctx.nativeSymbol ?? 'network coin');
  return { title, detail: `${detail} ${sentNote(ctx)}`.trim(), action };
}
