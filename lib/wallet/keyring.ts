// The keyring: accounts derived from the recovery phrase at m/44'/60'/0'/0/i plus imported
// private keys. Two halves, stored apart:
// - metadata (KeyringMeta): ids, addresses, names, the active account; no secrets, kept in
//   storage.local in the clear so the popup can show accounts while locked;
// - secrets (VaultSecrets): only ever inside the encrypted vault or the unlocked background.
// Every function is pure (returns new values, mutates nothing). `signerFor` is the only way to
// get something that signs, and it checks the account's address against the secrets, so a
// tampered metadata entry can never make the wallet sign with (or show) an unexpected account.
import { bytesToHex, type Hex } from 'viem';
import { type LocalAccount, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import * as z from 'zod/mini';
import { type Address, AddressSchema } from '@/lib/api/schema';
import { wipe } from './bytes';
import { childNode, derivePath, masterNode, wipeNode } from './hd-key';
import {
  type MnemonicIssue,
  mnemonicToSeed,
  type PrivateKeyIssue,
  parsePrivateKey,
  validateMnemonic,
} from './mnemonic';
import type { VaultSecrets } from './vault';

/** BIP-44 Ethereum external chain; account i is its child i (the path MetaMask and anvil use). */
export const DERIVATION_PARENT_PATH = "m/44'/60'/0'/0";
export const MAX_DERIVED_INDEX = 2 ** 31 - 1; // non-hardened children only
export const ACCOUNT_NAME_MAX = 40;
/**
 * The list is read from storage.local (outside the trust boundary) and each derived account costs
 * a derivation at unlock (~1 ms): a planted list of 100,000 would stall every unlock for minutes.
 */
export const MAX_ACCOUNTS = 1_000;

const AccountNameSchema = z.string().check(
  z.trim(),
  z.minLength(1, 'an account name cannot be empty'),
  z.maxLength(ACCOUNT_NAME_MAX, `an account name has at most ${ACCOUNT_NAME_MAX} characters`),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  z.regex(/^[^\u0000-\u001f\u007f]*$/, 'an account name cannot contain control characters'),
);

export const DerivedAccountMetaSchema = z.object({
  id: z.string().check(z.minLength(1)),
  kind: z.literal('derived'),
  index: z.int().check(z.minimum(0), z.maximum(MAX_DERIVED_INDEX)),
  address: AddressSchema,
  name: AccountNameSchema,
});

export const ImportedAccountMetaSchema = z.object({
  id: z.string().check(z.minLength(1)),
  kind: z.literal('imported'),
  address: AddressSchema,
  name: AccountNameSchema,
});

export const AccountMetaSchema = z.discriminatedUnion('kind', [
  DerivedAccountMetaSchema,
  ImportedAccountMetaSchema,
]);
export type AccountMeta = z.infer<typeof AccountMetaSchema>;
export type DerivedAccountMeta = z.infer<typeof DerivedAccountMetaSchema>;
export type ImportedAccountMeta = z.infer<typeof ImportedAccountMetaSchema>;

/** The keyring metadata as stored (storage.local): no secrets. */
export const KeyringMetaSchema = z
  .object({
    accounts: z.array(AccountMetaSchema).check(z.maxLength(MAX_ACCOUNTS)),
    activeId: z.nullable(z.string()),
  })
  .check(
    z.superRefine((meta, ctx) => {
      const ids = new Set<string>();
      const addresses = new Set<string>();
      const indices = new Set<number>();
      for (const [i, account] of meta.accounts.entries()) {
        if (ids.has(account.id))
          ctx.addIssue({ code: 'custom', path: ['accounts', i, 'id'], message: 'duplicate id' });
        const address = account.address.toLowerCase();
        if (addresses.has(address)) {
          ctx.addIssue({ code: 'custom', path: ['accounts', i, 'address'], message: 'duplicate address' });
        }
        if (account.kind === 'derived') {
          if (indices.has(account.index)) {
            ctx.addIssue({ code: 'custom', path: ['accounts', i, 'index'], message: 'duplicate index' });
          }
          indices.add(account.index);
        }
        ids.add(account.id);
        addresses.add(address);
      }
      if (meta.activeId === null ? meta.accounts.length > 0 : !ids.has(meta.activeId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['activeId'],
          message: 'the active account must be one of the accounts',
        });
      }
    }),
  );
export type KeyringMeta = z.infer<typeof KeyringMetaSchema>;

export type KeyringErrorCode =
  | 'INVALID_MNEMONIC'
  | 'NO_MNEMONIC'
  | 'INVALID_PRIVATE_KEY'
  | 'DUPLICATE_ACCOUNT'
  | 'UNKNOWN_ACCOUNT'
  | 'INVALID_NAME'
  | 'INVALID_INDEX'
  | 'TOO_MANY_ACCOUNTS'
  | 'MISMATCH';

/**
 * A keyring operation was refused. Messages are generic on purpose (never a word of a phrase or a
 * digit of a key) so they are safe to log; the UI reads `mnemonicIssue` / `privateKeyIssue`.
 */
