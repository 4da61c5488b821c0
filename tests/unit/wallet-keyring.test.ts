import fc from 'fast-check';
import { recoverMessageAddress } from 'viem';
import { mnemonicToAccount, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  activeAccount,
  addDerivedAccount,
  createKeyring,
  deriveAccount,
  deriveAddresses,
  emptyKeyring,
  importKeyAccount,
  KeyringError,
  type KeyringMeta,
  KeyringMetaSchema,
  MAX_ACCOUNTS,
  renameAccount,
  setActive,
  signerFor,
  verifyKeyring,
} from '@/lib/wallet/keyring';
import { entropyToMnemonic } from '@/lib/wallet/mnemonic';

const ANVIL = 'test test test test test test test test test test test junk';
const ANVIL_ADDRESSES = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
];
const ANVIL_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
] as const;
const TREZOR = `${'abandon '.repeat(11)}about`;

async function refusal(run: () => unknown): Promise<KeyringError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(KeyringError);
    return error as KeyringError;
  }
  throw new Error('expected a KeyringError');
}

describe('derivation', () => {
  it("derives anvil's accounts 0, 1, 2 at m/44'/60'/0'/0/i", async () => {
    for (const [index, address] of ANVIL_ADDRESSES.entries()) {
      expect(await deriveAccount(ANVIL, index)).toEqual({ index, address });
    }
    expect(await deriveAddresses(ANVIL, [2, 0, 1])).toEqual([
      ANVIL_ADDRESSES[2],
      ANVIL_ADDRESSES[0],
      ANVIL_ADDRESSES[1],
    ]);
  });

  it('derives the BIP-39 reference phrase "abandon ... about" to its known address', async () => {
    expect((await deriveAccount(TREZOR, 0)).address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });

  it("agrees with viem's mnemonicToAccount on random phrases (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.integer({ min: 0, max: 50 }),
        async (entropy, index) => {
          const phrase = entropyToMnemonic(entropy);
          const expected = mnemonicToAccount(phrase, { addressIndex: index }).address;
          expect((await deriveAccount(phrase, index)).address).toBe(expected);
        },
      ),
      { numRuns: 5 },
    );
  });

  it('refuses an invalid phrase or index with a message that names neither', async () => {
    const error = await refusal(() => deriveAccount('test test tset', 0));
    expect(error.code).toBe('INVALID_MNEMONIC');
    expect(error.mnemonicIssue).toMatchObject({ code: 'UNKNOWN_WORD', position: 3 });
    expect(error.message).not.toContain('tset');
    expect((await refusal(() => deriveAccount(ANVIL, -1))).code).toBe('INVALID_INDEX');
    expect((await refusal(() => deriveAccount(ANVIL, 2 ** 31))).code).toBe('INVALID_INDEX');
  });
});

