// What every part of the wallet service shares (lib/background/wallet.ts): its error, its options,
// the unlocked secrets' shape, reading the stored vault, the password policy and the unlock backoff.
import type { StorageItem } from '@/lib/storage/item';
import { keyringMetaItem, unlockBackoffItem } from '@/lib/storage/items';
import type { KeyringMeta } from '@/lib/wallet/keyring';
import { restoredKeyring } from '@/lib/wallet/keyring-restore';
import { checkPassword } from '@/lib/wallet/password';
import { afterFailure, backoffMessage, NO_BACKOFF, waitLeft } from '@/lib/wallet/unlock-backoff';
import { type KdfParams, type Vault, VaultError, type VaultSecrets } from '@/lib/wallet/vault';
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

export type VaultStore = StorageItem<Vault | null>;

/** The stored vault, or null before a wallet exists; an unreadable one is never overwritten. */
export async function readVault(item: VaultStore): Promise<unknown | null> {
  const result = await item.read();
  if (!result.ok)
    throw new WalletError(
      'CORRUPT_VAULT',
      `The stored wallet cannot be read (${result.error.reason}). It was left untouched.`,
    );
  return result.value;
}

export function requirePassword(password: string, confirmation: string): void {
  const check = checkPassword(password, confirmation);
  if (!check.ok) throw new WalletError(`PASSWORD_${check.issue.code}`, check.issue.message);
}

// One password check at a time: parallel attempts would each read the same count and run PBKDF2
// together, so a burst of guesses counted once and the backoff did not hold.
let passwordChecks: Promise<unknown> = Promise.resolve();

/**
 * Checks a password against the vault under the backoff. Attempts run one after another, and each
 * is counted as a failure before the key derivation starts (so neither a parallel attempt nor a
 * worker stopped mid-derivation skips the count); a right password resets it, an error that is not
 * a verdict on the password (a corrupt vault) takes the count back.
 */
export function withBackoff<T>(now: () => number, attempt: () => Promise<T>): Promise<T> {
  const run = passwordChecks.then(() => checkedAttempt(now, attempt));
  passwordChecks = run.catch(() => undefined);
  return run;
}

async function checkedAttempt<T>(now: () => number, attempt: () => Promise<T>): Promise<T> {
  const backoff = await unlockBackoffItem.get();
  const wait = waitLeft(backoff, now());
  if (wait > 0) throw new WalletError('UNLOCK_BACKOFF', backoffMessage(wait));
  const counted = afterFailure(backoff, now());
  await unlockBackoffItem.set(counted);
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (error instanceof VaultError && error.code === 'WRONG_PASSWORD') {
      const left = waitLeft(counted, now());
      if (left > 0) throw new WalletError('WRONG_PASSWORD', `Wrong password. ${backoffMessage(left)}`);
    } else {
      await unlockBackoffItem.set(backoff);
    }
    throw error;
  }
  await unlockBackoffItem.set({ ...NO_BACKOFF });
  return result;
}

/** The wallet while unlocked: its secrets and its account list. */
export interface UnlockedWallet {
  unlocked: Unlocked;
  meta: KeyringMeta;
}

/**
 * Once the vault is open (unlock, or a restarted worker's session key): the stored account list is
 * checked against its secrets, and one that does not match is rebuilt from them and stored again.
 */
export async function adoptCheckedKeyring(
  secrets: VaultSecrets,
  setMeta: (next: KeyringMeta, rebuilt: boolean) => void,
): Promise<void> {
  const restored = await restoredKeyring(await keyringMetaItem.get(), secrets);
  if (restored.rebuilt) await keyringMetaItem.set(restored.meta);
  setMeta(restored.meta, restored.rebuilt);
}
