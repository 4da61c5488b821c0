import type { ReviewedFee } from '@/components/FeeReview';
import type { PickedToken } from '@/components/TokenPicker';
import { getChain } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { SwapState } from '@/lib/state/pipeline-state';
import { messageOf } from './messages';

/** A pasted address that is not in the list: the service's entry, or the token as read on-chain. */
export async function lookupToken(
  chainId: number,
  address: string,
): Promise<PickedToken | { error: string }> {
  try {
    const result = await callBackground({ type: 'lookupToken', chainId, address });
    if (result.status === 'invalid-address') return { error: result.message };
    if (result.status === 'not-whitelisted') {
      return result.token
        ? { token: result.token, whitelisted: false }
        : { error: 'This token is not on this service’s list, and Swaplane could not read its details.' };
    }
    return { token: result.token, whitelisted: true };
  } catch (error) {
    return { error: messageOf(error) };
  }
}

export const REVOKE_WORDS = {
  confirmed: 'Revoked.',
  pending: 'Revoke sent; waiting for it to be mined.',
  failed: 'The revoke failed.',
} as const;

/** The native coin of a chain, for fee lines. */
export function nativeOf(chainId: number): { symbol: string; decimals: number } {
  const chain = getChain(chainId);
  return { symbol: chain?.nativeSymbol ?? 'ETH', decimals: chain?.nativeDecimals ?? 18 };
}

/** The review of revoking the approval a failed swap left in place: its network fee. */
export function previewLeftApproval(swap: SwapState): Promise<ReviewedFee> {
  if (!swap.approval) return Promise.reject(new Error('This swap made no approval.'));
  const { token, spender } = swap.approval;
  return callBackground({ type: 'previewRevoke', chainId: swap.chainId, token, spender });
}

/** Revokes the reviewed approval; answers what happened, in words. */
export async function revokeReviewed(reviewId: string): Promise<string> {
  const result = await callBackground({ type: 'revokeApproval', reviewId });
  return REVOKE_WORDS[result.status];
}