export class KeyringError extends Error {
  readonly mnemonicIssue?: MnemonicIssue;
  readonly privateKeyIssue?: PrivateKeyIssue;
  /** For DUPLICATE_ACCOUNT: the account that already has this address. */
  readonly existingId?: string;

  constructor(
    readonly code: KeyringErrorCode,
    message: string,
    extra: { mnemonicIssue?: MnemonicIssue; privateKeyIssue?: PrivateKeyIssue; existingId?: string } = {},
  ) {
    super(message);
    this.name = 'KeyringError';
    Object.assign(this, extra);
  }
}

export interface Keyring {
  meta: KeyringMeta;
  secrets: VaultSecrets;
}

export function emptyKeyring(): Keyring {
  return { meta: { accounts: [], activeId: null }, secrets: { importedKeys: [] } };
}

function checkedMnemonic(mnemonic: string): string {
  const check = validateMnemonic(mnemonic);
  if (!check.ok) {
    throw new KeyringError('INVALID_MNEMONIC', 'The recovery phrase is not valid.', {
      mnemonicIssue: check.issue,
    });
  }
  return check.mnemonic;
}

function checkedIndex(index: number): number {
  if (!Number.isInteger(index) || index < 0 || index > MAX_DERIVED_INDEX) {
    throw new KeyringError('INVALID_INDEX', `An account index is an integer in [0, ${MAX_DERIVED_INDEX}].`);
  }
  return index;
}

/**
 * Runs `use` with the private key of each index, computing the (slow) seed once. Keys are handed
 * out one at a time and the HD nodes wiped after, best effort.
 */
async function withDerivedKeys<T>(
  mnemonic: string,
  indices: readonly number[],
  use: (privateKey: Hex, index: number) => T,
): Promise<T[]> {
  const seed = await mnemonicToSeed(checkedMnemonic(mnemonic));
  const root = await masterNode(seed).finally(() => wipe(seed));
  const parent = await derivePath(root, DERIVATION_PARENT_PATH).finally(() => wipeNode(root));
  try {
    const results: T[] = [];
    for (const index of indices) {
      const child = await childNode(parent, checkedIndex(index));
      try {
        results.push(use(bytesToHex(child.privateKey), index));
      } finally {
        wipeNode(child);
      }
    }
    return results;
  } finally {
    wipeNode(parent);
  }
}

/** The address of account `index` (m/44'/60'/0'/0/index). Does not hand out the key. */
export async function deriveAccount(
  mnemonic: string,
  index: number,
): Promise<{ index: number; address: Address }> {
  const [address] = await withDerivedKeys(mnemonic, [index], privateKeyToAddress);
  return { index, address: address as Address };
}

/** Several addresses at once (one seed computation), e.g. to verify or discover accounts. */
export async function deriveAddresses(mnemonic: string, indices: readonly number[]): Promise<Address[]> {
  return withDerivedKeys(mnemonic, indices, privateKeyToAddress);
}

function checkedName(name: string): string {
  const parsed = AccountNameSchema.safeParse(name);
  if (!parsed.success) {
    throw new KeyringError(
      'INVALID_NAME',
      `Invalid account name: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
    );
  }
  return parsed.data;
}

function checkRoomFor(meta: KeyringMeta): void {
  if (meta.accounts.length >= MAX_ACCOUNTS) {
    throw new KeyringError('TOO_MANY_ACCOUNTS', `A wallet holds at most ${MAX_ACCOUNTS} accounts.`);
  }
}

function findByAddress(meta: KeyringMeta, address: string): AccountMeta | undefined {
  const lower = address.toLowerCase();
  return meta.accounts.find((a) => a.address.toLowerCase() === lower);
}

/** A new keyring for a (new or restored) recovery phrase, with its first account active. */
export async function createKeyring(mnemonic: string, name = 'Account 1'): Promise<Keyring> {
  const phrase = checkedMnemonic(mnemonic);
  const { address } = await deriveAccount(phrase, 0);
  const account: DerivedAccountMeta = {
    id: 'derived:0',
    kind: 'derived',
    index: 0,
    address,
    name: checkedName(name),
  };
  return {
    meta: { accounts: [account], activeId: account.id },
    secrets: { mnemonic: phrase, importedKeys: [] },
  };
}

/**
 * Adds the next derived account (one past the highest index in use) and makes it active. An index
 * whose address was already imported as a private key is skipped, so no address appears twice.
 */
export async function addDerivedAccount(
  meta: KeyringMeta,
  secrets: VaultSecrets,
  name?: string,
): Promise<{ meta: KeyringMeta; account: DerivedAccountMeta }> {
  if (!secrets.mnemonic)
    throw new KeyringError('NO_MNEMONIC', 'This wallet has no recovery phrase to derive from.');
  checkRoomFor(meta);
  const used = meta.accounts.flatMap((a) => (a.kind === 'derived' ? [a.index] : []));
  let index = used.length === 0 ? 0 : Math.max(...used) + 1;
  let address = (await deriveAccount(secrets.mnemonic, index)).address;
  while (findByAddress(meta, address)) {
    index++;
    address = (await deriveAccount(secrets.mnemonic, index)).address;
  }
  const account: DerivedAccountMeta = {
    id: `derived:${index}`,
    kind: 'derived',
    index,
    address,
    name: checkedName(name ?? `Account ${index + 1}`),
  };
  return { meta: { accounts: [...meta.accounts, account], activeId: account.id }, account };
}

/**
 * Imports a raw private key as its own account and makes it active. Refuses invalid keys (the
 * typed issue is on the error) and an address the keyring already has, derived or imported.
 */
export function importKeyAccount(
  meta: KeyringMeta,
  secrets: VaultSecrets,
  privateKey: string,
  name?: string,
): { meta: KeyringMeta; secrets: VaultSecrets; account: ImportedAccountMeta } {
  checkRoomFor(meta);
  const parsed = parsePrivateKey(privateKey);
  if (!parsed.ok) {
    throw new KeyringError('INVALID_PRIVATE_KEY', 'The private key is not valid.', {
      privateKeyIssue: parsed.issue,
    });
  }
  const address = privateKeyToAddress(parsed.privateKey);
  const existing = findByAddress(meta, address);
  if (existing) {
    throw new KeyringError(
      'DUPLICATE_ACCOUNT',
      `This key's account is already in the wallet ("${existing.name}").`,
      {
        existingId: existing.id,
      },
    );
  }
  const imported = meta.accounts.filter((a) => a.kind === 'imported').length;
  const account: ImportedAccountMeta = {
    id: `imported:${address.toLowerCase()}`,
    kind: 'imported',
    address,
    name: checkedName(name ?? `Imported ${imported + 1}`),
  };
  return {
    meta: { accounts: [...meta.accounts, account], activeId: account.id },
    secrets: {
      ...secrets,
      importedKeys: [...secrets.importedKeys, { id: account.id, privateKey: parsed.privateKey }],
    },
    account,
  };
}

