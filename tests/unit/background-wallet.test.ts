import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createHandlers, handleMessage } from '@/lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '@/lib/background/services';
import { RESULT_SCHEMAS, type ResultOf } from '@/lib/messaging/protocol';
import type { Request, RequestType } from '@/lib/messaging/requests';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { settingsItem, vaultItem, walletSessionItem } from '@/lib/storage/items';
import type { WalletState } from '@/lib/wallet/state';

const ANVIL = 'test test test test test test test test test test test junk';
const PASSWORD = 'correct horse battery';
const KDF = { iterations: 1_000, minIterations: 1_000 };

let clock: number;
let services: BackgroundServices;
let scheduled: (number | null)[];

async function start(): Promise<BackgroundServices> {
  scheduled = [];
  const created = createBackgroundServices({
    kdf: KDF,
    now: () => clock,
    scheduleLock: (at) => scheduled.push(at),
  });
  await created.ready;
  return created;
}

async function send(message: unknown, kind: 'view' | 'content-script' = 'view') {
  return handleMessage(createHandlers(services), services, message, kind);
}

async function ok<T extends RequestType>(message: Extract<Request, { type: T }>): Promise<ResultOf<T>> {
  const answer = await send(message);
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return RESULT_SCHEMAS[message.type as T].parse(answer.result) as ResultOf<T>;
}

async function importAnvil(): Promise<WalletState> {
  return (await ok({
    type: 'walletImport',
    kind: 'mnemonic',
    secret: `  ${ANVIL.toUpperCase()}\n`,
    password: PASSWORD,
    confirmation: PASSWORD,
  })) as WalletState;
}

beforeEach(async () => {
  fakeBrowser.reset();
  clock = 1_700_000_000_000;
  await settingsItem.set({ ...DEFAULT_SETTINGS, autoLockMinutes: 15 });
  services = await start();
});