describe('keyring', () => {
  it('creates a keyring with account 0 active, metadata apart from the secrets', async () => {
    const { meta, secrets } = await createKeyring(`  ${ANVIL.toUpperCase()}\n`);
    expect(meta).toEqual({
      accounts: [
        { id: 'derived:0', kind: 'derived', index: 0, address: ANVIL_ADDRESSES[0], name: 'Account 1' },
      ],
      activeId: 'derived:0',
    });
    expect(secrets).toEqual({ mnemonic: ANVIL, importedKeys: [] });
    expect(JSON.stringify(meta)).not.toContain('junk');
    expect(KeyringMetaSchema.parse(JSON.parse(JSON.stringify(meta)))).toEqual(meta);
  });

  it('adds derived accounts in order and makes each one active', async () => {
    const start = await createKeyring(ANVIL);
    const one = await addDerivedAccount(start.meta, start.secrets);
    const two = await addDerivedAccount(one.meta, start.secrets, 'Savings');
    expect(two.meta.accounts.map((a) => a.address)).toEqual(ANVIL_ADDRESSES);
    expect(two.account).toMatchObject({ id: 'derived:2', index: 2, name: 'Savings' });
    expect(activeAccount(two.meta)?.id).toBe('derived:2');
    expect(one.meta.accounts.map((a) => a.name)).toEqual(['Account 1', 'Account 2']);
    // Pure: the input is untouched.
    expect(start.meta.accounts).toHaveLength(1);
  });

  it('imports a private key as a separate account, with its key only in the secrets', async () => {
    const start = await createKeyring(ANVIL);
    const { meta, secrets, account } = importKeyAccount(
      start.meta,
      start.secrets,
      `  ${ANVIL_KEYS[3].slice(2)} `,
    );
    expect(account).toEqual({
      id: `imported:${privateKeyToAddress(ANVIL_KEYS[3]).toLowerCase()}`,
      kind: 'imported',
      address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
      name: 'Imported 1',
    });
    expect(meta.activeId).toBe(account.id);
    expect(secrets.importedKeys).toEqual([{ id: account.id, privateKey: ANVIL_KEYS[3] }]);
    expect(secrets.mnemonic).toBe(ANVIL);
    expect(JSON.stringify(meta)).not.toContain(ANVIL_KEYS[3].slice(2));
    expect(start.secrets.importedKeys).toEqual([]);
  });

  it('refuses a duplicate address, whether derived or imported, naming the existing account', async () => {
    const start = await createKeyring(ANVIL);
    const derivedDup = await refusal(() => importKeyAccount(start.meta, start.secrets, ANVIL_KEYS[0]));
    expect(derivedDup).toMatchObject({ code: 'DUPLICATE_ACCOUNT', existingId: 'derived:0' });
    expect(derivedDup.message).toContain('Account 1');
    const once = importKeyAccount(start.meta, start.secrets, ANVIL_KEYS[3]);
    const importedDup = await refusal(() =>
      importKeyAccount(once.meta, once.secrets, ANVIL_KEYS[3].toUpperCase()),
    );
    expect(importedDup).toMatchObject({ code: 'DUPLICATE_ACCOUNT', existingId: once.account.id });
  });

  it('refuses an invalid private key with the typed issue and a message that does not echo it', async () => {
    const { meta, secrets } = await createKeyring(ANVIL);
    const error = await refusal(() => importKeyAccount(meta, secrets, `0x${'0'.repeat(64)}`));
    expect(error).toMatchObject({ code: 'INVALID_PRIVATE_KEY', privateKeyIssue: { code: 'ZERO_KEY' } });
    const short = await refusal(() => importKeyAccount(meta, secrets, ANVIL_KEYS[1].slice(0, 40)));
    expect(short.privateKeyIssue).toMatchObject({ code: 'WRONG_LENGTH', length: 38 });
    expect(short.message).not.toContain(ANVIL_KEYS[1].slice(2, 12));
  });

  it('skips a derivation index whose address was already imported', async () => {
    const start = await createKeyring(ANVIL);
    const imported = importKeyAccount(start.meta, start.secrets, ANVIL_KEYS[1]);
    const next = await addDerivedAccount(imported.meta, imported.secrets);
    expect(next.account).toMatchObject({ index: 2, address: ANVIL_ADDRESSES[2], name: 'Account 3' });
    expect(KeyringMetaSchema.safeParse(next.meta).success).toBe(true);
  });

  it('supports a wallet of imported keys only, which cannot derive', async () => {
    const { meta, secrets } = importKeyAccount(emptyKeyring().meta, emptyKeyring().secrets, ANVIL_KEYS[2]);
    expect(meta.accounts).toHaveLength(1);
    expect((await refusal(() => addDerivedAccount(meta, secrets))).code).toBe('NO_MNEMONIC');
    await verifyKeyring(meta, secrets);
  });

  it('renames and switches accounts, refusing unknown ids and bad names', async () => {
    const start = await createKeyring(ANVIL);
    const { meta } = await addDerivedAccount(start.meta, start.secrets);
    const renamed = renameAccount(meta, 'derived:0', '  Main  ');
    expect(renamed.accounts[0]?.name).toBe('Main');
    expect(setActive(renamed, 'derived:0').activeId).toBe('derived:0');
    expect((await refusal(() => setActive(meta, 'derived:7'))).code).toBe('UNKNOWN_ACCOUNT');
    expect((await refusal(() => renameAccount(meta, 'nope', 'x'))).code).toBe('UNKNOWN_ACCOUNT');
    expect((await refusal(() => renameAccount(meta, 'derived:0', '   '))).code).toBe('INVALID_NAME');
    expect((await refusal(() => renameAccount(meta, 'derived:0', 'x'.repeat(41)))).code).toBe('INVALID_NAME');
    expect((await refusal(() => renameAccount(meta, 'derived:0', 'a\u0000b'))).code).toBe('INVALID_NAME');
  });

  it('signs only through signerFor, with the account the metadata names', async () => {
    const start = await createKeyring(ANVIL);
    const { meta: m1 } = await addDerivedAccount(start.meta, start.secrets);
    const { meta, secrets, account } = importKeyAccount(m1, start.secrets, ANVIL_KEYS[3]);
    for (const entry of meta.accounts) {
      const signer = await signerFor(secrets, meta, entry.id);
      expect(signer.address).toBe(entry.address);
      const signature = await signer.signMessage({ message: 'swaplane' });
      expect(await recoverMessageAddress({ message: 'swaplane', signature })).toBe(entry.address);
    }
    expect((await signerFor(secrets, meta, account.id)).source).toBe('privateKey');
    expect((await refusal(() => signerFor(secrets, meta, 'derived:9'))).code).toBe('UNKNOWN_ACCOUNT');
  });

  it('refuses to sign when the stored metadata does not match the secrets', async () => {
    const { meta, secrets } = await createKeyring(ANVIL);
    const tampered: KeyringMeta = {
      ...meta,
      accounts: meta.accounts.map((a) => ({ ...a, address: ANVIL_ADDRESSES[1] as `0x${string}` })),
    };
    expect((await refusal(() => signerFor(secrets, tampered, 'derived:0'))).code).toBe('MISMATCH');
    const imported = importKeyAccount(meta, secrets, ANVIL_KEYS[3]);
    const keyless = { ...imported.secrets, importedKeys: [] };
    expect((await refusal(() => signerFor(keyless, imported.meta, imported.account.id))).code).toBe(
      'MISMATCH',
    );
  });

  it('verifies metadata against the secrets on unlock', async () => {
    const start = await createKeyring(ANVIL);
    const { meta: m1 } = await addDerivedAccount(start.meta, start.secrets);
    const { meta, secrets } = importKeyAccount(m1, start.secrets, ANVIL_KEYS[3]);
    await verifyKeyring(meta, secrets);
    const swapped: KeyringMeta = {
      ...meta,
      accounts: meta.accounts.map((a) =>
        a.id === 'derived:1' ? { ...a, address: ANVIL_ADDRESSES[2] as `0x${string}` } : a,
      ),
    };
    expect((await refusal(() => verifyKeyring(swapped, secrets))).code).toBe('MISMATCH');
    const orphanKey = {
      ...secrets,
      importedKeys: [...secrets.importedKeys, { id: 'imported:x', privateKey: ANVIL_KEYS[2] }],
    };
    expect((await refusal(() => verifyKeyring(meta, orphanKey))).code).toBe('MISMATCH');
    const otherPhrase = { ...secrets, mnemonic: TREZOR };
    expect((await refusal(() => verifyKeyring(meta, otherPhrase))).code).toBe('MISMATCH');
  });

  it('holds at most MAX_ACCOUNTS accounts: a planted longer list does not parse, and none is added past it', async () => {
    // Imported-looking entries with distinct addresses: the list is what is stored, the secrets apart.
    const listOf = (count: number): KeyringMeta => ({
      accounts: Array.from({ length: count }, (_, i) => ({
        id: `imported:${i}`,
        kind: 'imported' as const,
        address: `0x${i.toString(16).padStart(40, '0')}` as const,
        name: `Imported ${i + 1}`,
      })),
      activeId: 'imported:0',
    });
    const full = listOf(MAX_ACCOUNTS);
    expect(KeyringMetaSchema.safeParse(full).success).toBe(true);
    expect(KeyringMetaSchema.safeParse(listOf(MAX_ACCOUNTS + 1)).success).toBe(false);
    const secrets = { mnemonic: ANVIL, importedKeys: [] };
    expect((await refusal(() => addDerivedAccount(full, secrets))).code).toBe('TOO_MANY_ACCOUNTS');
    expect((await refusal(() => importKeyAccount(full, secrets, ANVIL_KEYS[3]))).code).toBe(
      'TOO_MANY_ACCOUNTS',
    );
    const roomForOne = listOf(MAX_ACCOUNTS - 1);
    expect((await addDerivedAccount(roomForOne, secrets)).meta.accounts).toHaveLength(MAX_ACCOUNTS);
  });

  it('validates stored metadata: unique ids, addresses and indices, an existing active account', () => {
    const account = { id: 'derived:0', kind: 'derived', index: 0, address: ANVIL_ADDRESSES[0], name: 'A' };
    expect(KeyringMetaSchema.safeParse({ accounts: [], activeId: null }).success).toBe(true);
    expect(KeyringMetaSchema.safeParse({ accounts: [account], activeId: 'derived:0' }).success).toBe(true);
    expect(KeyringMetaSchema.safeParse({ accounts: [account], activeId: null }).success).toBe(false);
    expect(KeyringMetaSchema.safeParse({ accounts: [account], activeId: 'derived:1' }).success).toBe(false);
    expect(KeyringMetaSchema.safeParse({ accounts: [account, account], activeId: 'derived:0' }).success).toBe(
      false,
    );
    const sameIndex = { ...account, id: 'other', address: ANVIL_ADDRESSES[1] };
    expect(KeyringMetaSchema.safeParse({ accounts: [account, sameIndex], activeId: 'other' }).success).toBe(
      false,
    );
    const importedOnly = { id: 'i', kind: 'imported', address: ANVIL_ADDRESSES[1], name: 'B' };
    expect(KeyringMetaSchema.safeParse({ accounts: [importedOnly], activeId: 'i' }).success).toBe(true);
    expect(
      KeyringMetaSchema.safeParse({ accounts: [{ ...account, kind: 'other' }], activeId: 'derived:0' })
        .success,
    ).toBe(false);
  });
});
