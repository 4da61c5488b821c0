import type { PickedToken } from '@/components/TokenPicker';
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

/** Revokes the approval a failed swap left in place; answers what happened, in words. */
export async function revokeLeftApproval(swap: SwapState): Promise<string> {
  if (!swap.approval) return 'This swap made no approval.';
  const { token, spender } = swap.approval;
  const result = await callBackground({ type: 'revokeApproval', chainId: swap.chainId, token, spender });
  if (result.status === 'confirmed') return 'Revoked.';
  return result.status === 'pending' ? 'Revoke sent; waiting for it to be mined.' : 'The revoke failed.';
}
