// The background's wallet: holds the unlocked secrets in memory only, the encrypted vault in
// storage.local, the session key and auto-lock deadline in storage.session (trusted contexts
// only), so a restarted worker stays unlocked until the deadline. Views get account metadata,
// never key material, except the one-time phrase at creation and the password-gated reveal.
// This file is the session (restore, auto-lock, lock); creation, unlock and accounts are in the
// wallet-*.ts files next to it. They share the state below through the functions passed to them
// (closure variables, not an object's properties: those would cost the background's budget).
import { remembered } from '@/lib/storage/item';
import {
  walletSessionItem as storedSession,
  vaultItem as storedVault,
  unlockBackoffItem,
  type VerifiedAccounts,
  verifiedAccountsItem,
} from '@/lib/storage/items';
import { shouldLock, startSession, touch, touchIsDue } from '@/lib/wallet/autolock';
import type { KeyringMeta } from '@/lib/wallet/keyring';
import type { WalletState } from '@/lib/wallet/state';
import { deriveTrustKey } from '@/lib/wallet/trust-mac';
import { NO_BACKOFF, waitLeft } from '@/lib/wallet/unlock-backoff';
import { unlockWithSessionKey } from '@/lib/wallet/vault';
import { accountMethods } from './wallet-accounts';
import {
  adoptCheckedKeyring,
  readVault,
  type Unlocked,
  type UnlockedWallet,
  type VaultStore,
  WalletError,
  type WalletOptions,
} from './wallet-base';
import { creationMethods } from './wallet-create';
import { unlockMethods } from './wallet-unlock';

export { WalletError, type WalletOptions } from './wallet-base';

const REBUILT_NOTICE =
  'The account list in storage did not match your wallet (it was changed outside Swaplane). It was rebuilt from your recovery phrase and keys; check your account names.';

/** Whether a vault is stored, and why it cannot be read if so (it is kept, never overwritten). */
async function vaultPresence(item: VaultStore): Promise<{ hasVault: boolean; vaultError: string | null }> {
  try {
    return { hasVault: (await readVault(item)) !== null, vaultError: null };
  } catch (error) {
    return { hasVault: true, vaultError: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The accounts views see: the open wallet's verified list (kept in storage.session for the locked
 * screen, written only when it changed), else while locked that last verified list, never storage.local's.
 */
function accountsShown() {
  let remembered: string | null = null;
  return async (verified: KeyringMeta | null, hasVault: boolean): Promise<VerifiedAccounts> => {
    if (!verified)
      return (hasVault ? await verifiedAccountsItem.get() : null) ?? { accounts: [], activeId: null };
    const shown = {
      accounts: verified.accounts.map(({ id, kind, address, name }) => ({ id, kind, address, name })),
      activeId: verified.activeId,
    };
    const text = JSON.stringify(shown);
    if (text !== remembered) {
      await verifiedAccountsItem.set(shown);
      remembered = text;
    }
    return shown;
  };
}

export function createWalletService(options: WalletOptions) {
  const now = options.now ?? Date.now;
  let unlocked: Unlocked | null = null;
  // Only ever a list checked against the open vault's secrets (or made from them): never storage's own.
  let meta: KeyringMeta | null = null;
  // Set when the stored account list did not match the vault and was rebuilt (said once, on screen).
  let accountListRebuilt = false;
  const shownAccounts = accountsShown();
  // Only this service writes them: read once, then from memory (every popup open asks for both).
  const vaultItem = remembered(storedVault);
  const walletSessionItem = remembered(storedSession);
  const setMeta = (next: KeyringMeta | null, rebuilt = false) => {
    meta = next;
    if (rebuilt) accountListRebuilt = true;
  };

  async function lock(): Promise<void> {
    unlocked = null;
    await walletSessionItem.remove();
    options.scheduleLock?.(null);
  }

  /** Holds the opened secrets and starts the auto-lock countdown. */
  async function open(next: Unlocked, sessionKey: string): Promise<void> {
    unlocked = next;
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

  async function requireUnlocked(): Promise<UnlockedWallet> {
    await checkAutoLock(false);
    if (!unlocked || !meta) throw new WalletError('LOCKED', 'The wallet is locked. Unlock it first.');
    return { unlocked, meta };
  }

  async function state(): Promise<WalletState> {
    await checkAutoLock(false);
    const { hasVault, vaultError } = await vaultPresence(vaultItem);
    const session = unlocked ? await walletSessionItem.get() : null;
    const backoff = unlocked ? NO_BACKOFF : await unlockBackoffItem.get();
    const shown = await shownAccounts(unlocked ? meta : null, hasVault);
    return {
      status: !hasVault ? 'none' : unlocked ? 'unlocked' : 'locked',
      retryAt: waitLeft(backoff, now()) > 0 ? backoff.notBefore : null,
      accounts: shown.accounts,
      activeId: shown.activeId,
      lockAt: session?.autoLock.deadline ?? null,
      ...(accountListRebuilt && unlocked ? { accountsNotice: REBUILT_NOTICE } : {}),
      vaultError,
    };
  }

  return {
    /** Restores an unlocked wallet after a worker restart, from the session key. */
    async restore(): Promise<void> {
      meta = null;
      const session = await walletSessionItem.get();
      if (!session) return;
      if (shouldLock(session.autoLock, now())) {
        await lock();
        return;
      }
      try {
        const raw = await readVault(vaultItem);
        const opened = await unlockWithSessionKey(raw, session.sessionKey, options.kdf);
        await adoptCheckedKeyring(opened.secrets, setMeta); // as an unlock does
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

    state,
    ...creationMethods(options, vaultItem, state, setMeta, open),
    ...unlockMethods(options, vaultItem, state, setMeta, open, requireUnlocked),

    async lock(): Promise<WalletState> {
      await lock();
      return state();
    },

    ...accountMethods(options, vaultItem, state, setMeta, requireUnlocked, (next) => {
      unlocked = next;
    }),

    /** Any view activity pushes the auto-lock back (and locks if it already passed). */
    touch: () => checkAutoLock(true),
    checkAutoLock: () => checkAutoLock(false),
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
