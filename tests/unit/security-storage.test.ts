// SECURITY.md, "A stolen storage.local" and "Logs": after creating, importing, unlocking, revealing
// and locking, nothing readable from disk or from the console holds a phrase, key or password.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createHandlers, handleMessage } from '@/lib/background/router';
import { type BackgroundServices, createBackgroundServices } from '@/lib/background/services';
import type { Response } from '@/lib/messaging/protocol';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import { settingsItem } from '@/lib/storage/items';

const ANVIL = 'test test test test test test test test test test test junk';
// Account 0 and 1 of the anvil phrase (m/44'/60'/0'/0/i): what the keyring derives and signs with.
const DERIVED = [
  'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
];
const IMPORTED_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const PASSWORD = 'Tr0ub4dor&3 correct horse';
const NEW_WORDS = { words: [] as string[] };

/** Every way a 32-byte key could sit in JSON: hex either case, with or without 0x, base64, a byte array. */
function keyForms(hex: string): string[] {
  const bytes = Buffer.from(hex, 'hex');
  return [
    hex,
    hex.toUpperCase(),
    Buffer.from(bytes).toString('base64'),
    Buffer.from(bytes).toString('base64url'),
    JSON.stringify([...bytes]),
    JSON.stringify(Object.fromEntries([...bytes].map((byte, i) => [String(i), byte]))),
  ];
}

/** The secrets, as strings that must not occur in anything serialised. */
function secrets(): string[] {
  const phrase = NEW_WORDS.words.join(' ');
  return [
    ANVIL,
    'test test test', // any run of the phrase
    PASSWORD,
    PASSWORD.normalize('NFC'),
    Buffer.from(PASSWORD).toString('base64'),
    ...(phrase ? [phrase, NEW_WORDS.words.slice(0, 3).join(' ')] : []),
    ...[...DERIVED, IMPORTED_KEY].flatMap(keyForms),
  ];
}

let services: BackgroundServices;
let logged: unknown[][];

/** A walletImport message with PASSWORD, as the import screen sends it. */
function importMessage(kind: 'mnemonic' | 'privateKey', secret: string) {
  return { type: 'walletImport', kind, secret, password: PASSWORD, confirmation: PASSWORD };
}

async function send(message: unknown): Promise<Response> {
  return handleMessage(createHandlers(services), services, message, 'view');
}
async function ok(message: unknown): Promise<unknown> {
  const answer = await send(message);
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result;
}

async function dump(area: 'local' | 'session' | 'sync'): Promise<string> {
  return JSON.stringify(await fakeBrowser.storage[area].get(null));
}

beforeEach(async () => {
  fakeBrowser.reset();
  logged = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args));
  }
  await settingsItem.set({ ...DEFAULT_SETTINGS, serviceBaseUrl: 'http://127.0.0.1:9' });
  services = createBackgroundServices({ kdf: { iterations: 1_000, minIterations: 1_000 } });
  await services.ready;
});
afterEach(() => {
  services.session.dispose();
  vi.restoreAllMocks();
});

