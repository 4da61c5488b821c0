// Token approvals Swaplane granted: listed with their current on-chain allowance, and revoked
// (approve(spender, 0)) by the active account on request. Only approvals from Swaplane's own history
// can be revoked here, so a view cannot make the wallet sign calls to arbitrary contracts. A revoke
// is reviewed first (previewRevoke: its network fee, capped, on screen), then signed through the
// funnel with the review's ticket (revokeApproval), once.
import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { bigMin } from '@/lib/amounts/min-max';
import { cappedFees, feeEstimate } from '@/lib/rpc/fees';
import { publicClientFor } from '@/lib/rpc/network';
import { checkedClientFor } from '@/lib/rpc/rpc-failure';
import { broadcast } from '@/lib/rpc/transactions';
import { readAllowance } from '@/lib/swap/approval';
import { type GrantedApproval, grantedApprovals, isGranted } from '@/lib/swap/approvals-list';
import { gasLimitFor } from '@/lib/swap/funnel';
import { CodedError } from '../errors';
import type { BackgroundServices } from '../services';
import { funnelErrors } from '../signing';

const RECEIPT_POLL_MS = 500;
const RECEIPT_TIMEOUT_MS = 60_000;

export function createApprovalHandlers(services: BackgroundServices) {
  async function activeAddress(): Promise<Address | null> {
    const state = await services.wallet.state();
    const active = state.accounts.find((account) => account.id === state.activeId);
    return active ? (active.address as Address) : null;
  }

  async function granted(): Promise<{ owner: Address | null; list: GrantedApproval[] }> {
    const owner = await activeAddress();
    if (!owner) return { owner, list: [] };
    return { owner, list: grantedApprovals(await services.swaps.history(), owner) };
  }

  async function waitForReceipt(chainId: number, hash: Hex) {
    const client = publicClientFor(chainId, services.settings());
    const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt) return receipt;
      await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
    }
    return null;
  }

  return {
    listApprovals: async () => {
      const { owner, list } = await granted();
      if (!owner) return [];
      return Promise.all(
        list.map(async (entry) => {
          // An allowance read from another chain's node is unknown (null), never shown as this chain's.
          const allowance = await checkedClientFor(entry.chainId, services.settings())
            .then((client) => readAllowance(client, entry.token as Address, owner, entry.spender as Address))
            .then((value) => value.toString())
            .catch(() => null);
          return { ...entry, allowance };
        }),
      );
    },

    /** The revoke's plan, capped, with the fee the user sees before confirming. */
    previewRevoke: async ({ chainId, token, spender }: GrantedApproval & { type: 'previewRevoke' }) => {
      const wanted = { chainId, token, spender };
      const { list } = await granted();
      if (!isGranted(list, wanted)) {
        throw new CodedError(
          'NOT_GRANTED',
          'Swaplane did not grant this approval, so it cannot revoke it here.',
        );
      }
      const account = await services.wallet.activeSigner();
      // The fee shown is this chain's: the node is asked its chain before it is asked for fees.
      const client = await checkedClientFor(chainId, services.settings());
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender as Address, 0n],
      });
      const to = token as Address;
      return funnelErrors(async () => {
        const [estimate, fees] = await Promise.all([
          client.estimateGas({ account: account.address, to, data }),
          cappedFees(client, services.signing.ceilingFor(chainId)),
        ]);
        // An RPC's inflated estimate is bounded by what an approve can need.
        const { gas, capped: gasCapped } = gasLimitFor('revoke', estimate);
        const used = bigMin(estimate, gas);
        const fee = feeEstimate(used, gas, fees);
        const reviewed = services.signing.funnel.review(
          { kind: 'revoke', chainId, from: account.address, to, value: 0n, data, gasUsed: used, gas, fees },
          { shownFee: fee },
        );
        return { reviewId: reviewed.id, fee: { ...fee, capped: fee.capped || gasCapped } };
      });
    },

    /** Signs the reviewed revoke (once), sends it and waits a little for its receipt. */
    revokeApproval: async ({ reviewId }: { reviewId: string }) => {
      const reviewed = funnelErrors(() => services.signing.funnel.take(reviewId, 'revoke'));
      const { plan } = reviewed;
      const client = publicClientFor(plan.chainId, services.settings());
      const signed = await funnelErrors(() =>
        services.signing.funnel.sign({ reviewed, client, signer: () => services.wallet.activeSigner() }),
      );
      await broadcast(client, signed.raw);
      const receipt = await waitForReceipt(plan.chainId, signed.hash);
      const status: 'pending' | 'confirmed' | 'failed' =
        receipt === null ? 'pending' : receipt.status === 'success' ? 'confirmed' : 'failed';
      return { hash: signed.hash, status };
    },
  };
}
