// The wallet service's pieces that are plain functions (lib/background/wallet-*.ts), tested without
// building a service: the confirmation check, the reveal choice, the vault read and the backoff.
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { revealedSecret } from '@/lib/background/wallet-accounts';
import { readVault, type VaultStore, WalletError, withBackoff } from '@/lib/background/wallet-base';
import { checkAnswers } from '@/lib/background/wallet-create';
import { StorageReadError } from '@/lib/storage/item';
import { unlockBackoffItem } from '@/lib/storage/items';
import type { KeyringMeta } from '@/lib/wallet/keyring';
import { FREE_ATTEMPTS, NO_BACKOFF } from '@/lib/wallet/unlock-backoff';
import { VaultError } from '@/lib/wallet/vault';

const PHRASE = 'test test test test test test test test test test test junk';
const KEY = `0x${'11'.repeat(32)}` as const;
const ADDRESS = `0x${'ab'.repeat(20)}` as const;
const META: KeyringMeta = {
  accounts: [
    { id: 'd0', kind: 'derived', index: 0, address: ADDRESS, name: 'Account 1' },
    { id: 'k1', kind: 'imported', address: ADDRESS, name: 'Imported' },
    { id: 'k2', kind: 'imported', address: ADDRESS, name: 'Lost key' },
  ],
  activeId: 'd0',
};

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WalletError);
    return (error as WalletError).code;
  }
  return undefined;
}

describe('checkAnswers (creation step 2)', () => {
  // Positions count from 1, as the view shows them.
  const pending = { phrase: PHRASE, positions: [1, 6, 12] };

  it('accepts exactly the asked words', () => {
    const answers = [
      { position: 1, word: 'test' },
      { position: 6, word: 'test' },
      { position: 12, word: 'junk' },
    ];
    expect(codeOf(() => checkAnswers(pending, answers))).toBeUndefined();
  });

  it('refuses other positions, missing answers and wrong words', () => {
    expect(codeOf(() => checkAnswers(pending, [{ position: 1, word: 'test' }]))).toBe(
      'CONFIRMATION_MISMATCH',
    );
    const otherPosition = [
      { position: 1, word: 'test' },
      { position: 6, word: 'test' },
      { position: 11, word: 'test' },
    ];
    expect(codeOf(() => checkAnswers(pending, otherPosition))).toBe('CONFIRMATION_MISMATCH');
    const wrongWord = [
      { position: 1, word: 'test' },
      { position: 6, word: 'test' },
      { position: 12, word: 'test' },
    ];
    expect(codeOf(() => checkAnswers(pending, wrongWord))).toBe('CONFIRMATION_MISMATCH');
  });
});

describe('revealedSecret', () => {
  const secrets = { mnemonic: PHRASE, importedKeys: [{ id: 'k1', privateKey: KEY }] };

  it('gives the phrase, or an imported account’s key', () => {
    expect(revealedSecret(secrets, META, 'mnemonic')).toBe(PHRASE);
    expect(revealedSecret(secrets, META, 'k1')).toBe(KEY);
  });

  it('never a derived account’s key, an unknown account’s, or a phrase that does not exist', () => {
    expect(codeOf(() => revealedSecret(secrets, META, 'd0'))).toBe('DERIVED_ACCOUNT');
    expect(codeOf(() => revealedSecret(secrets, META, 'nope'))).toBe('UNKNOWN_ACCOUNT');
    expect(codeOf(() => revealedSecret(secrets, META, 'k2'))).toBe('UNKNOWN_ACCOUNT');
    expect(codeOf(() => revealedSecret({ importedKeys: [] }, META, 'mnemonic'))).toBe('NO_MNEMONIC');
  });
});

describe('readVault', () => {
  it('returns the stored value, and refuses an unreadable one with CORRUPT_VAULT', async () => {
    const store = (result: Awaited<ReturnType<VaultStore['read']>>) =>
      ({ read: async () => result }) as unknown as VaultStore;
    expect(await readVault(store({ ok: true, value: null, found: false }))).toBeNull();
    const error = new StorageReadError('vault', 'invalid', 'bad');
    await expect(readVault(store({ ok: false, error, stored: 1 }))).rejects.toMatchObject({
      code: 'CORRUPT_VAULT',
    });
  });
});

describe('withBackoff', () => {
  let clock: number;
  const now = () => clock;
  const wrong = () => Promise.reject(new VaultError('WRONG_PASSWORD', 'wrong'));

  beforeEach(() => {
    fakeBrowser.reset();
    clock = 1_000_000;
  });

  it('counts wrong passwords, then makes the next attempt wait', async () => {
    for (let i = 1; i < FREE_ATTEMPTS; i++)
      await expect(withBackoff(now, wrong)).rejects.toBeInstanceOf(VaultError);
    await expect(withBackoff(now, wrong)).rejects.toMatchObject({ code: 'WRONG_PASSWORD' });
    expect((await unlockBackoffItem.get()).failures).toBe(FREE_ATTEMPTS);
    await expect(withBackoff(now, async () => 'opened')).rejects.toMatchObject({ code: 'UNLOCK_BACKOFF' });
  });

  it('resets the count on a right password, and leaves it alone on other errors', async () => {
    await expect(withBackoff(now, wrong)).rejects.toBeInstanceOf(VaultError);
    await expect(withBackoff(now, () => Promise.reject(new Error('disk')))).rejects.toThrow('disk');
    expect((await unlockBackoffItem.get()).failures).toBe(1);
    expect(await withBackoff(now, async () => 'opened')).toBe('opened');
    expect(await unlockBackoffItem.get()).toEqual(NO_BACKOFF);
  });
});

describe('withBackoff under parallel attempts', () => {
  let clock: number;
  const now = () => clock;

  beforeEach(() => {
    fakeBrowser.reset();
    clock = 1_000_000;
  });

  it('runs attempts one at a time, each counted before its check runs', async () => {
    let running = 0;
    let most = 0;
    const countsSeenByChecks: number[] = [];
    const slowWrong = async () => {
      running++;
      most = Math.max(most, running);
      countsSeenByChecks.push((await unlockBackoffItem.get()).failures);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      throw new VaultError('WRONG_PASSWORD', 'wrong');
    };
    const attempts = Array.from({ length: FREE_ATTEMPTS + 2 }, () => withBackoff(now, slowWrong));
    const outcomes = await Promise.allSettled(attempts);
    expect(most).toBe(1);
    // The first FREE_ATTEMPTS ran (each already counted while it ran), the rest waited for the backoff.
    expect(countsSeenByChecks).toEqual(Array.from({ length: FREE_ATTEMPTS }, (_, i) => i + 1));
    expect(outcomes.slice(FREE_ATTEMPTS).map((o) => o.status === 'rejected' && o.reason.code)).toEqual([
      'UNLOCK_BACKOFF',
      'UNLOCK_BACKOFF',
    ]);
    expect((await unlockBackoffItem.get()).failures).toBe(FREE_ATTEMPTS);
  });
});
