// Creating a wallet (a new phrase, confirmed by typing words back) or importing one (a phrase or a
// private key): the wallet service's steps before any vault exists (lib/background/wallet.ts).
import { keyringMetaItem, unlockBackoffItem } from '@/lib/storage/items';
import { createKeyring, importKeyAccount, type KeyringMeta } from '@/lib/wallet/keyring';
import {
  checkConfirmation,
  newMnemonic,
  parsePrivateKey,
  pickConfirmationWords,
} from '@/lib/wallet/mnemonic';
import type { WalletState } from '@/lib/wallet/state';
import { NO_BACKOFF } from '@/lib/wallet/unlock-backoff';
import { createVault, type VaultSecrets } from '@/lib/wallet/vault';
import {
  readVault,
  requirePassword,
  type Unlocked,
  type VaultStore,
  WalletError,
  type WalletOptions,
} from './wallet-base';

export interface PendingPhrase {
  phrase: string;
  positions: number[];
}

/** Throws unless the answers are exactly the asked positions and match the phrase's words. */
export function checkAnswers(pending: PendingPhrase, answers: { position: number; word: string }[]): void {
  const asked = new Set(pending.positions);
  if (answers.length !== asked.size || answers.some((answer) => !asked.has(answer.position))) {
    throw new WalletError('CONFIRMATION_MISMATCH', 'Answer exactly the words Swaplane asked for.');
  }
  if (!checkConfirmation(pending.phrase, answers)) {
    throw new WalletError(
      'CONFIRMATION_MISMATCH',
      'Those words do not match your recovery phrase. Check your backup.',
    );
  }
}

/** The service's creation methods; `open` holds the new secrets and starts the session. */
export function creationMethods(
  options: WalletOptions,
  vaultItem: VaultStore,
  state: () => Promise<WalletState>,
  setMeta: (next: KeyringMeta) => void,
  open: (next: Unlocked, sessionKey: string) => Promise<void>,
) {
  // The phrase between the two steps of creation: memory only, never stored.
  let pendingMnemonic: PendingPhrase | null = null;

  async function persistNew(secrets: VaultSecrets, nextMeta: KeyringMeta, password: string): Promise<void> {
    const sealed = await createVault(secrets, password, options.kdf);
    await vaultItem.set(sealed.vault);
    await keyringMetaItem.set(nextMeta);
    setMeta(nextMeta);
    await open({ secrets, key: sealed.key }, sealed.sessionKey);
  }

  return {
    /** Step 1 of creating a wallet: a new phrase, shown once, and which words to ask back. */
    async startCreate(words: 12 | 24): Promise<{ mnemonic: string; confirmPositions: number[] }> {
      if ((await readVault(vaultItem)) !== null)
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
      checkAnswers(pendingMnemonic, input.answers);
      requirePassword(input.password, input.confirmation);
      const keyring = await createKeyring(pendingMnemonic.phrase);
      await persistNew(keyring.secrets, keyring.meta, input.password);
      pendingMnemonic = null;
      return state();
    },

    async importWallet(input: {
      kind: 'mnemonic' | 'privateKey';
      secret: string;
      password: string;
      confirmation: string;
    }) {
      if ((await readVault(vaultItem)) !== null)
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
      return state();
    },

    /**
     * "Forgot password?": the wallet made again from its recovery phrase under a new password,
     * replacing the stored vault (keys imported on their own are not in the phrase and are lost; the
     * popup says so first). The phrase and password are checked before anything is replaced.
     */
    async restoreWallet(input: { mnemonic: string; password: string; confirmation: string }) {
      requirePassword(input.password, input.confirmation);
      const keyring = await createKeyring(input.mnemonic);
      await persistNew(keyring.secrets, keyring.meta, input.password);
      await unlockBackoffItem.set({ ...NO_BACKOFF });
      return state();
    },
  };
}
