// The encrypted vault: the wallet's secrets (recovery phrase, imported private keys) sealed with
// AES-256-GCM under a key derived from the password with PBKDF2-HMAC-SHA256 (WebCrypto only).
//
// KDF choice: PBKDF2-SHA256 because WebCrypto has it natively in every browser and in Node, so the
// extension ships no crypto code of its own. 900,000 iterations is OWASP's 2023 recommendation for
// PBKDF2-HMAC-SHA256 (and what MetaMask moved to); on a desktop it costs a few hundred ms per
// unlock. The parameters are stored with each vault, so raising DEFAULT_KDF_ITERATIONS later is
// picked up by `needsUpgrade` on the next password unlock and applied with `upgradeVault`.
//
// Tamper detection: the GCM tag covers the ciphertext and, as additional data, the vault header
// (version, KDF name, hash, iterations, salt, cipher name). The salt and iterations also feed the
// key. So any change to salt, IV, iterations or ciphertext fails the tag. From the outside that
// is indistinguishable from a wrong password, and it is reported as WrongPasswordError: the
// caller must treat both as "ask again" and must never overwrite the stored vault because of
// either error (nor because of CorruptVaultError).
import * as z from 'zod/mini';
import { base64ToBytes, bytesToBase64, randomBytes, wipe } from './bytes';
import { checkPassword, normalisePassword, type PasswordIssue } from './password';

export const VAULT_VERSION = 1;
export const DEFAULT_KDF_ITERATIONS = 900_000;
/** Vaults below this are re-encrypted with the current parameters on the next password unlock. */
export const MIN_KDF_ITERATIONS = 900_000;
/** Refused when read: a tampered count of billions would hang every unlock attempt. */
export const MAX_KDF_ITERATIONS = 10_000_000;
export const SALT_BYTES = 16;
export const IV_BYTES = 12;
export const KEY_BYTES = 32;
const TAG_BYTES = 16;

const PrivateKeyHexSchema = z.custom<`0x${string}`>(
  (value) => typeof value === 'string' && /^0x[0-9a-f]{64}$/.test(value),
  'expected a 0x-prefixed lowercase 32-byte key',
);

/** What the vault protects. Imported keys carry the id of their account in the keyring metadata. */
export const VaultSecretsSchema = z.strictObject({
  /** Normalised BIP-39 phrase (see normaliseMnemonic), absent for a wallet of imported keys only. */
  mnemonic: z.optional(z.string().check(z.minLength(1))),
  importedKeys: z.array(
    z.strictObject({ id: z.string().check(z.minLength(1)), privateKey: PrivateKeyHexSchema }),
  ),
});
export type VaultSecrets = z.infer<typeof VaultSecretsSchema>;

function base64Field(label: string, check?: { bytes?: number; minBytes?: number }) {
  return z.string().check(
    z.superRefine((value, ctx) => {
      const bytes = base64ToBytes(value);
      if (!bytes) {
        ctx.addIssue({ code: 'custom', message: `${label} is not valid base64` });
      } else if (check?.bytes !== undefined && bytes.length !== check.bytes) {
        ctx.addIssue({
          code: 'custom',
          message: `${label} must be ${check.bytes} bytes, found ${bytes.length}`,
        });
      } else if (check?.minBytes !== undefined && bytes.length < check.minBytes) {
        ctx.addIssue({ code: 'custom', message: `${label} is truncated (${bytes.length} bytes)` });
      }
    }),
  );
}

/** The stored vault (storage.local). Parse with `parseVault` to get a CorruptVaultError on failure. */
export const VaultSchema = z.object({
  version: z.literal(VAULT_VERSION),
  kdf: z.object({
    name: z.literal('PBKDF2'),
    hash: z.literal('SHA-256'),
    iterations: z.int().check(z.minimum(1), z.maximum(MAX_KDF_ITERATIONS)),
    salt: base64Field('kdf.salt', { bytes: SALT_BYTES }),
  }),
  cipher: z.object({
    name: z.literal('AES-GCM'),
    iv: base64Field('cipher.iv', { bytes: IV_BYTES }),
  }),
  // At least the tag plus one byte of JSON.
  ciphertext: base64Field('ciphertext', { minBytes: TAG_BYTES + 1 }),
});
export type Vault = z.infer<typeof VaultSchema>;

