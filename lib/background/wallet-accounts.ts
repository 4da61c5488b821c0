// The unlocked wallet's accounts: adding, importing, renaming, choosing the active one, revealing
// a backup (password again) and the active account's signer (lib/background/wallet.ts).
import type { LocalAccount } from 'viem';
import { keyringMetaItem } from '@/lib/storage/items';
import {
  activeAccount,
  addDerivedAccount,
  importKeyAccount,
  type KeyringMeta,
  renameAccount,
  setActive,
  signerFor,
} from '@/lib/wallet/keyring';
import type { WalletState } from '@/lib/wallet/state';
import { unlockVault, updateVaultSecrets, type VaultSecrets } from '@/lib/wallet/vault';
import {
  readVault,
  type Unlocked,
  type UnlockedWallet,
  type VaultStore,
  WalletError,
  type WalletOptions,
  withBackoff,
} from './wallet-base';

/** What the reveal screen shows: the phrase, or one imported account's key (never a derived one's). */
export function revealedSecret(
  secrets: VaultSecrets,
  meta: KeyringMeta,
  target: 'mnemonic' | string,
): string {
  if (target === 'mnemonic') {
    if (!secrets.mnemonic)
      throw new WalletError('NO_MNEMONIC', 'This wallet was imported from a key: it has no recovery phrase.');
    return secrets.mnemonic;
  }
  const account = meta.accounts.find((entry) => entry.id === target);
  if (!account) throw new WalletError('UNKNOWN_ACCOUNT', 'No such account.');
  if (account.kind !== 'imported') {
    throw new WalletError('DERIVED_ACCOUNT', 'Derived accounts are backed up by the recovery phrase.');
  }
  const key = secrets.importedKeys.find((entry) => entry.id === account.id)?.privateKey;
  if (!key) throw new WalletError('UNKNOWN_ACCOUNT', 'No key is stored for this account.');
  return key;
}

/** The service's account methods, all behind `requireUnlocked`. */
export function accountMethods(
  options: WalletOptions,
  vaultItem: VaultStore,
  state: () => Promise<WalletState>,
  setMeta: (next: KeyringMeta) => void,
  requireUnlocked: () => Promise<UnlockedWallet>,
  setUnlocked: (next: Unlocked) => void,
) {
  async function saveSecrets(secrets: VaultSecrets, nextMeta: KeyringMeta): Promise<void> {
    const current = await requireUnlocked();
    const vault = await updateVaultSecrets(await readVault(vaultItem), current.unlocked.key, secrets);
    await vaultItem.set(vault);
    await keyringMetaItem.set(nextMeta);
    setUnlocked({ ...current.unlocked, secrets });
    setMeta(nextMeta);
  }

  return {
    async addAccount(name?: string): Promise<WalletState> {
      const current = await requireUnlocked();
      const added = await addDerivedAccount(current.meta, current.unlocked.secrets, name);
      await keyringMetaItem.set(added.meta);
      setMeta(added.meta);
      return state();
    },

    async importKey(privateKey: string, name?: string): Promise<WalletState> {
      const current = await requireUnlocked();
      const imported = importKeyAccount(current.meta, current.unlocked.secrets, privateKey, name);
      await saveSecrets(imported.secrets, imported.meta);
      return state();
    },

    async rename(id: string, name: string): Promise<WalletState> {
      const next = renameAccount((await requireUnlocked()).meta, id, name);
      setMeta(next);
      await keyringMetaItem.set(next);
      return state();
    },

    async setActive(id: string): Promise<WalletState> {
      const next = setActive((await requireUnlocked()).meta, id);
      setMeta(next);
      await keyringMetaItem.set(next);
      return state();
    },

    /** The reveal screen: the password again, then the phrase or one imported key. */
    async reveal(password: string, target: 'mnemonic' | string): Promise<string> {
      const current = await requireUnlocked();
      const opened = await withBackoff(options.now ?? Date.now, async () =>
        unlockVault(await readVault(vaultItem), password, options.kdf),
      );
      return revealedSecret(opened.secrets, current.meta, target);
    },

    /** The only way to sign: the active account's signer, for the transaction pipeline. */
    async activeSigner(): Promise<LocalAccount> {
      const current = await requireUnlocked();
      const account = activeAccount(current.meta);
      if (!account) throw new WalletError('NO_ACCOUNT', 'Add an account first.');
      return signerFor(current.unlocked.secrets, current.meta, account.id);
    },
  };
}