describe('wallet in the background', () => {
  it('starts with no wallet', async () => {
    expect(await ok({ type: 'walletState' })).toMatchObject({ status: 'none', accounts: [] });
  });

  it('creates a wallet only after the asked words are confirmed', async () => {
    const created = (await ok({ type: 'walletStartCreate', words: 12 })) as {
      mnemonic: string;
      confirmPositions: number[];
    };
    const words = created.mnemonic.split(' ');
    expect(words).toHaveLength(12);
    expect(created.confirmPositions).toHaveLength(3);
    const wrong = await send({
      type: 'walletConfirmCreate',
      password: PASSWORD,
      confirmation: PASSWORD,
      answers: created.confirmPositions.map((position) => ({ position, word: 'zoo' })),
    });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_MISMATCH' } });
    expect((await ok({ type: 'walletState' })).status).toBe('none');
    const answers = created.confirmPositions.map((position) => ({
      position,
      word: words[position - 1] as string,
    }));
    const state = (await ok({
      type: 'walletConfirmCreate',
      password: PASSWORD,
      confirmation: PASSWORD,
      answers,
    })) as WalletState;
    expect(state.status).toBe('unlocked');
    expect(state.accounts).toHaveLength(1);
    // Only the vault is in storage.local, and it does not contain the phrase.
    const local = JSON.stringify(await fakeBrowser.storage.local.get(null));
    expect(local).not.toContain(words.slice(0, 3).join(' '));
  });

  it('imports a phrase (whitespace and case tolerated) and derives the known address', async () => {
    const state = await importAnvil();
    expect(state.accounts[0]?.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    const second = (await ok({ type: 'walletAddAccount' })) as WalletState;
    expect(second.accounts.map((account) => account.address)).toEqual([
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    ]);
    expect(second.activeId).toBe(second.accounts[1]?.id);
  });

  it('names what is wrong with an imported phrase or key', async () => {
    const bad = async (kind: 'mnemonic' | 'privateKey', secret: string) =>
      send({ type: 'walletImport', kind, secret, password: PASSWORD, confirmation: PASSWORD });
    expect(await bad('mnemonic', 'test test test')).toMatchObject({
      error: { code: 'INVALID_MNEMONIC_WRONG_WORD_COUNT' },
    });
    expect(await bad('mnemonic', ANVIL.replace('junk', 'junc'))).toMatchObject({
      error: { code: 'INVALID_MNEMONIC_UNKNOWN_WORD', message: expect.stringMatching(/12/) },
    });
    expect(await bad('mnemonic', ANVIL.replace('junk', 'test'))).toMatchObject({
      error: { code: 'INVALID_MNEMONIC_BAD_CHECKSUM' },
    });
    expect(await bad('privateKey', '0x00')).toMatchObject({ error: { code: 'PRIVATE_KEY_WRONG_LENGTH' } });
    expect(await bad('privateKey', `0x${'0'.repeat(64)}`)).toMatchObject({
      error: { code: 'PRIVATE_KEY_ZERO_KEY' },
    });
    expect(await bad('privateKey', 'f'.repeat(64))).toMatchObject({
      error: { code: 'PRIVATE_KEY_OUT_OF_RANGE' },
    });
    const weak = await send({
      type: 'walletImport',
      kind: 'mnemonic',
      secret: ANVIL,
      password: 'short',
      confirmation: 'short',
    });
    expect(weak).toMatchObject({ error: { code: 'PASSWORD_TOO_SHORT' } });
    expect((await ok({ type: 'walletState' })).status).toBe('none');
  });

  it('imports a raw private key, with or without 0x', async () => {
    const key = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'; // anvil account 1, no 0x
    const state = (await ok({
      type: 'walletImport',
      kind: 'privateKey',
      secret: key,
      password: PASSWORD,
      confirmation: PASSWORD,
    })) as WalletState;
    expect(state.accounts).toHaveLength(1);
    expect(state.accounts[0]).toMatchObject({
      kind: 'imported',
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
  });

  it('locks, refuses a wrong password without touching the vault, and unlocks', async () => {
    await importAnvil();
    const vaultBefore = await vaultItem.get();
    expect((await ok({ type: 'walletLock' })).status).toBe('locked');
    expect(await walletSessionItem.get()).toBeNull();
    expect(await send({ type: 'walletUnlock', password: 'not the password' })).toMatchObject({
      ok: false,
      error: { code: 'WRONG_PASSWORD' },
    });
    expect(await vaultItem.get()).toEqual(vaultBefore);
    expect((await ok({ type: 'walletUnlock', password: PASSWORD })).status).toBe('unlocked');
    expect(await send({ type: 'walletAddAccount' }, 'content-script')).toMatchObject({
      error: { code: 'FORBIDDEN' },
    });
  });

  it('forgot password: restores from the phrase under a new password, after checking both first', async () => {
    const imported = await importAnvil();
    await ok({ type: 'walletLock' });
    const vaultBefore = await vaultItem.get();
    const mismatch = await send({
      type: 'walletRestore',
      mnemonic: ANVIL,
      password: 'a new password 1',
      confirmation: 'another one',
    });
    expect(mismatch.ok).toBe(false);
    const badPhrase = await send({
      type: 'walletRestore',
      mnemonic: 'test test test',
      password: 'a new password 1',
      confirmation: 'a new password 1',
    });
    expect(badPhrase.ok).toBe(false);
    // Nothing was replaced by the refused attempts.
    expect(await vaultItem.get()).toEqual(vaultBefore);

    const restored = await ok({
      type: 'walletRestore',
      mnemonic: ANVIL,
      password: 'a new password 1',
      confirmation: 'a new password 1',
    });
    expect(restored.status).toBe('unlocked');
    expect(restored.accounts[0]?.address).toBe(imported.accounts[0]?.address);
    await ok({ type: 'walletLock' });
    expect((await send({ type: 'walletUnlock', password: PASSWORD })).ok).toBe(false);
    expect(await ok({ type: 'walletUnlock', password: 'a new password 1' })).toMatchObject({
      status: 'unlocked',
    });
  });

  it('stays unlocked across a worker restart until the deadline, then locks', async () => {
    await importAnvil();
    const deadline = (await ok({ type: 'walletState' })).lockAt as number;
    expect(deadline).toBe(clock + 15 * 60_000);
    expect(scheduled.at(-1)).toBe(deadline);

    clock += 10 * 60_000;
    services = await start(); // a new worker: nothing in memory
    expect((await services.wallet.state()).status).toBe('unlocked');
    await services.wallet.activeSigner(); // the keys really are back

    clock = deadline + 1;
    services = await start();
    expect((await services.wallet.state()).status).toBe('locked');
    expect(await walletSessionItem.get()).toBeNull();
  });

  it('pushes the deadline back on view activity but not on page activity', async () => {
    await importAnvil();
    clock += 5 * 60_000;
    await send({ type: 'explorerChain' }, 'content-script');
    expect((await services.wallet.state()).lockAt).toBe(clock - 5 * 60_000 + 15 * 60_000);
    await send({ type: 'explorerChain' }, 'view');
    expect((await services.wallet.state()).lockAt).toBe(clock + 15 * 60_000);
    // A burst of view messages (a popup opening) records the activity once.
    const recorded = clock + 15 * 60_000;
    clock += 1_000;
    await send({ type: 'explorerChain' }, 'view');
    expect((await services.wallet.state()).lockAt).toBe(recorded);
    clock += 5_000;
    await send({ type: 'explorerChain' }, 'view');
    expect((await services.wallet.state()).lockAt).toBe(clock + 15 * 60_000);
  });

  it('reveals the phrase only with the password again', async () => {
    await importAnvil();
    expect(
      await send({ type: 'walletReveal', password: 'wrong password', target: 'mnemonic' }),
    ).toMatchObject({
      error: { code: 'WRONG_PASSWORD' },
    });
    expect(await ok({ type: 'walletReveal', password: PASSWORD, target: 'mnemonic' })).toEqual({
      secret: ANVIL,
    });
  });

  it('reports a corrupted vault clearly and never overwrites it', async () => {
    const corrupt = { v: 1, data: { version: 1, kdf: 'garbage' } };
    await fakeBrowser.storage.local.set({ vault: corrupt });
    const state = (await ok({ type: 'walletState' })) as WalletState;
    expect(state.status).toBe('locked');
    expect(state.vaultError).toMatch(/cannot be read/);
    expect(await send({ type: 'walletUnlock', password: PASSWORD })).toMatchObject({
      error: { code: 'CORRUPT_VAULT' },
    });
    expect(
      await send({
        type: 'walletImport',
        kind: 'mnemonic',
        secret: ANVIL,
        password: PASSWORD,
        confirmation: PASSWORD,
      }),
    ).toMatchObject({
      ok: false,
    });
    expect((await fakeBrowser.storage.local.get('vault')).vault).toEqual(corrupt);
  });
});
