// Which accounts a site sees: offered to the user on connect (every account, the active one
// first), the user's pick checked against the wallet, and eth_accounts' order (active first).
// Only the active account signs: a site connected without it makes its first chosen account active.
import { getAddress } from 'viem';
import { sameAddress } from '@/lib/api/schema';
import { DappRpcError, RPC_ERROR } from '@/lib/dapp/errors';
import { type ConnectedSite, permittedAccounts } from '@/lib/dapp/sites';
import type { UserChoice } from './dapp-approvals';
import { CodedError } from './errors';
import type { WalletService } from './wallet';

export function dappAccounts(
  wallet: Pick<WalletService, 'state' | 'setActive'>,
  sites: () => Promise<ConnectedSite[]>,
) {
  /** The accounts a connect request offers: every account of the wallet, the active one first. */
  async function offeredAccounts() {
    const state = await wallet.state();
    const active = state.accounts.find((account) => account.id === state.activeId);
    const others = state.accounts.filter((account) => account !== active);
    return (active ? [active, ...others] : others).map((account) => ({
      address: getAddress(account.address),
      name: account.name,
      active: account === active,
    }));
  }

  /** The user's pick, checked against the wallet's accounts (the window is not trusted to list them). */
  async function chosenAccounts(choice: UserChoice): Promise<string[]> {
    const offered = await offeredAccounts();
    if (offered.length === 0) {
      throw new DappRpcError(RPC_ERROR.unauthorized, 'Swaplane has no account to connect.');
    }
    const picked = choice.accounts ?? [offered[0]?.address ?? ''];
    const accounts = offered.filter((account) =>
      picked.some((address) => sameAddress(address, account.address)),
    );
    if (accounts.length === 0 || accounts.length !== new Set(picked.map((a) => a.toLowerCase())).size) {
      throw new CodedError('BAD_ACCOUNTS', 'Choose at least one of your accounts for this site.');
    }
    return accounts.map((account) => account.address);
  }

  /** A site's accounts as eth_accounts answers them: the active account first when it is granted. */
  async function orderedAccounts(origin: string, isUnlocked: boolean): Promise<string[]> {
    const accounts = permittedAccounts(await sites(), origin, isUnlocked);
    const state = await wallet.state();
    const active = state.accounts.find((account) => account.id === state.activeId)?.address;
    const first = accounts.find((account) => active !== undefined && sameAddress(account, active));
    return first ? [first, ...accounts.filter((account) => account !== first)] : accounts;
  }

  /**
   * After a connect: when the user left the active account out, the first chosen one becomes active
   * (the one the site will ask to sign with); its address, or null when nothing changed.
   */
  async function activateChosen(chosen: readonly string[]): Promise<string | null> {
    const state = await wallet.state();
    const active = state.accounts.find((account) => account.id === state.activeId);
    if (active && chosen.some((address) => sameAddress(address, active.address))) return null;
    const first = state.accounts.find((account) => sameAddress(account.address, chosen[0] ?? ''));
    if (!first) return null;
    await wallet.setActive(first.id);
    return getAddress(first.address);
  }

  return { offeredAccounts, chosenAccounts, orderedAccounts, activateChosen };
}