function accountOf(meta: KeyringMeta, id: string): AccountMeta {
  const account = meta.accounts.find((a) => a.id === id);
  if (!account) throw new KeyringError('UNKNOWN_ACCOUNT', 'No such account.');
  return account;
}

export function renameAccount(meta: KeyringMeta, id: string, name: string): KeyringMeta {
  accountOf(meta, id);
  const checked = checkedName(name);
  return { ...meta, accounts: meta.accounts.map((a) => (a.id === id ? { ...a, name: checked } : a)) };
}

export function setActive(meta: KeyringMeta, id: string): KeyringMeta {
  accountOf(meta, id);
  return { ...meta, activeId: id };
}

export function activeAccount(meta: KeyringMeta): AccountMeta | undefined {
  return meta.accounts.find((a) => a.id === meta.activeId);
}

function mismatch(): KeyringError {
  return new KeyringError('MISMATCH', 'The account list does not match the wallet secrets.');
}

/**
 * The signer for an account: a viem LocalAccount (privateKeyToAccount). The address it signs for
 * is checked against the metadata; a mismatch (tampered or stale metadata) is refused.
 */
export async function signerFor(
  secrets: VaultSecrets,
  meta: KeyringMeta,
  accountId: string,
): Promise<LocalAccount> {
  const account = accountOf(meta, accountId);
  let signer: LocalAccount;
  if (account.kind === 'derived') {
    if (!secrets.mnemonic)
      throw new KeyringError('NO_MNEMONIC', 'This wallet has no recovery phrase to derive from.');
    const [derived] = await withDerivedKeys(secrets.mnemonic, [account.index], (key) =>
      privateKeyToAccount(key),
    );
    if (!derived) throw mismatch();
    signer = derived;
  } else {
    const entry = secrets.importedKeys.find((k) => k.id === account.id);
    if (!entry) throw mismatch();
    signer = privateKeyToAccount(entry.privateKey);
  }
  if (signer.address.toLowerCase() !== account.address.toLowerCase()) throw mismatch();
  return signer;
}

/**
 * Checks that the metadata describes exactly these secrets: every derived address matches its
 * index, every imported account has its key (and the key's address), no key is orphaned. Call on
 * unlock, before showing or using any account; a MISMATCH means storage was altered.
 */
export async function verifyKeyring(meta: KeyringMeta, secrets: VaultSecrets): Promise<void> {
  if (!KeyringMetaSchema.safeParse(meta).success) throw mismatch();
  const derived = meta.accounts.filter((a) => a.kind === 'derived');
  if (derived.length > 0) {
    if (!secrets.mnemonic) throw mismatch();
    const addresses = await deriveAddresses(
      secrets.mnemonic,
      derived.map((a) => a.index),
    );
    if (derived.some((a, i) => a.address.toLowerCase() !== addresses[i]?.toLowerCase())) throw mismatch();
  }
  const imported = meta.accounts.filter((a) => a.kind === 'imported');
  if (imported.length !== secrets.importedKeys.length) throw mismatch();
  for (const account of imported) {
    const entry = secrets.importedKeys.find((k) => k.id === account.id);
    if (!entry || privateKeyToAddress(entry.privateKey).toLowerCase() !== account.address.toLowerCase()) {
      throw mismatch();
    }
  }
}
