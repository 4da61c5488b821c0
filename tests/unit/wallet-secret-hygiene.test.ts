// Every buffer of key material that Swaplane's own code makes is zeroed once used: the UTF-8 copies
// of the password and the phrase, the PBKDF2 output, the seed, each HMAC input and output of the
// BIP-32 steps, the vault's plaintext. WebCrypto is watched (not replaced): each buffer handed to it
// or received from it is kept, and checked after the operation. What JavaScript cannot wipe (strings,
// bigints, copies inside WebCrypto or @noble) is listed in SECURITY.md, "Key derivation review".
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deriveAddresses } from '@/lib/wallet/keyring';
import { mnemonicToSeed } from '@/lib/wallet/mnemonic';
import { deriveTrustKey } from '@/lib/wallet/trust-mac';
import { createVault, unlockVault, unlockWithSessionKey } from '@/lib/wallet/vault';

import { FAST, MNEMONIC, PASSWORD, SECRETS } from '../support/vault-secrets';

type SubtleMethod = 'importKey' | 'sign' | 'encrypt' | 'decrypt' | 'deriveBits';
interface Watched {
  /** Arguments of each call, in order. */
  calls: unknown[][];
  /** Each ArrayBuffer the method answered. */
  results: ArrayBuffer[];
}

/** Lets WebCrypto's `method` run as usual while keeping what goes in and out. */
function watch(method: SubtleMethod): Watched {
  const subtle = globalThis.crypto.subtle;
  const original = (subtle[method] as (...args: unknown[]) => Promise<unknown>).bind(subtle);
  const watched: Watched = { calls: [], results: [] };
  const spy = vi.spyOn(subtle, method) as unknown as {
    mockImplementation(implementation: (...args: unknown[]) => Promise<unknown>): void;
  };
  spy.mockImplementation(async (...args: unknown[]) => {
    watched.calls.push(args);
    const result = await original(...args);
    if (result instanceof ArrayBuffer) watched.results.push(result);
    return result;
  });
  return watched;
}

function bytesOf(value: unknown): Uint8Array {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new TypeError('not a buffer');
}

const zeroed = (value: unknown) => bytesOf(value).every((byte) => byte === 0);

/** The raw key bytes of each importKey call whose algorithm is `name`. */
function rawKeys(importKey: Watched, name: string): Uint8Array[] {
  return importKey.calls
    .filter(([format, , algorithm]) => {
      const algorithmName = typeof algorithm === 'string' ? algorithm : (algorithm as { name: string }).name;
      return format === 'raw' && algorithmName === name;
    })
    .map(([, key]) => bytesOf(key));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('secret hygiene: buffers of key material are zeroed after use', () => {
  it('creating a vault wipes the password bytes, the derived AES key bytes and the plaintext', async () => {
    const importKey = watch('importKey');
    const deriveBits = watch('deriveBits');
    const encrypt = watch('encrypt');
    await createVault(SECRETS, PASSWORD, FAST);
    const passwords = rawKeys(importKey, 'PBKDF2');
    const aesKeys = rawKeys(importKey, 'AES-GCM');
    expect(passwords).toHaveLength(1);
    expect(aesKeys).toHaveLength(1);
    expect(passwords.every(zeroed)).toBe(true);
    expect(aesKeys.every(zeroed)).toBe(true);
    expect(deriveBits.results.every(zeroed)).toBe(true);
    expect(encrypt.calls.map((call) => call[2]).every(zeroed)).toBe(true);
  });

  it('unlocking wipes the password bytes, the key bytes and the decrypted plaintext', async () => {
    const { vault, sessionKey } = await createVault(SECRETS, PASSWORD, FAST);
    const importKey = watch('importKey');
    const decrypt = watch('decrypt');
    await unlockVault(vault, PASSWORD, FAST);
    await unlockWithSessionKey(vault, sessionKey, FAST);
    expect(rawKeys(importKey, 'PBKDF2').every(zeroed)).toBe(true);
    expect(rawKeys(importKey, 'AES-GCM')).toHaveLength(2);
    expect(rawKeys(importKey, 'AES-GCM').every(zeroed)).toBe(true);
    expect(decrypt.results).toHaveLength(2);
    expect(decrypt.results.every(zeroed)).toBe(true);
  });

  it('a wrong password is wiped too', async () => {
    const { vault } = await createVault(SECRETS, PASSWORD, FAST);
    const importKey = watch('importKey');
    await expect(unlockVault(vault, 'not the password at all', FAST)).rejects.toThrow('Wrong password');
    expect(rawKeys(importKey, 'PBKDF2')).toHaveLength(1);
    expect(rawKeys(importKey, 'PBKDF2').every(zeroed)).toBe(true);
  });

  it('deriving accounts wipes the phrase bytes, the seed and every BIP-32 HMAC key, input and output', async () => {
    const importKey = watch('importKey');
    const deriveBits = watch('deriveBits');
    const sign = watch('sign');
    await deriveAddresses(MNEMONIC, [0, 1]);
    expect(rawKeys(importKey, 'PBKDF2').every(zeroed)).toBe(true);
    expect(deriveBits.results).toHaveLength(1); // the seed
    expect(deriveBits.results.every(zeroed)).toBe(true);
    // HMAC keys: "Bitcoin seed" (a constant), then each parent's chain code, wiped with its node.
    const hmacKeys = rawKeys(importKey, 'HMAC');
    expect(new TextDecoder().decode(hmacKeys[0])).toBe('Bitcoin seed');
    expect(hmacKeys.slice(1)).toHaveLength(4 + 2); // m/44'/60'/0'/0, then /0 and /1
    expect(hmacKeys.slice(1).every(zeroed)).toBe(true);
    // HMAC inputs after the seed (0x00 || parent key || index for hardened steps) and every output.
    expect(sign.calls.slice(1).every((call) => zeroed(call[2]))).toBe(true);
    expect(sign.results).toHaveLength(7);
    expect(sign.results.every(zeroed)).toBe(true);
  });

  it('the BIP-39 seed function wipes the phrase and passphrase bytes it made', async () => {
    const importKey = watch('importKey');
    const deriveBits = watch('deriveBits');
    const seed = await mnemonicToSeed(MNEMONIC, 'a passphrase');
    expect(seed.some((byte) => byte !== 0)).toBe(true); // the caller's to wipe
    expect(rawKeys(importKey, 'PBKDF2').every(zeroed)).toBe(true);
    const [options] = deriveBits.calls[0] ?? [];
    expect(zeroed((options as { salt: Uint8Array }).salt)).toBe(true);
  });

  it('deriving the settings key wipes the bytes of the secret it comes from', async () => {
    const importKey = watch('importKey');
    await deriveTrustKey(SECRETS);
    await deriveTrustKey({ importedKeys: SECRETS.importedKeys });
    const material = rawKeys(importKey, 'HKDF');
    expect(material).toHaveLength(2);
    expect(material.every(zeroed)).toBe(true);
  });
});