export interface KdfParams {
  /** PBKDF2 iterations for new vaults (tests pass small counts for speed). */
  iterations?: number;
  /** Below this, `needsUpgrade` is true. */
  minIterations?: number;
}

export type VaultErrorCode = 'WRONG_PASSWORD' | 'CORRUPT_VAULT' | 'INVALID_SESSION_KEY' | 'WEAK_PASSWORD';

export class VaultError extends Error {
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VaultError';
  }
}

/** The GCM tag did not verify: wrong password, or the vault was altered. Ask again; keep the vault. */
export class WrongPasswordError extends VaultError {
  constructor() {
    super('WRONG_PASSWORD', 'Wrong password.');
    this.name = 'WrongPasswordError';
  }
}

/** The stored vault is not a vault this code can read. Never overwrite it: it may be the only copy. */
export class CorruptVaultError extends VaultError {
  constructor(detail: string) {
    super('CORRUPT_VAULT', `The stored wallet vault is damaged and cannot be read: ${detail}`);
    this.name = 'CorruptVaultError';
  }
}

/** The cached session key is malformed or belongs to another vault: drop it and ask for the password. */
export class InvalidSessionKeyError extends VaultError {
  constructor(detail: string) {
    super('INVALID_SESSION_KEY', `The session key cannot open this vault: ${detail}`);
    this.name = 'InvalidSessionKeyError';
  }
}

/** A new password that fails the policy of password.ts (only on create and password change). */
export class WeakPasswordError extends VaultError {
  constructor(readonly issue: PasswordIssue) {
    super('WEAK_PASSWORD', issue.message);
    this.name = 'WeakPasswordError';
  }
}

export interface UnlockedVault {
  secrets: VaultSecrets;
  /** Non-extractable AES-GCM key for `updateVaultSecrets` while unlocked. */
  key: CryptoKey;
  /**
   * The same AES key as raw bytes, base64, for `storage.session` (see unlockWithSessionKey).
   * Store it only there; it opens the vault without the password.
   */
  sessionKey: string;
  /** The vault's KDF parameters are below the current minimum: call upgradeVault with the password. */
  needsUpgrade: boolean;
}

export interface SealedVault {
  vault: Vault;
  key: CryptoKey;
  sessionKey: string;
}

const subtle = () => globalThis.crypto.subtle;
const encoder = new TextEncoder();

/** Validates an untrusted stored value as a vault. */
export function parseVault(raw: unknown): Vault {
  const parsed = VaultSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new CorruptVaultError(`${where}${issue?.message ?? 'not a vault'}`);
  }
  return parsed.data;
}

/** Decoded after parseVault, so the fields are known to be valid base64 of the right length. */
function decoded(vault: Vault) {
  const salt = base64ToBytes(vault.kdf.salt);
  const iv = base64ToBytes(vault.cipher.iv);
  const ciphertext = base64ToBytes(vault.ciphertext);
  if (!salt || !iv || !ciphertext) throw new CorruptVaultError('invalid base64');
  return { salt, iv, ciphertext };
}

/** The header bound to the ciphertext as GCM additional data (fields in a fixed order). */
function additionalData(vault: Pick<Vault, 'version' | 'kdf' | 'cipher'>): Uint8Array<ArrayBuffer> {
  const { version, kdf, cipher } = vault;
  return encoder.encode(
    JSON.stringify(['swaplane-vault', version, kdf.name, kdf.hash, kdf.iterations, kdf.salt, cipher.name]),
  );
}

