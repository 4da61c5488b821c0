// No secret leaves the background except where the user asked for it (the new phrase shown once,
// the password-gated reveal): not in storage.local, not in storage.session (but the vault key the
// session is for), not in any other answer or error, whatever the user types where.
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createHandlers, handleMessage } from '@/lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '@/lib/background/services';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { settingsItem } from '@/lib/storage/items';

const ANVIL = 'test test test test test test test test test test test junk';
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'another horse battery';
// Anvil's accounts 0 and 1 (derived from ANVIL) and 3 (imported here as a raw key).
const DERIVED_KEYS = [
  'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
];
const IMPORTED_KEY = '7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';

let services: BackgroundServices;
const answers: string[] = [];

async function send(message: unknown): Promise<{ ok: boolean }> {
  const answer = await handleMessage(createHandlers(services), services, message, 'view');
  answers.push(JSON.stringify(answer));
  return answer;
}

/** Every place a secret must not be, as text. */
async function everywhere(): Promise<string> {
  const local = await fakeBrowser.storage.local.get(null);
  const session = await fakeBrowser.storage.session.get(null);
  // The session's vault key is the one secret storage.session is for (SECURITY.md: session key).
  const { walletSession, ...rest } = session as { walletSession?: { sessionKey: string } };
  return JSON.stringify([local, rest, { ...walletSession, sessionKey: 'checked apart' }, answers]);
}

function secretsIn(text: string): string[] {
  const words = ANVIL.split(' ');
  const fragments = [
    ...words.slice(0, -2).map((_, i) => words.slice(i, i + 3).join(' ')),
    ...[...DERIVED_KEYS, IMPORTED_KEY].map((key) => key.slice(0, 16)),
    PASSWORD,
    NEW_PASSWORD,
  ];
  return fragments.filter((fragment) => text.toLowerCase().includes(fragment));
}

beforeEach(async () => {
  fakeBrowser.reset();
  answers.length = 0;
  await settingsItem.set({ ...DEFAULT_SETTINGS, autoLockMinutes: 15 });
  services = createBackgroundServices({ kdf: { iterations: 1_000, minIterations: 1_000 }, now: () => 1e12 });
  await services.ready;
});

describe('secrets stay in the background', () => {
  it('a whole session of a wallet writes and answers no phrase, key or password', async () => {
    // Mistakes first: a key pasted as a phrase, a phrase as a key, a phrase with a typo.
    for (const [kind, secret] of [
      ['mnemonic', `0x${IMPORTED_KEY}`],
      ['mnemonic', ANVIL.replaceAll(' ', ',')],
      ['privateKey', ANVIL],
      ['mnemonic', ANVIL.replace('junk', 'junq')],
    ]) {
      const failed = await send({
        type: 'walletImport',
        kind,
        secret,
        password: PASSWORD,
        confirmation: PASSWORD,
      });
      expect(failed.ok).toBe(false);
    }
    expect(
      (
        await send({
          type: 'walletImport',
          kind: 'mnemonic',
          secret: ANVIL,
          password: PASSWORD,
          confirmation: PASSWORD,
        })
      ).ok,
    ).toBe(true);
    expect((await send({ type: 'walletAddAccount' })).ok).toBe(true);
    expect((await send({ type: 'walletImportKey', privateKey: `0x${IMPORTED_KEY}` })).ok).toBe(true);
    expect((await send({ type: 'walletImportKey', privateKey: `0x${IMPORTED_KEY}` })).ok).toBe(false);
    expect((await send({ type: 'walletImportKey', privateKey: `0x${IMPORTED_KEY.slice(1)}` })).ok).toBe(
      false,
    );
    expect((await send({ type: 'walletLock' })).ok).toBe(true);
    expect((await send({ type: 'walletUnlock', password: `${PASSWORD}!` })).ok).toBe(false);
    expect((await send({ type: 'walletUnlock', password: PASSWORD })).ok).toBe(true);
    expect(
      (
        await send({
          type: 'walletChangePassword',
          password: PASSWORD,
          newPassword: NEW_PASSWORD,
          confirmation: NEW_PASSWORD,
        })
      ).ok,
    ).toBe(true);
    expect((await send({ type: 'walletState' })).ok).toBe(true);
    expect(secretsIn(await everywhere())).toEqual([]);
    // The check can fail: the password-gated reveal does answer the phrase.
    expect((await send({ type: 'walletReveal', password: NEW_PASSWORD, target: 'mnemonic' })).ok).toBe(true);
    expect(secretsIn(await everywhere())).toContain('test test test');
  });

  it('locking drops the session key from storage.session', async () => {
    await send({
      type: 'walletImport',
      kind: 'mnemonic',
      secret: ANVIL,
      password: PASSWORD,
      confirmation: PASSWORD,
    });
    expect(await fakeBrowser.storage.session.get('walletSession')).toHaveProperty('walletSession');
    await send({ type: 'walletLock' });
    expect((await fakeBrowser.storage.session.get('walletSession')).walletSession ?? null).toBeNull();
  });
});