describe('what a stolen profile holds', () => {
  it('storage.local after import, derive, key import, unlock, reveal and lock: the vault and no secret', async () => {
    await ok(importMessage('mnemonic', ANVIL));
    await ok({ type: 'walletAddAccount', name: 'second' });
    await ok({ type: 'walletImportKey', privateKey: `0x${IMPORTED_KEY}`, name: 'imported' });
    await ok({ type: 'walletLock' });
    await ok({ type: 'walletUnlock', password: PASSWORD });
    expect(await ok({ type: 'walletReveal', password: PASSWORD, target: 'mnemonic' })).toEqual({
      secret: ANVIL,
    });
    // Failures carry the secrets too (a wrong password, a bad phrase): they must not be kept either.
    await send({ type: 'walletUnlock', password: `${PASSWORD}!` });
    await send({ type: 'walletReveal', password: `${PASSWORD}?`, target: 'mnemonic' });

    const unlockedLocal = await dump('local');
    const unlockedSession = await dump('session');
    await ok({ type: 'walletLock' });
    const lockedLocal = await dump('local');

    for (const [where, text] of [
      ['storage.local (unlocked)', unlockedLocal],
      ['storage.local (locked)', lockedLocal],
      // storage.session holds the derived vault key while unlocked (docs/ARCHITECTURE.md); never the password or a key.
      ['storage.session (unlocked)', unlockedSession],
      ['storage.sync', await dump('sync')],
    ] as const) {
      for (const secret of secrets())
        expect(text.includes(secret), `${where} contains ${secret.slice(0, 12)}…`).toBe(false);
    }
    // The vault is really there (the dump is not vacuously empty) and sealed: AES-GCM and its KDF header.
    const local = JSON.parse(lockedLocal) as Record<string, { data?: Record<string, unknown> }>;
    expect(lockedLocal).toContain('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'); // addresses are not secret
    expect(local.vault?.data).toMatchObject({ kdf: expect.anything() });
    // Every key in storage.local is one of the reviewed items; a new one must be added to SECURITY.md.
    // unlockBackoff: wrong-password count and wait, no secret (lib/wallet/unlock-backoff.ts).
    // trustRecord: the trust-deciding settings and their HMAC (no secret; the key stays in memory).
    expect(Object.keys(local).sort()).toEqual([
      'keyringMeta',
      'settings',
      'trustRecord',
      'unlockBackoff',
      'vault',
    ]);
    // Locked: the session key is gone from storage.session.
    expect(await dump('session')).not.toContain('sessionKey');
    // Control: the same search does find a phrase or a key that is stored in the clear.
    await fakeBrowser.storage.local.set({
      leak: { words: ANVIL, key: Buffer.from(DERIVED[1] as string, 'hex').toString('base64') },
    });
    const leaked = await dump('local');
    expect(secrets().filter((secret) => leaked.includes(secret))).toEqual(
      expect.arrayContaining([
        ANVIL,
        'test test test',
        Buffer.from(DERIVED[1] as string, 'hex').toString('base64'),
      ]),
    );
  });

  it('a newly created wallet: the phrase shown once is not in storage either', async () => {
    const created = (await ok({ type: 'walletStartCreate', words: 24 })) as {
      mnemonic: string;
      confirmPositions: number[];
    };
    NEW_WORDS.words = created.mnemonic.split(' ');
    // Before confirmation the pending phrase lives in the worker's memory only.
    for (const area of ['local', 'session'] as const)
      expect(await dump(area)).not.toContain(NEW_WORDS.words.slice(0, 3).join(' '));
    await ok({
      type: 'walletConfirmCreate',
      password: PASSWORD,
      confirmation: PASSWORD,
      answers: created.confirmPositions.map((position) => ({
        position,
        word: NEW_WORDS.words[position - 1],
      })),
    });
    for (const area of ['local', 'session'] as const) {
      const text = await dump(area);
      for (const secret of secrets())
        expect(text.includes(secret), `${area} contains ${secret.slice(0, 12)}…`).toBe(false);
    }
    NEW_WORDS.words = [];
  });
});

describe('logs', () => {
  it('nothing the wallet does writes a secret to the console, failures included', async () => {
    await ok(importMessage('mnemonic', ANVIL));
    await send(importMessage('mnemonic', `${ANVIL} extra`));
    await send({ type: 'walletImportKey', privateKey: `0x${IMPORTED_KEY.slice(0, 60)}` });
    await ok({ type: 'walletImportKey', privateKey: IMPORTED_KEY });
    await ok({ type: 'walletLock' });
    await send({ type: 'walletUnlock', password: 'wrong' });
    await ok({ type: 'walletUnlock', password: PASSWORD });
    await ok({ type: 'walletReveal', password: PASSWORD, target: 'mnemonic' });
    const text = logged
      .map((args) =>
        args
          .map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : JSON.stringify(arg)))
          .join(' '),
      )
      .join('\n');
    for (const secret of [...secrets(), IMPORTED_KEY.slice(0, 60)]) expect(text).not.toContain(secret);
  });

  it('error answers name what is wrong without echoing the secret', async () => {
    const badPhrase = await send(importMessage('mnemonic', `${ANVIL} extra`));
    const badKey = await send(importMessage('privateKey', `0x${IMPORTED_KEY}zz`));
    // Pasted in the wrong field: a key as a phrase (one over-long "word", never quoted), a phrase as
    // a key, and a phrase run together with commas.
    const keyAsPhrase = await send(importMessage('mnemonic', `0x${IMPORTED_KEY}`));
    const phraseAsKey = await send(importMessage('privateKey', ANVIL));
    const runTogether = await send(importMessage('mnemonic', ANVIL.replaceAll(' ', ',')));
    expect(keyAsPhrase).toMatchObject({ error: { code: 'INVALID_MNEMONIC_UNKNOWN_WORD' } });
    expect(JSON.stringify(runTogether)).not.toContain('test,test');
    for (const answer of [badPhrase, badKey, keyAsPhrase, phraseAsKey, runTogether]) {
      expect(answer.ok).toBe(false);
      const text = JSON.stringify(answer);
      expect(text).not.toContain(IMPORTED_KEY);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain('test test');
    }
  });
});