/** PBKDF2 -> 256 raw bits, returned both as a non-extractable AES key and as bytes for the session. */
async function deriveKey(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<{ key: CryptoKey; sessionKey: string }> {
  // The password's UTF-8 copy is ours to wipe (the string itself cannot be).
  const passwordBytes = encoder.encode(normalisePassword(password));
  let raw: Uint8Array<ArrayBuffer>;
  try {
    const passwordKey = await subtle().importKey('raw', passwordBytes, 'PBKDF2', false, ['deriveBits']);
    raw = new Uint8Array(
      await subtle().deriveBits(
        { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
        passwordKey,
        KEY_BYTES * 8,
      ),
    );
  } finally {
    wipe(passwordBytes);
  }
  try {
    return { key: await importAesKey(raw), sessionKey: bytesToBase64(raw) };
  } finally {
    wipe(raw);
  }
}

function importAesKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

async function seal(
  secrets: VaultSecrets,
  key: CryptoKey,
  kdf: { iterations: number; salt: string },
): Promise<Vault> {
  const parsed = VaultSecretsSchema.safeParse(secrets);
  // Name the field, never the value: the value may be key material.
  if (!parsed.success)
    throw new TypeError(`invalid vault secrets at ${parsed.error.issues[0]?.path.join('.')}`);
  const checked = parsed.data;
  const iv = randomBytes(IV_BYTES);
  const header = {
    version: VAULT_VERSION,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: kdf.iterations, salt: kdf.salt },
    cipher: { name: 'AES-GCM', iv: bytesToBase64(iv) },
  } as const;
  const plaintext = encoder.encode(JSON.stringify(checked));
  try {
    const ciphertext = await subtle().encrypt(
      { name: 'AES-GCM', iv, additionalData: additionalData(header), tagLength: TAG_BYTES * 8 },
      key,
      plaintext,
    );
    return { ...header, ciphertext: bytesToBase64(new Uint8Array(ciphertext)) };
  } finally {
    wipe(plaintext);
  }
}

/** Decrypts with a key; undefined when the tag fails (the callers choose the error). */
async function open(vault: Vault, key: CryptoKey): Promise<VaultSecrets | undefined> {
  const { iv, ciphertext } = decoded(vault);
  let plaintext: Uint8Array;
  try {
    plaintext = new Uint8Array(
      await subtle().decrypt(
        { name: 'AES-GCM', iv, additionalData: additionalData(vault), tagLength: TAG_BYTES * 8 },
        key,
        ciphertext,
      ),
    );
  } catch (error) {
    // WebCrypto reports a failed tag as an OperationError DOMException; anything else is a real fault.
    if (typeof error === 'object' && error !== null && 'name' in error && error.name === 'OperationError') {
      return undefined;
    }
    throw error;
  }
  try {
    const parsed = VaultSecretsSchema.safeParse(JSON.parse(new TextDecoder().decode(plaintext)));
    // The tag verified, so this is a vault written by a buggy or foreign writer, not an attacker.
    if (!parsed.success) throw new CorruptVaultError('the decrypted contents are not wallet secrets');
    return parsed.data;
  } catch (error) {
    if (error instanceof CorruptVaultError) throw error;
    throw new CorruptVaultError('the decrypted contents are not JSON');
  } finally {
    wipe(plaintext);
  }
}

function iterationsOf(params?: KdfParams): number {
  const iterations = params?.iterations ?? DEFAULT_KDF_ITERATIONS;
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_KDF_ITERATIONS) {
    throw new RangeError(`iterations must be an integer in [1, ${MAX_KDF_ITERATIONS}]`);
  }
  return iterations;
}

function needsUpgrade(vault: Vault, params?: KdfParams): boolean {
  return vault.kdf.iterations < (params?.minIterations ?? MIN_KDF_ITERATIONS);
}

async function sealNew(secrets: VaultSecrets, password: string, params?: KdfParams): Promise<SealedVault> {
  const iterations = iterationsOf(params);
  const salt = randomBytes(SALT_BYTES);
  const { key, sessionKey } = await deriveKey(password, salt, iterations);
  const vault = await seal(secrets, key, { iterations, salt: bytesToBase64(salt) });
  return { vault, key, sessionKey };
}

/**
 * Encrypts the secrets under a new password: fresh salt and IV, current (or given) iterations.
 * The password must pass the policy of password.ts (WeakPasswordError otherwise).
 */
export async function createVault(
  secrets: VaultSecrets,
  password: string,
  params?: KdfParams,
): Promise<SealedVault> {
  const policy = checkPassword(password);
  if (!policy.ok) throw new WeakPasswordError(policy.issue);
  return sealNew(secrets, password, params);
}

