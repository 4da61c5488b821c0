// The account list as an outside writer would attack it: storage.local's keyringMeta rewritten to
// an address that is not the wallet's, then the worker restarted (or the wallet locked).
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createHandlers, handleMessage } from '@/lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '@/lib/background/services';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { keyringMetaItem, settingsItem, verifiedAccountsItem } from '@/lib/storage/items';
import { createKeyring, importKeyAccount } from '@/lib/wallet/keyring';
import { restoredKeyring } from '@/lib/wallet/keyring-restore';
import type { WalletState } from '@/lib/wallet/state';

const ANVIL = 'test test test test test test test test test test test junk';
const ACCOUNT_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ACCOUNT_1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const KEY_9 = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
const THIEF = '0x000000000000000000000000000000000000dEaD';
const PASSWORD = 'correct horse battery';
const KDF = { iterations: 1_000, minIterations: 1_000 };

let services: BackgroundServices;

async function start() {
  const created = createBackgroundServices({ kdf: KDF, now: () => 1_700_000_000_000 });
  await created.ready;
  return created;
}

async function call(message: unknown): Promise<WalletState> {
  const answer = await handleMessage(createHandlers(services), services, message, 'view');
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result as WalletState;
}

/** The stored list with account 0's address replaced, as a content script could write it. */
async function forgeStoredAddress() {
  const stored = await keyringMetaItem.get();
  const [first, ...rest] = stored?.accounts ?? [];
  if (!stored || !first) throw new Error('no stored list');
  await keyringMetaItem.set({ ...stored, accounts: [{ ...first, address: THIEF }, ...rest] });
}

describe('restoredKeyring', () => {
  it('keeps a list the secrets confirm', async () => {
    const { meta, secrets } = await createKeyring(ANVIL);
    expect(await restoredKeyring(meta, secrets)).toEqual({ meta, rebuilt: false });
  });

  it('rebuilds a forged list from the secrets, keeping names the secrets confirm', async () => {
    const { meta, secrets } = await createKeyring(ANVIL, 'Main');
    const withKey = importKeyAccount(meta, secrets, KEY_9, 'Cold');
    const forged = {
      ...withKey.meta,
      accounts: [
        ...withKey.meta.accounts,
        { id: 'derived:1', kind: 'derived' as const, index: 1, address: THIEF, name: 'Savings' },
      ],
    };
    const restored = await restoredKeyring(forged, withKey.secrets);
    expect(restored.rebuilt).toBe(true);
    const shown = restored.meta.accounts.map((a) => [a.name, a.address]);
    expect(shown).toEqual([
      ['Main', ACCOUNT_0],
      ['Account 2', ACCOUNT_1],
      ['Cold', withKey.account.address],
    ]);
    expect(JSON.stringify(restored.meta)).not.toContain(THIEF.slice(2));
    expect(restored.meta.activeId).toBe(withKey.meta.activeId);
  });

  it('makes a list from the secrets when none is stored', async () => {
    const { secrets } = await createKeyring(ANVIL);
    const restored = await restoredKeyring(null, secrets);
    expect(restored).toMatchObject({ rebuilt: true, meta: { activeId: 'derived:0' } });
    expect(restored.meta.accounts.map((a) => a.address)).toEqual([ACCOUNT_0]);
  });
});

describe('the account list after an outside write', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    await settingsItem.set({ ...DEFAULT_SETTINGS });
    services = await start();
    await call({
      type: 'walletImport',
      kind: 'mnemonic',
      secret: ANVIL,
      password: PASSWORD,
      confirmation: PASSWORD,
    });
  });

  it('a restarted worker checks the stored list against the vault: the forged address is never shown', async () => {
    await forgeStoredAddress();
    services = await start(); // the worker restarted: the session key reopens the vault
    const state = await call({ type: 'walletState' });
    expect(state.status).toBe('unlocked');
    expect(state.accounts.map((a) => a.address)).toEqual([ACCOUNT_0]);
    expect(state.accountsNotice).toMatch(/changed outside Swaplane/);
    // The rebuilt list replaced the forged one in storage.
    expect((await keyringMetaItem.get())?.accounts[0]?.address).toBe(ACCOUNT_0);
  });

  it('while locked, shows the last verified list, never the stored one', async () => {
    await call({ type: 'walletLock' });
    await forgeStoredAddress();
    services = await start();
    const state = await call({ type: 'walletState' });
    expect(state.status).toBe('locked');
    expect(state.accounts.map((a) => a.address)).toEqual([ACCOUNT_0]);
    // After a browser restart (storage.session empty) nothing is shown until the next unlock.
    await verifiedAccountsItem.remove();
    services = await start();
    expect((await call({ type: 'walletState' })).accounts).toEqual([]);
    const unlocked = await call({ type: 'walletUnlock', password: PASSWORD });
    expect(unlocked.accounts.map((a) => a.address)).toEqual([ACCOUNT_0]);
    expect(unlocked.accountsNotice).toMatch(/rebuilt/);
  });
});
