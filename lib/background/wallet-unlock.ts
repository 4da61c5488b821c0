// Unlocking the vault with the password (under the backoff) and changing that password: the
// wallet service's password steps (lib/background/wallet.ts).
import type { KeyringMeta } from '@/lib/wallet/keyring';
import type { WalletState } from '@/lib/wallet/state';
import { changeVaultPassword, unlockVault, upgradeVault } from '@/lib/wallet/vault';
import {
  adoptCheckedKeyring,
  readVault,
  requirePassword,
  type Unlocked,
  type UnlockedWallet,
  type VaultStore,
  WalletError,
  type WalletOptions,
  withBackoff,
} from './wallet-base';

/** The service's unlock methods; `open` holds the opened secrets and starts the session. */
export function unlockMethods(
  options: WalletOptions,
  vaultItem: VaultStore,
  state: () => Promise<WalletState>,
  setMeta: (next: KeyringMeta | null, rebuilt?: boolean) => void,
  open: (next: Unlocked, sessionKey: string) => Promise<void>,
  requireUnlocked: () => Promise<UnlockedWallet>,
) {
  const now = options.now ?? Date.now;
  return {
    async unlock(password: string): Promise<WalletState> {
      const raw = await readVault(vaultItem);
      if (raw === null) throw new WalletError('NO_WALLET', 'There is no wallet to unlock yet.');
      const opened = await withBackoff(now, () => unlockVault(raw, password, options.kdf));
      await adoptCheckedKeyring(opened.secrets, setMeta);
      let { key, sessionKey } = opened;
      if (opened.needsUpgrade) {
        // Stored with weaker KDF parameters than today's: re-encrypt now that we have the password.
        const upgraded = await upgradeVault(raw, password, options.kdf);
        await vaultItem.set(upgraded.vault);
        key = upgraded.key;
        sessionKey = upgraded.sessionKey;
      }
      await open({ secrets: opened.secrets, key }, sessionKey);
      return state();
    },

    /** A new password for the vault: the current one first (under the backoff), then the policy. */
    async changePassword(input: {
      password: string;
      newPassword: string;
      confirmation: string;
    }): Promise<WalletState> {
      await requireUnlocked();
      requirePassword(input.newPassword, input.confirmation);
      const raw = await readVault(vaultItem);
      const changed = await withBackoff(now, () =>
        changeVaultPassword(raw, input.password, input.newPassword, options.kdf),
      );
      await vaultItem.set(changed.vault);
      await open({ secrets: changed.secrets, key: changed.key }, changed.sessionKey);
      return state();
    },
  };
}