/** Opens a stored vault (raw value from storage is accepted and validated) with the password. */
export async function unlockVault(
  raw: unknown,
  password: string,
  params?: KdfParams,
): Promise<UnlockedVault> {
  const vault = parseVault(raw);
  // No vault has an empty password (createVault refuses one), and some WebCrypto versions refuse
  // an empty PBKDF2 key: answer as for any other wrong password.
  if (password.length === 0) throw new WrongPasswordError();
  const { salt } = decoded(vault);
  const { key, sessionKey } = await deriveKey(password, salt, vault.kdf.iterations);
  const secrets = await open(vault, key);
  if (!secrets) throw new WrongPasswordError();
  return { secrets, key, sessionKey, needsUpgrade: needsUpgrade(vault, params) };
}

/**
 * Re-encrypts a vault (always) with the current parameters (new salt, IV and iteration count) after
 * checking the password against it, so a mistyped password can never produce a vault that the
 * real one does not open. Call it when unlockVault answered `needsUpgrade`; store the new vault,
 * then replace the session key with the new one.
 */
export async function upgradeVault(
  raw: unknown,
  password: string,
  params?: KdfParams,
): Promise<SealedVault & { secrets: VaultSecrets }> {
  const { secrets } = await unlockVault(raw, password, params);
  // No policy check: the password is the user's existing one, accepted under an older policy.
  return { ...(await sealNew(secrets, password, params)), secrets };
}

/** Opens the vault with the old password and seals it under a new one (which must pass the policy). */
export async function changeVaultPassword(
  raw: unknown,
  oldPassword: string,
  newPassword: string,
  params?: KdfParams,
): Promise<SealedVault & { secrets: VaultSecrets }> {
  const policy = checkPassword(newPassword);
  if (!policy.ok) throw new WeakPasswordError(policy.issue);
  const { secrets } = await unlockVault(raw, oldPassword, params);
  return { ...(await sealNew(secrets, newPassword, params)), secrets };
}

/**
 * Replaces the secrets while unlocked (an account was imported), without the password: same salt
 * and iterations, fresh IV. The key must open the current vault, which is checked first so a
 * stale key can never write a vault that the password no longer opens.
 */
export async function updateVaultSecrets(
  raw: unknown,
  key: CryptoKey,
  secrets: VaultSecrets,
): Promise<Vault> {
  const vault = parseVault(raw);
  if (!(await open(vault, key))) throw new InvalidSessionKeyError('the key does not open the stored vault');
  return seal(secrets, key, vault.kdf);
}

/**
 * Opens the vault with the raw key cached in storage.session, so a service worker restarted by
 * the browser stays unlocked without asking for the password again.
 *
 * Trade-off: the raw key opens the vault on its own, so whoever can read storage.session can
 * decrypt the secrets until the wallet locks (the caller must then remove the key) or the browser
 * closes. storage.session is kept in memory, never written to disk, and with the default
 * TRUSTED_CONTEXTS access level only extension pages and the worker can read it, never content
 * scripts; they could read the decrypted secrets from the worker's memory anyway. It does not
 * reveal the password (PBKDF2 is one-way), so other vaults with the same password are not exposed.
 * A new salt (upgradeVault, changeVaultPassword) makes a new key: replace the cached one.
 */
export async function unlockWithSessionKey(
  raw: unknown,
  rawKeyBase64: string,
  params?: KdfParams,
): Promise<UnlockedVault> {
  const vault = parseVault(raw);
  const bytes = base64ToBytes(rawKeyBase64);
  if (!bytes || bytes.length !== KEY_BYTES) throw new InvalidSessionKeyError(`expected ${KEY_BYTES} bytes`);
  let key: CryptoKey;
  try {
    key = await importAesKey(bytes);
  } finally {
    wipe(bytes);
  }
  const secrets = await open(vault, key);
  if (!secrets) throw new InvalidSessionKeyError('it belongs to another vault or the vault was altered');
  return { secrets, key, sessionKey: rawKeyBase64, needsUpgrade: needsUpgrade(vault, params) };
}
