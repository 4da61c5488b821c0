import { remembered } from '@/lib/storage/item';
import {
  keyringMetaItem,
  walletSessionItem as storedSession,
  vaultItem as storedVault,
  unlockBackoffItem,
} from '@/lib/storage/items';
import { shouldLock, startSession, touch, touchIsDue } from '@/lib/wallet/autolock';
import type { KeyringMeta } from '@/lib/wallet/keyring';
import { checkPassword } from '@/lib/wallet/password';
import type { WalletState } from '@/lib/wallet/state';
import { afterFailure, backoffMessage, NO_BACKOFF, waitLeft } from '@/lib/wallet/unlock-backoff';
import {
  createVault,
  type KdfParams,
  updateVaultSecrets,
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

export interface Unlocked {
  secrets: VaultSecrets;
  key: CryptoKey;
  /** The trust-settings MAC key, derived on first use. */
  trustKey?: Promise<CryptoKey>;
}

/** The wallet's state in memory and the steps its operations share. */
export class WalletCore {
  readonly now: () => number;
  unlocked: Unlocked | null = null;
  meta: KeyringMeta | null = null;
  pendingMnemonic: { phrase: string; positions: number[] } | null = null;
  // Only this service writes them: read once, then from memory (every popup open asks for both).
  readonly vaultItem = remembered(storedVault);
  readonly walletSessionItem = remembered(storedSession);

  constructor(readonly options: WalletOptions) {
    this.now = options.now ?? Date.now;
  }

  async readVault(): Promise<unknown | null> {
    const result = await this.vaultItem.read();
    if (!result.ok)
      throw new WalletError(
        'CORRUPT_VAULT',
        `The stored wallet cannot be read (${result.error.reason}). It was left untouched.`,
      );
    return result.value;
  }

  async lock(): Promise<void> {
    this.unlocked = null;
    await this.walletSessionItem.remove();
    this.options.scheduleLock?.(null);
  }

  async startUnlockedSession(sessionKey: string): Promise<void> {
    const autoLock = startSession(this.now(), this.options.autoLockMinutes());
    await this.walletSessionItem.set({ sessionKey, autoLock });
    this.options.scheduleLock?.(autoLock.deadline);
  }

  /** Locks if the deadline passed; otherwise activity pushes it back. */
  async checkAutoLock(activity: boolean): Promise<void> {
    if (!this.unlocked) return;
    const session = await this.walletSessionItem.get();
    if (!session || shouldLock(session.autoLock, this.now())) {
      await this.lock();
      return;
    }
    if (!activity || !touchIsDue(session.autoLock, this.now(), this.options.autoLockMinutes())) return;
    const next = touch(session.autoLock, this.now(), this.options.autoLockMinutes());
    if (!next) {
      await this.lock();
      return;
    }
    await this.walletSessionItem.set({ ...session, autoLock: next });
    this.options.scheduleLock?.(next.deadline);
  }

  async persistNew(secrets: VaultSecrets, nextMeta: KeyringMeta, password: string): Promise<void> {
    const sealed = await createVault(secrets, password, this.options.kdf);
    await this.vaultItem.set(sealed.vault);
    await keyringMetaItem.set(nextMeta);
    this.meta = nextMeta;
    this.unlocked = { secrets, key: sealed.key };
    await this.startUnlockedSession(sealed.sessionKey);
  }

  requirePassword(password: string, confirmation: string): void {
    const check = checkPassword(password, confirmation);
    if (!check.ok) throw new WalletError(`PASSWORD_${check.issue.code}`, check.issue.message);
  }

  async requireUnlocked(): Promise<{ unlocked: Unlocked; meta: KeyringMeta }> {
    await this.checkAutoLock(false);
    if (!this.unlocked || !this.meta)
      throw new WalletError('LOCKED', 'The wallet is locked. Unlock it first.');
    return { unlocked: this.unlocked, meta: this.meta };
  }

  /** Checks a password against the vault under the backoff: wrong ones count, a right one resets it. */
  async withBackoff<T>(attempt: () => Promise<T>): Promise<T> {
    const backoff = await unlockBackoffItem.get();
    const wait = waitLeft(backoff, this.now());
    if (wait > 0) throw new WalletError('UNLOCK_BACKOFF', backoffMessage(wait));
    try {
      const result = await attempt();
      if (backoff.failures > 0) await unlockBackoffItem.set({ ...NO_BACKOFF });
      return result;
    } catch (error) {
      if (error instanceof VaultError && error.code === 'WRONG_PASSWORD') {
        const next = afterFailure(backoff, this.now());
        await unlockBackoffItem.set(next);
        const left = waitLeft(next, this.now());
        if (left > 0) throw new WalletError('WRONG_PASSWORD', `Wrong password. ${backoffMessage(left)}`);
      }
      throw error;
    }
  }

  async saveSecrets(secrets: VaultSecrets, nextMeta: KeyringMeta): Promise<void> {
    const current = await this.requireUnlocked();
    const vault = await updateVaultSecrets(await this.readVault(), current.unlocked.key, secrets);
    await this.vaultItem.set(vault);
    await keyringMetaItem.set(nextMeta);
    this.unlocked = { ...current.unlocked, secrets };
    this.meta = nextMeta;
  }

  async state(): Promise<WalletState> {
    await this.checkAutoLock(false);
    let vaultError: string | null = null;
    let hasVault = false;
    try {
      hasVault = (await this.readVault()) !== null;
    } catch (error) {
      vaultError = error instanceof Error ? error.message : String(error);
      hasVault = true;
    }
    const session = this.unlocked ? await this.walletSessionItem.get() : null;
    const backoff = this.unlocked ? NO_BACKOFF : await unlockBackoffItem.get();
    return {
      status: !hasVault ? 'none' : this.unlocked ? 'unlocked' : 'locked',
      retryAt: waitLeft(backoff, this.now()) > 0 ? backoff.notBefore : null,
      accounts: (this.meta?.accounts ?? []).map(({ id, kind, address, name }) => ({
        id,
        kind,
        address,
        name,
      })),
      activeId: this.meta?.activeId ?? null,
      lockAt: session?.autoLock.deadline ?? null,
      vaultError,
    };
  }
}
