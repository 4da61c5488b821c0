// The background's wallet: holds the unlocked secrets in memory only, the encrypted vault in
// storage.local, the session key and auto-lock deadline in storage.session (trusted contexts
// only), so a restarted worker stays unlocked until the deadline. Views get account metadata,
// never key material, except the one-time phrase at creation and the password-gated reveal.
import type { LocalAccount } from 'viem';
import { keyringMetaItem } from '@/lib/storage/items';
import { shouldLock } from '@/lib/wallet/autolock';
import {
  activeAccount,
  addDerivedAccount,
  createKeyring,
  importKeyAccount,
  renameAccount,
  setActive,
  signerFor,
  verifyKeyring,
} from '@/lib/wallet/keyring';
import {
  checkConfirmation,
  newMnemonic,
  parsePrivateKey,
  pickConfirmationWords,
} from '@/lib/wallet/mnemonic';
import type { WalletState } from '@/lib/wallet/state';
import { deriveTrustKey } from '@/lib/wallet/trust-mac';
import { changeVaultPassword, unlockVault, unlockWithSessionKey, upgradeVault } from '@/lib/wallet/vault';
import { WalletCore, WalletError, type WalletOptions } from './wallet-core';

export { WalletError, type WalletOptions } from './wallet-core';

export function createWalletService(options: WalletOptions) {
  const core = new WalletCore(options);
  return {
    ...walletSession(core),
    ...walletCreation(core),
    ...walletAccounts(core),
    state: (): Promise<WalletState> => core.state(),
  };
}

/** Unlock, lock, the auto-lock, the password and the signer. */
function walletSession(core: WalletCore) {
  return {
    /** Restores an unlocked wallet after a worker restart, from the session key. */
    async restore(): Promise<void> {
      core.meta = await keyringMetaItem.get();
      const session = await core.walletSessionItem.get();
      if (!session) return;
      if (shouldLock(session.autoLock, core.now())) {
        await core.lock();
        return;
      }
      try {
        const opened = await unlockWithSessionKey(
          await core.readVault(),
          session.sessionKey,
          core.options.kdf,
        );
        core.unlocked = { secrets: opened.secrets, key: opened.key };
        core.options.scheduleLock?.(session.autoLock.deadline);
      } catch {
        await core.lock();
      }
    },

    /** The key that seals the trust-deciding settings; null while locked (lib/wallet/trust-mac.ts). */
    async trustKey(): Promise<CryptoKey | null> {
      await core.checkAutoLock(false);
      if (!core.unlocked) return null;
      core.unlocked.trustKey ??= deriveTrustKey(core.unlocked.secrets);
      return core.unlocked.trustKey;
    },

    async unlock(password: string): Promise<WalletState> {
      const raw = await core.readVault();
      if (raw === null) throw new WalletError('NO_WALLET', 'There is no wallet to unlock yet.');
      const opened = await core.withBackoff(() => unlockVault(raw, password, core.options.kdf));
      core.meta = await keyringMetaItem.get();
      if (!core.meta)
        throw new WalletError('CORRUPT_VAULT', 'The account list is missing; the vault was left untouched.');
      await verifyKeyring(core.meta, opened.secrets);
      let { key, sessionKey } = opened;
      if (opened.needsUpgrade) {
        // Stored with weaker KDF parameters than today's: re-encrypt now that we have the password.
        const upgraded = await upgradeVault(raw, password, core.options.kdf);
        await core.vaultItem.set(upgraded.vault);
        key = upgraded.key;
        sessionKey = upgraded.sessionKey;
      }
      core.unlocked = { secrets: opened.secrets, key };
      await core.startUnlockedSession(sessionKey);
      return core.state();
    },

    async lock(): Promise<WalletState> {
      await core.lock();
      return core.state();
    },

    /** The reveal screen: the password again, then the phrase or one imported key. */
    /** A new password for the vault: the current one first (under the backoff), then the policy. */
    async changePassword(input: {
      password: string;
      newPassword: string;
      confirmation: string;
    }): Promise<WalletState> {
      await core.requireUnlocked();
      core.requirePassword(input.newPassword, input.confirmation);
      const raw = await core.readVault();
      const changed = await core.withBackoff(() =>
        changeVaultPassword(raw, input.password, input.newPassword, core.options.kdf),
      );
      await core.vaultItem.set(changed.vault);
      core.unlocked = { secrets: changed.secrets, key: changed.key };
      await core.startUnlockedSession(changed.sessionKey);
      return core.state();
    },

    async reveal(password: string, target: 'mnemonic' | string): Promise<string> {
      const current = await core.requireUnlocked();
      const opened = await core.withBackoff(async () =>
        unlockVault(await core.readVault(), password, core.options.kdf),
      );
      if (target === 'mnemonic') {
        if (!opened.secrets.mnemonic)
          throw new WalletError(
            'NO_MNEMONIC',
            'This wallet was imported from a key: it has no recovery phrase.',
          );
        return opened.secrets.mnemonic;
      }
      const account = current.meta.accounts.find((entry) => entry.id === target);
      if (!account) throw new WalletError('UNKNOWN_ACCOUNT', 'No such account.');
      if (account.kind !== 'imported') {
        throw new WalletError('DERIVED_ACCOUNT', 'Derived accounts are backed up by the recovery phrase.');
      }
      const key = opened.secrets.importedKeys.find((entry) => entry.id === account.id)?.privateKey;
      if (!key) throw new WalletError('UNKNOWN_ACCOUNT', 'No key is stored for this account.');
      return key;
    },

    /** Any view activity pushes the auto-lock back (and locks if it already passed). */
    touch: () => core.checkAutoLock(true),

    checkAutoLock: () => core.checkAutoLock(false),

    /** The only way to sign: the active account's signer, for the transaction pipeline. */
    async activeSigner(): Promise<LocalAccount> {
      const current = await core.requireUnlocked();
      const account = activeAccount(current.meta);
      if (!account) throw new WalletError('NO_ACCOUNT', 'Add an account first.');
      return signerFor(current.unlocked.secrets, current.meta, account.id);
    },
  };
}

