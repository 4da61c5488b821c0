// The background's wallet: holds the unlocked secrets in memory only, the encrypted vault in
// storage.local, the session key and auto-lock deadline in storage.session (trusted contexts
// only), so a restarted worker stays unlocked until the deadline. Views get account metadata,
// never key material, except the one-time phrase at creation and the password-gated reveal.
import type { LocalAccount } from 'viem';
import { remembered } from '@/lib/storage/item';
import {
  keyringMetaItem,
  walletSessionItem as storedSession,
  vaultItem as storedVault,
  unlockBackoffItem,
} from '@/lib/storage/items';
import { shouldLock, startSession, touch, touchIsDue } from '@/lib/wallet/autolock';
import {
  activeAccount,
  addDerivedAccount,
  createKeyring,
  importKeyAccount,
  type KeyringMeta,
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
import { checkPassword } from '@/lib/wallet/password';
import type { WalletState } from '@/lib/wallet/state';
import { deriveTrustKey } from '@/lib/wallet/trust-mac';
import { afterFailure, backoffMessage, NO_BACKOFF, waitLeft } from '@/lib/wallet/unlock-backoff';
import {
  changeVaultPassword,
  createVault,
  type KdfParams,
  unlockVault,
  unlockWithSessionKey,
  updateVaultSecrets,
  upgradeVault,
  VaultError,
  type VaultSecrets,
} from '@/lib/wallet/vault';
import { CodedError } from './errors';

export class WalletError extends CodedError {
  override name = 'WalletError';
}

export interface WalletOptions {
  autoLockMinutes: () => number;
  now?: () => number;
  /** Tests use fewer PBKDF2 iterations; production uses the vault's defaults. */
  kdf?: KdfParams;
  /** Schedules the auto-lock check (browser.alarms in the worker). */
  scheduleLock?: (at: number | null) => void;
}

interface Unlocked {
  secrets: VaultSecrets;
  key: CryptoKey;
  /** The trust-settings MAC key, derived on first use. */
  trustKey?: Promise<CryptoKey>;
}

export function createWalletService(options: WalletOptions) {
  const now = options.now ?? Date.now;
  let unlocked: Unlocked | null = null;
  let meta: KeyringMeta | null = null;
  let pendingMnemonic: { phrase: string; positions: number[] } | null = null;
  // Only this service writes them: read once, then from memory (every popup open asks for both).
  const vaultItem = remembered(storedVault);
  const walletSessionItem = remembered(storedSession);

  async function readVault(): Promise<unknown | null> {
    const result = await vaultItem.read();
    if (!result.ok)
      throw new WalletError(
        'CORRUPT_VAULT',
        `The stored wallet cannot be read (${result.error.reason}). It was left untouched.`,
      );
    return result.value;
  }

  async function lock(): Promise<void> {
    unlocked = null;
    await walletSessionItem.remove();
    options.scheduleLock?.(null);
  }

  async function startUnlockedSession(sessionKey: string): Promise<void> {
    const autoLock = startSession(now(), options.autoLockMinutes());
    await walletSessionItem.set({ sessionKey, autoLock });
    options.scheduleLock?.(autoLock.deadline);
  }

  /** Locks if the deadline passed; otherwise activity pushes it back. */
  async function checkAutoLock(activity: boolean): Promise<void> {
    if (!unlocked) return;
    const session = await walletSessionItem.get();
    if (!session || shouldLock(session.autoLock, now())) {
      await lock();
      return;
    }
    if (!activity || !touchIsDue(session.autoLock, now(), options.autoLockMinutes())) return;
    const next = touch(session.autoLock, now(), options.autoLockMinutes());
    if (!next) {
      await lock();
      return;
    }
    await walletSessionItem.set({ ...session, autoLock: next });
    options.scheduleLock?.(next.deadline);
  }

  async function persistNew(secrets: VaultSecrets, nextMeta: KeyringMeta, password: string): Promise<void> {
    const sealed = await createVault(secrets, password, options.kdf);
    await vaultItem.set(sealed.vault);
    await keyringMetaItem.set(nextMeta);
    meta = nextMeta;
    unlocked = { secrets, key: sealed.key };
    await startUnlockedSession(sealed.sessionKey);
  }

  function requirePassword(password: string, confirmation: string): void {
    const check = checkPassword(password, confirmation);
    if (!check.ok) throw new WalletError(`PASSWORD_${check.issue.code}`, check.issue.message);
  }

  async function requireUnlocked(): Promise<{ unlocked: Unlocked; meta: KeyringMeta }> {
    await checkAutoLock(false);
    if (!unlocked || !meta) throw new WalletError('LOCKED', 'The wallet is locked. Unlock it first.');
    return { unlocked, meta };
  }

  /** Checks a password against the vault under the backoff: wrong ones count, a right one resets it. */
  async function withBackoff<T>(attempt: () => Promise<T>): Promise<T> {
    const backoff = await unlockBackoffItem.get();
    const wait = waitLeft(backoff, now());
    if (wait > 0) throw new WalletError('UNLOCK_BACKOFF', backoffMessage(wait));
    try {
      const result = await attempt();
      if (backoff.failures > 0) await unlockBackoffItem.set({ ...NO_BACKOFF });
      return result;
    } catch (error) {
      if (error instanceof VaultError && error.code === 'WRONG_PASSWORD') {
        const next = afterFailure(backoff, now());
        await unlockBackoffItem.set(next);
        const left = waitLeft(next, now());
        if (left > 0) throw new WalletError('WRONG_PASSWORD', `Wrong password. ${backoffMessage(left)}`);
      }
      throw error;
    }
  }

  async function saveSecrets(secrets: VaultSecrets, nextMeta: KeyringMeta): Promise<void> {
    const current = await requireUnlocked();
    const vault = await updateVaultSecrets(await readVault(), current.unlocked.key, secrets);
    await vaultItem.set(vault);
    await keyringMetaItem.set(nextMeta);
    unlocked = { ...current.unlocked, secrets };
    meta = nextMeta;
  }

  const service = {
    /** Restores an unlocked wallet after a worker restart, from the session key. */
    async restore(): Promise<void> {
      meta = await keyringMetaItem.get();
      const session = await walletSessionItem.get();
      if (!session) return;
      if (shouldLock(session.autoLock, now())) {
        await lock();
        return;
      }
      try {
        const opened = await unlockWithSessionKey(await readVault(), session.sessionKey, options.kdf);
        unlocked = { secrets: opened.secrets, key: opened.key };
        options.scheduleLock?.(session.autoLock.deadline);
      } catch {
        await lock();
      }
    },

    /** The key that seals the trust-deciding settings; null while locked (lib/wallet/trust-mac.ts). */
    async trustKey(): Promise<CryptoKey | null> {
      await checkAutoLock(false);
      if (!unlocked) return null;
      unlocked.trustKey ??= deriveTrustKey(unlocked.secrets);
      return unlocked.trustKey;
    },

    async state(): Promise<WalletState> {
      await checkAutoLock(false);
      let vaultError: string | null = null;
      let hasVault = false;
      try {
        hasVault = (await readVault()) !== null;
      } catch (error) {
        vaultError = error instanceof Error ? error.message : String(error);
        hasVault = true;
      }
      const session = unlocked ? await walletSessionItem.get() : null;
      const backoff = unlocked ? NO_BACKOFF : await unlockBackoffItem.get();
      return {
        status: !hasVault ? 'none' : unlocked ? 'unlocked' : 'locked',
        retryAt: waitLeft(backoff, now()) > 0 ? backoff.notBefore : null,
        accounts: (meta?.accounts ?? []).map(({ id, kind, address, name }) => ({ id, kind, address, name })),
        activeId: meta?.activeId ?? null,
        lockAt: session?.autoLock.deadline ?? null,
        vaultError,
      };
    },

    /** Step 1 of creating a wallet: a new phrase, shown once, and which words to ask back. */
    async startCreate(words: 12 | 24): Promise<{ mnemonic: string; confirmPositions: number[] }> {
      if ((await readVault()) !== null)
        throw new WalletError('WALLET_EXISTS', 'A wallet already exists on this browser.');
      const phrase = newMnemonic(words);
      pendingMnemonic = { phrase, positions: pickConfirmationWords(phrase, 3) };
      return { mnemonic: phrase, confirmPositions: pendingMnemonic.positions };
    },

    /** Step 2: the user typed the asked words back; only then does the wallet exist. */
    async confirmCreate(input: {
      password: string;
      confirmation: string;
      answers: { position: number; word: string }[];
    }) {
      if (!pendingMnemonic)
        throw new WalletError('NO_PENDING_PHRASE', 'Start again: the new recovery phrase was not kept.');
      const asked = new Set(pendingMnemonic.positions);
      if (
        input.answers.length !== asked.size ||
        input.answers.some((answer) => !asked.has(answer.position))
      ) {
        throw new WalletError('CONFIRMATION_MISMATCH', 'Answer exactly the words Swaplane asked for.');
      }
      if (!checkConfirmation(pendingMnemonic.phrase, input.answers)) {
        throw new WalletError(
          'CONFIRMATION_MISMATCH',
          'Those words do not match your recovery phrase. Check your backup.',
        );
      }
      requirePassword(input.password, input.confirmation);
      const keyring = await createKeyring(pendingMnemonic.phrase);
      await persistNew(keyring.secrets, keyring.meta, input.password);
      pendingMnemonic = null;
      return service.state();
    },

    async importWallet(input: {
      kind: 'mnemonic' | 'privateKey';
      secret: string;
      password: string;
      confirmation: string;
    }) {
      if ((await readVault()) !== null)
        throw new WalletError('WALLET_EXISTS', 'A wallet already exists on this browser.');
      requirePassword(input.password, input.confirmation);
      if (input.kind === 'mnemonic') {
        const keyring = await createKeyring(input.secret);
        await persistNew(keyring.secrets, keyring.meta, input.password);
      } else {
        const parsed = parsePrivateKey(input.secret);
        if (!parsed.ok) throw new WalletError(`PRIVATE_KEY_${parsed.issue.code}`, parsed.issue.message);
        const imported = importKeyAccount(
          { accounts: [], activeId: null },
          { importedKeys: [] },
          parsed.privateKey,
        );
        await persistNew(imported.secrets, imported.meta, input.password);
      }
      return service.state();
    },

    async unlock(password: string): Promise<WalletState> {
      const raw = await readVault();
      if (raw === null) throw new WalletError('NO_WALLET', 'There is no wallet to unlock yet.');
      const opened = await withBackoff(() => unlockVault(raw, password, options.kdf));
      meta = await keyringMetaItem.get();
      if (!meta)
        throw new WalletError('CORRUPT_VAULT', 'The account list is missing; the vault was left untouched.');
      await verifyKeyring(meta, opened.secrets);
      let { key, sessionKey } = opened;
      if (opened.needsUpgrade) {
        // Stored with weaker KDF parameters than today's: re-encrypt now that we have the password.
        const upgraded = await upgradeVault(raw, password, options.kdf);
        await vaultItem.set(upgraded.vault);
        key = upgraded.key;
        sessionKey = upgraded.sessionKey;
      }
      unlocked = { secrets: opened.secrets, key };
      await startUnlockedSession(sessionKey);
      return service.state();
    },

    async lock(): Promise<WalletState> {
      await lock();
      return service.state();
    },

    async addAccount(name?: string): Promise<WalletState> {
      const current = await requireUnlocked();
      const added = await addDerivedAccount(current.meta, current.unlocked.secrets, name);
      await keyringMetaItem.set(added.meta);
      meta = added.meta;
      return service.state();
    },

    async importKey(privateKey: string, name?: string): Promise<WalletState> {
      const current = await requireUnlocked();
      const imported = importKeyAccount(current.meta, current.unlocked.secrets, privateKey, name);
      await saveSecrets(imported.secrets, imported.meta);
      return service.state();
    },

    async rename(id: string, name: string): Promise<WalletState> {
      const current = await requireUnlocked();
      meta = renameAccount(current.meta, id, name);
      await keyringMetaItem.set(meta);
      return service.state();
    },

    async setActive(id: string): Promise<WalletState> {
      const current = await requireUnlocked();
      meta = setActive(current.meta, id);
      await keyringMetaItem.set(meta);
      return service.state();
    },

    /** The reveal screen: the password again, then the phrase or one imported key. */
    /** A new password for the vault: the current one first (under the backoff), then the policy. */
    async changePassword(input: {
      password: string;
      newPassword: string;
      confirmation: string;
    }): Promise<WalletState> {
      await requireUnlocked();
      requirePassword(input.newPassword, input.confirmation);
      const raw = await readVault();
      const changed = await withBackoff(() =>
        changeVaultPassword(raw, input.password, input.newPassword, options.kdf),
      );
      await vaultItem.set(changed.vault);
      unlocked = { secrets: changed.secrets, key: changed.key };
      await startUnlockedSession(changed.sessionKey);
      return service.state();
    },

    async reveal(password: string, target: 'mnemonic' | string): Promise<string> {
      const current = await requireUnlocked();
      const opened = await withBackoff(async () => unlockVault(await readVault(), password, options.kdf));
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
    touch: () => checkAutoLock(true),
    checkAutoLock: () => checkAutoLock(false),

    /** The only way to sign: the active account's signer, for the transaction pipeline. */
    async activeSigner(): Promise<LocalAccount> {
      const current = await requireUnlocked();
      const account = activeAccount(current.meta);
      if (!account) throw new WalletError('NO_ACCOUNT', 'Add an account first.');
      return signerFor(current.unlocked.secrets, current.meta, account.id);
    },
  };
  return service;
}

export type WalletService = ReturnType<typeof createWalletService>;
