// Token approvals Swaplane granted: listed with their current on-chain allowance, and revoked
// (approve(spender, 0)) by the active account on request. Only approvals from Swaplane's own history
// can be revoked here, so a view cannot make the wallet sign calls to arbitrary contracts.
import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { publicClientFor } from '@/lib/rpc/network';
import { broadcast, estimateFees, signCall, withGasMargin } from '@/lib/rpc/transactions';
import { readAllowance } from '@/lib/swap/approval';
import { type GrantedApproval, grantedApprovals, isGranted } from '@/lib/swap/approvals-list';
import { CodedError } from '../errors';
import type { BackgroundServices } from '../services';

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
          const client = publicClientFor(entry.chainId, services.settings());
          const allowance = await readAllowance(
            client,
            entry.token as Address,
            owner,
            entry.spender as Address,
          )
            .then((value) => value.toString())
            .catch(() => null);
          return { ...entry, allowance };
        }),
      );
    },
    revokeApproval: async ({ chainId, token, spender }: GrantedApproval & { type: 'revokeApproval' }) => {
      const wanted = { chainId, token, spender };
      const { list } = await granted();
      if (!isGranted(list, wanted)) {
        throw new CodedError(
          'NOT_GRANTED',
          'Swaplane did not grant this approval, so it cannot revoke it here.',
        );
      }
      const account = await services.wallet.activeSigner();
      const client = publicClientFor(wanted.chainId, services.settings());
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [wanted.spender as Address, 0n],
      });
      const to = wanted.token as Address;
      const gas = withGasMargin(await client.estimateGas({ account: account.address, to, data }));
      const signed = await signCall(
        client,
        account,
        { to, data, value: 0n, gas },
        await estimateFees(client),
      );
      await broadcast(client, signed.raw);
      const receipt = await waitForReceipt(wanted.chainId, signed.hash);
      const status: 'pending' | 'confirmed' | 'failed' =
        receipt === null ? 'pending' : receipt.status === 'success' ? 'confirmed' : 'failed';
      return { hash: signed.hash, status };
    },
  };
}
