import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '@/lib/wallet/bytes';
import {
  CorruptVaultError,
  changeVaultPassword,
  createVault,
  DEFAULT_KDF_ITERATIONS,
  InvalidSessionKeyError,
  parseVault,
  unlockVault,
  unlockWithSessionKey,
  updateVaultSecrets,
  upgradeVault,
  type Vault,
  VaultError,
  type VaultSecrets,
  WeakPasswordError,
  WrongPasswordError,
} from '@/lib/wallet/vault';
// FAST keeps the suite quick; two tests at the end use the real default KDF count.
import { FAST, PASSWORD, SECRETS } from '../support/vault-secrets';

/** Flips one bit of a base64 field, keeping it valid base64 of the same length. */
function flipBit(field: string, at: number | 'last' = 0): string {
  const bytes = base64ToBytes(field);
  if (!bytes) throw new Error('bad fixture');
  const byte = at === 'last' ? bytes.length - 1 : at;
  bytes[byte] = (bytes[byte] as number) ^ 0x01;
  return bytesToBase64(bytes);
}

async function fastVault(): Promise<Vault> {
  return (await createVault(SECRETS, PASSWORD, FAST)).vault;
}

describe('vault', () => {
  it('round-trips the secrets, in the documented stored shape, with no plaintext in it', async () => {
    const { vault, sessionKey } = await createVault(SECRETS, PASSWORD, FAST);
    expect(vault).toMatchObject({
      version: 1,
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 1_000 },
      cipher: { name: 'AES-GCM' },
    });
    expect(base64ToBytes(vault.kdf.salt)).toHaveLength(16);
    expect(base64ToBytes(vault.cipher.iv)).toHaveLength(12);
    expect(base64ToBytes(sessionKey)).toHaveLength(32);
    const stored = JSON.stringify(vault);
    expect(stored).not.toContain('junk');
    expect(stored).not.toContain('59c6995e');
    // What the storage layer does: serialise, read back, validate.
    const unlocked = await unlockVault(JSON.parse(stored), PASSWORD, FAST);
    expect(unlocked.secrets).toEqual(SECRETS);
    expect(unlocked.needsUpgrade).toBe(false);
    expect(unlocked.sessionKey).toBe(sessionKey);
    expect(unlocked.key.extractable).toBe(false);
  });

  it('uses a fresh salt and IV for every encryption', async () => {
    const a = await fastVault();
    const b = await fastVault();
    expect(a.kdf.salt).not.toBe(b.kdf.salt);
    expect(a.cipher.iv).not.toBe(b.cipher.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('refuses a wrong password with WrongPasswordError and leaves the vault untouched', async () => {
    const vault = await fastVault();
    const before = structuredClone(vault);
    const error = await unlockVault(vault, 'correct horse battery stapler', FAST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongPasswordError);
    expect(error).toBeInstanceOf(VaultError);
    expect((error as VaultError).code).toBe('WRONG_PASSWORD');
    expect((error as Error).message).not.toContain('stapler');
    expect(vault).toEqual(before);
    await expect(unlockVault(vault, '', FAST)).rejects.toBeInstanceOf(WrongPasswordError);
    await expect(unlockVault(vault, PASSWORD.toUpperCase(), FAST)).rejects.toBeInstanceOf(WrongPasswordError);
    // ...and the right password still opens it.
    expect((await unlockVault(vault, PASSWORD, FAST)).secrets).toEqual(SECRETS);
  });

  it('treats the password in NFC form, so composed and decomposed accents both open it', async () => {
    const composed = 'caf\u00e9 au lait s\u00e9same';
    const { vault } = await createVault(SECRETS, composed, FAST);
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    expect((await unlockVault(vault, decomposed, FAST)).secrets).toEqual(SECRETS);
  });

  it.each([
    ['ciphertext (first byte)', (v: Vault) => ({ ...v, ciphertext: flipBit(v.ciphertext) })],
    ['ciphertext (tag)', (v: Vault) => ({ ...v, ciphertext: flipBit(v.ciphertext, 'last') })],
    ['salt', (v: Vault) => ({ ...v, kdf: { ...v.kdf, salt: flipBit(v.kdf.salt) } })],
    ['IV', (v: Vault) => ({ ...v, cipher: { ...v.cipher, iv: flipBit(v.cipher.iv) } })],
    ['iteration count', (v: Vault) => ({ ...v, kdf: { ...v.kdf, iterations: v.kdf.iterations + 1 } })],
  ])('detects a tampered %s', async (_, tamper) => {
    const vault = await fastVault();
    await expect(unlockVault(tamper(vault), PASSWORD, FAST)).rejects.toBeInstanceOf(WrongPasswordError);
  });

  it('binds the header to the ciphertext, so a changed iteration count fails even with the session key', async () => {
    const { vault, sessionKey } = await createVault(SECRETS, PASSWORD, FAST);
    const lowered = { ...vault, kdf: { ...vault.kdf, iterations: 1 } };
    await expect(unlockWithSessionKey(lowered, sessionKey)).rejects.toBeInstanceOf(InvalidSessionKeyError);
  });

  it.each<[string, (v: Vault) => unknown, RegExp]>([
    ['null', () => null, /damaged/],
    ['a string', () => 'vault', /damaged/],
    ['an empty object', () => ({}), /version/],
    ['a newer version', (v) => ({ ...v, version: 2 }), /version/],
    ['another KDF', (v) => ({ ...v, kdf: { ...v.kdf, name: 'scrypt' } }), /kdf\.name/],
    ['zero iterations', (v) => ({ ...v, kdf: { ...v.kdf, iterations: 0 } }), /kdf\.iterations/],
    ['absurd iterations', (v) => ({ ...v, kdf: { ...v.kdf, iterations: 1e12 } }), /kdf\.iterations/],
    ['fractional iterations', (v) => ({ ...v, kdf: { ...v.kdf, iterations: 1000.5 } }), /kdf\.iterations/],
    ['bad base64 salt', (v) => ({ ...v, kdf: { ...v.kdf, salt: '!!not base64!!' } }), /kdf\.salt.*base64/],
    [
      'a short salt',
      (v) => ({ ...v, kdf: { ...v.kdf, salt: bytesToBase64(new Uint8Array(8)) } }),
      /16 bytes, found 8/,
    ],
    [
      'a long IV',
      (v) => ({ ...v, cipher: { ...v.cipher, iv: bytesToBase64(new Uint8Array(16)) } }),
      /12 bytes/,
    ],
    [
      'non-canonical base64',
      (v) => ({ ...v, kdf: { ...v.kdf, salt: 'AAAAAAAAAAAAAAAAAAAAAB==' } }),
      /kdf\.salt.*base64/,
    ],
    [
      'a truncated ciphertext',
      (v) => ({ ...v, ciphertext: v.ciphertext.slice(0, 8) }),
      /ciphertext.*truncated/,
    ],
    ['a missing ciphertext', ({ ciphertext: _, ...v }) => v, /ciphertext/],
    ['garbage ciphertext', (v) => ({ ...v, ciphertext: 'garbage' }), /ciphertext.*base64/],
  ])('reports %s as CorruptVaultError with a clear message', async (_, corrupt, message) => {
    const raw = corrupt(await fastVault());
    const error = await unlockVault(raw, PASSWORD, FAST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptVaultError);
    expect((error as Error).message).toMatch(message);
    expect(() => parseVault(raw)).toThrow(CorruptVaultError);
  });

  it('refuses a new password that fails the policy, before any key is derived', async () => {
    await expect(createVault(SECRETS, 'short', FAST)).rejects.toBeInstanceOf(WeakPasswordError);
    await expect(createVault(SECRETS, '        ', FAST)).rejects.toMatchObject({ code: 'WEAK_PASSWORD' });
    await expect(createVault(SECRETS, 'password', FAST)).rejects.toMatchObject({
      issue: { code: 'TOO_COMMON' },
    });
  });

  it('refuses secrets of the wrong shape instead of sealing them', async () => {
    const bad = { importedKeys: [{ id: 'x', privateKey: 'not a key' }] } as unknown as VaultSecrets;
    const error = await createVault(bad, PASSWORD, FAST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('invalid vault secrets at importedKeys.0.privateKey');
  });

  it('flags a vault below the minimum iterations and upgrades it with fresh parameters', async () => {
    const { vault } = await createVault(SECRETS, PASSWORD, { iterations: 1_000 });
    const params = { iterations: 2_000, minIterations: 2_000 };
    const unlocked = await unlockVault(vault, PASSWORD, params);
    expect(unlocked.needsUpgrade).toBe(true);
    await expect(upgradeVault(vault, 'not the password', params)).rejects.toBeInstanceOf(WrongPasswordError);
    const upgraded = await upgradeVault(vault, PASSWORD, params);
    expect(upgraded.vault.kdf.iterations).toBe(2_000);
    expect(upgraded.vault.kdf.salt).not.toBe(vault.kdf.salt);
    expect(upgraded.sessionKey).not.toBe(unlocked.sessionKey);
    const again = await unlockVault(upgraded.vault, PASSWORD, params);
    expect(again).toMatchObject({ secrets: SECRETS, needsUpgrade: false });
    // The old session key belongs to the old vault.
    await expect(unlockWithSessionKey(upgraded.vault, unlocked.sessionKey)).rejects.toBeInstanceOf(
      InvalidSessionKeyError,
    );
  });

  it('unlocks with the session key alone, and refuses a malformed or foreign one', async () => {
    const { vault, sessionKey } = await createVault(SECRETS, PASSWORD, FAST);
    const cached = JSON.parse(JSON.stringify({ sessionKey })) as { sessionKey: string };
    const unlocked = await unlockWithSessionKey(vault, cached.sessionKey, FAST);
    expect(unlocked).toMatchObject({ secrets: SECRETS, needsUpgrade: false, sessionKey });
    expect(unlocked.key.extractable).toBe(false);
    const other = await createVault(SECRETS, PASSWORD, FAST);
    await expect(unlockWithSessionKey(vault, other.sessionKey)).rejects.toBeInstanceOf(
      InvalidSessionKeyError,
    );
    await expect(unlockWithSessionKey(vault, bytesToBase64(new Uint8Array(16)))).rejects.toThrow(/32 bytes/);
    await expect(unlockWithSessionKey(vault, 'not base64!')).rejects.toBeInstanceOf(InvalidSessionKeyError);
    await expect(unlockWithSessionKey({}, sessionKey)).rejects.toBeInstanceOf(CorruptVaultError);
  });

  it('updates the secrets while unlocked (same KDF, new IV) and refuses a stale key', async () => {
    const first = await createVault(SECRETS, PASSWORD, FAST);
    const more: VaultSecrets = {
      ...SECRETS,
      importedKeys: [
        ...SECRETS.importedKeys,
        {
          id: 'imported:2',
          privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
        },
      ],
    };
    const updated = await updateVaultSecrets(first.vault, first.key, more);
    expect(updated.kdf).toEqual(first.vault.kdf);
    expect(updated.cipher.iv).not.toBe(first.vault.cipher.iv);
    expect((await unlockVault(updated, PASSWORD, FAST)).secrets).toEqual(more);
    const other = await createVault(SECRETS, PASSWORD, FAST);
    await expect(updateVaultSecrets(first.vault, other.key, more)).rejects.toBeInstanceOf(
      InvalidSessionKeyError,
    );
  });

  it('changes the password: the old one stops working, the new one must pass the policy', async () => {
    const vault = await fastVault();
    await expect(
      changeVaultPassword(vault, 'wrong password!', 'new password here', FAST),
    ).rejects.toBeInstanceOf(WrongPasswordError);
    await expect(changeVaultPassword(vault, PASSWORD, 'short', FAST)).rejects.toBeInstanceOf(
      WeakPasswordError,
    );
    const changed = await changeVaultPassword(vault, PASSWORD, 'new password here', FAST);
    await expect(unlockVault(changed.vault, PASSWORD, FAST)).rejects.toBeInstanceOf(WrongPasswordError);
    expect((await unlockVault(changed.vault, 'new password here', FAST)).secrets).toEqual(SECRETS);
  });

  it('upgrades a 1,000-iteration vault to the current default, which still opens', async () => {
    const { vault } = await createVault(SECRETS, PASSWORD, { iterations: 1_000 });
    const unlocked = await unlockVault(vault, PASSWORD);
    expect(unlocked.needsUpgrade).toBe(true);
    const upgraded = await upgradeVault(vault, PASSWORD);
    expect(upgraded.vault.kdf.iterations).toBe(DEFAULT_KDF_ITERATIONS);
    const again = await unlockWithSessionKey(upgraded.vault, upgraded.sessionKey);
    expect(again).toMatchObject({ secrets: SECRETS, needsUpgrade: false });
  }, 30_000);

  it('measures an unlock at the real iteration count', async () => {
    const { vault } = await createVault(SECRETS, PASSWORD);
    expect(vault.kdf.iterations).toBe(900_000);
    const started = performance.now();
    const unlocked = await unlockVault(vault, PASSWORD);
    const elapsed = performance.now() - started;
    expect(unlocked).toMatchObject({ secrets: SECRETS, needsUpgrade: false });
    console.log(`vault unlock, PBKDF2-SHA256 x ${vault.kdf.iterations}: ${elapsed.toFixed(0)} ms`);
  }, 30_000);
});