/** A new wallet: a phrase created and confirmed, or a phrase or key imported. */
function walletCreation(core: WalletCore) {
  return {
    /** Step 1 of creating a wallet: a new phrase, shown once, and which words to ask back. */
    async startCreate(words: 12 | 24): Promise<{ mnemonic: string; confirmPositions: number[] }> {
      if ((await core.readVault()) !== null)
        throw new WalletError('WALLET_EXISTS', 'A wallet already exists on this browser.');
      const phrase = newMnemonic(words);
      core.pendingMnemonic = { phrase, positions: pickConfirmationWords(phrase, 3) };
      return { mnemonic: phrase, confirmPositions: core.pendingMnemonic.positions };
    },

    /** Step 2: the user typed the asked words back; only then does the wallet exist. */
    async confirmCreate(input: {
      password: string;
      confirmation: string;
      answers: { position: number; word: string }[];
    }) {
      if (!core.pendingMnemonic)
        throw new WalletError('NO_PENDING_PHRASE', 'Start again: the new recovery phrase was not kept.');
      const asked = new Set(core.pendingMnemonic.positions);
      if (
        input.answers.length !== asked.size ||
        input.answers.some((answer) => !asked.has(answer.position))
      ) {
        throw new WalletError('CONFIRMATION_MISMATCH', 'Answer exactly the words Swaplane asked for.');
      }
      if (!checkConfirmation(core.pendingMnemonic.phrase, input.answers)) {
        throw new WalletError(
          'CONFIRMATION_MISMATCH',
          'Those words do not match your recovery phrase. Check your backup.',
        );
      }
      core.requirePassword(input.password, input.confirmation);
      const keyring = await createKeyring(core.pendingMnemonic.phrase);
      await core.persistNew(keyring.secrets, keyring.meta, input.password);
      core.pendingMnemonic = null;
      return core.state();
    },

    async importWallet(input: {
      kind: 'mnemonic' | 'privateKey';
      secret: string;
      password: string;
      confirmation: string;
    }) {
      if ((await core.readVault()) !== null)
        throw new WalletError('WALLET_EXISTS', 'A wallet already exists on this browser.');
      core.requirePassword(input.password, input.confirmation);
      if (input.kind === 'mnemonic') {
        const keyring = await createKeyring(input.secret);
        await core.persistNew(keyring.secrets, keyring.meta, input.password);
      } else {
        const parsed = parsePrivateKey(input.secret);
        if (!parsed.ok) throw new WalletError(`PRIVATE_KEY_${parsed.issue.code}`, parsed.issue.message);
        const imported = importKeyAccount(
          { accounts: [], activeId: null },
          { importedKeys: [] },
          parsed.privateKey,
        );
        await core.persistNew(imported.secrets, imported.meta, input.password);
      }
      return core.state();
    },
  };
}

/** Accounts of an unlocked wallet. */
function walletAccounts(core: WalletCore) {
  return {
    async addAccount(name?: string): Promise<WalletState> {
      const current = await core.requireUnlocked();
      const added = await addDerivedAccount(current.meta, current.unlocked.secrets, name);
      await keyringMetaItem.set(added.meta);
      core.meta = added.meta;
      return core.state();
    },

    async importKey(privateKey: string, name?: string): Promise<WalletState> {
      const current = await core.requireUnlocked();
      const imported = importKeyAccount(current.meta, current.unlocked.secrets, privateKey, name);
      await core.saveSecrets(imported.secrets, imported.meta);
      return core.state();
    },

    async rename(id: string, name: string): Promise<WalletState> {
      const current = await core.requireUnlocked();
      core.meta = renameAccount(current.meta, id, name);
      await keyringMetaItem.set(core.meta);
      return core.state();
    },

    async setActive(id: string): Promise<WalletState> {
      const current = await core.requireUnlocked();
      core.meta = setActive(current.meta, id);
      await keyringMetaItem.set(core.meta);
      return core.state();
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
