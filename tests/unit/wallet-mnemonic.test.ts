import { createHash, pbkdf2Sync } from 'node:crypto';
import fc from 'fast-check';
import { bytesToHex, hexToBytes } from 'viem';
import { english, HDKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { masterNode } from '@/lib/wallet/hd-key';
import {
  checkConfirmation,
  entropyToMnemonic,
  mnemonicToSeed,
  newMnemonic,
  normaliseMnemonic,
  parsePrivateKey,
  pickConfirmationWords,
  SECP256K1_N,
  validateMnemonic,
} from '@/lib/wallet/mnemonic';
import { TREZOR_PASSPHRASE, TREZOR_VECTORS } from './wallet-bip39-vectors';

const ANVIL = 'test test test test test test test test test test test junk';
const ANVIL_KEY_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

describe('BIP-39 phrases', () => {
  // Trezor's reference vectors (github.com/trezor/python-mnemonic, vectors.json).
  it.each([
    ['00000000000000000000000000000000', `${'abandon '.repeat(11)}about`],
    [
      '7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f',
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
    ],
    [
      '80808080808080808080808080808080',
      'letter advice cage absurd amount doctor acoustic avoid letter advice cage above',
    ],
    ['ffffffffffffffffffffffffffffffff', `${'zoo '.repeat(11)}wrong`],
    [
      '9e885d952ad362caeb4efe34a8e91bd2',
      'ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic',
    ],
    ['0000000000000000000000000000000000000000000000000000000000000000', `${'abandon '.repeat(23)}art`],
    ['ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', `${'zoo '.repeat(23)}vote`],
  ])('encodes entropy %s as in the reference vectors, and validates it back', (entropy, phrase) => {
    expect(entropyToMnemonic(hexToBytes(`0x${entropy}`))).toBe(phrase);
    expect(validateMnemonic(phrase)).toEqual({
      ok: true,
      mnemonic: phrase,
      wordCount: phrase.split(' ').length,
    });
  });

  it('reads the BIP-39 English list byte for byte (SHA-256 of english.txt as published with BIP-39)', () => {
    const file = `${english.join('\n')}\n`;
    expect(createHash('sha256').update(file).digest('hex')).toBe(
      '2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda',
    );
    // The over-long-word rule below relies on this: no word has more than 8 letters.
    expect(Math.max(...english.map((word) => word.length))).toBe(8);
  });

  it('refuses entropy of a length BIP-39 does not define', () => {
    expect(() => entropyToMnemonic(new Uint8Array(15))).toThrow(RangeError);
    expect(() => entropyToMnemonic(new Uint8Array(17))).toThrow(RangeError);
  });

  it('generates valid 12- and 24-word phrases that differ every time', () => {
    const twelve = newMnemonic(12);
    const twentyFour = newMnemonic(24);
    expect(validateMnemonic(twelve)).toMatchObject({ ok: true, wordCount: 12 });
    expect(validateMnemonic(twentyFour)).toMatchObject({ ok: true, wordCount: 24 });
    expect(newMnemonic()).not.toBe(newMnemonic());
    expect(new Set(Array.from({ length: 20 }, () => newMnemonic())).size).toBe(20);
  });

  it('validates every phrase made from any entropy (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(16, 20, 24, 28, 32).chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        (entropy) => validateMnemonic(entropyToMnemonic(entropy)).ok,
      ),
    );
  });

  it('normalises pasted phrases: whitespace, newlines, tabs and case', () => {
    const messy = '  TEST test\n\ttest  Test\r\ntest test test test\u00a0test test test\n JUNK \n';
    expect(normaliseMnemonic(messy)).toBe(ANVIL);
    expect(validateMnemonic(messy)).toEqual({ ok: true, mnemonic: ANVIL, wordCount: 12 });
    expect(normaliseMnemonic('   ')).toBe('');
  });

  it.each([
    [11, `${'test '.repeat(10)}junk`],
    [13, `${ANVIL} test`],
    [0, ''],
    [0, ' \n '],
    [1, 'test'],
    [3, 'test test junk'],
    [9, `${'test '.repeat(8)}junk`],
    [14, `${ANVIL} test test`],
    [25, `${'abandon '.repeat(24)}art`],
    [27, `${'abandon '.repeat(26)}art`],
  ])('names a wrong word count (%i words)', (count, phrase) => {
    const check = validateMnemonic(phrase);
    expect(check).toMatchObject({ ok: false, issue: { code: 'WRONG_WORD_COUNT', count } });
    const message = check.ok ? '' : check.issue.message;
    expect(message).toContain(`${count}`);
    expect(message).toContain('12, 15, 18, 21 or 24');
  });

  it('names the first unknown word and its position, with a suggestion when one is clear', () => {
    const check = validateMnemonic('test test tset test test test test test test test test junk');
    expect(check).toMatchObject({ ok: false, issue: { code: 'UNKNOWN_WORD', word: 'tset', position: 3 } });
    expect(check.ok ? '' : check.issue.message).toMatch(/Word 3 \("tset"\)/);
    expect(validateMnemonic('abandon abandn Bitcoin')).toMatchObject({
      ok: false,
      issue: { code: 'UNKNOWN_WORD', word: 'abandn', position: 2 },
    });
    expect(validateMnemonic(`abandonn ${'abandon '.repeat(10)}about`)).toMatchObject({
      ok: false,
      issue: { code: 'UNKNOWN_WORD', position: 1, suggestion: 'abandon' },
    });
  });

  it('never quotes a "word" longer than any in the list: a pasted key or a phrase run together', () => {
    const runTogether = ANVIL.replaceAll(' ', ',');
    for (const [input, position] of [
      [ANVIL_KEY_0, 1],
      [`test test ${ANVIL_KEY_0.slice(2)}`, 3],
      [runTogether, 1],
      [`${'abandon '.repeat(11)}aboutabandon`, 12],
    ] as const) {
      const check = validateMnemonic(input);
      expect(check).toMatchObject({ ok: false, issue: { code: 'UNKNOWN_WORD', position } });
      const issue = check.ok ? undefined : check.issue;
      expect(issue && 'word' in issue).toBe(false);
      expect(issue?.message).toMatch(new RegExp(`^Word ${position} is not in the BIP-39 English word list`));
      expect(issue?.message).toContain('Separate the words with spaces');
      // Not even a fragment of the secret is echoed.
      expect(issue?.message).not.toMatch(/ac0974|test,test|aboutabandon/);
    }
    // An eight-letter typo is still quoted: the longest words ("abstract", "category") have eight.
    expect(validateMnemonic('abstracx')).toMatchObject({
      ok: false,
      issue: { code: 'UNKNOWN_WORD', word: 'abstracx', position: 1, message: /\("abstracx"\)/ },
    });
  });

  it('accepts the words typed in full-width letters or with a pasted trailing newline (NFKD)', () => {
    const fullWidth = ANVIL.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    expect(validateMnemonic(`${fullWidth}\n`)).toEqual({ ok: true, mnemonic: ANVIL, wordCount: 12 });
  });

  it('reports a bad checksum when every word is valid but the phrase is not', () => {
    const check = validateMnemonic('abandon '.repeat(12));
    expect(check).toMatchObject({ ok: false, issue: { code: 'BAD_CHECKSUM' } });
    // Two words swapped.
    expect(validateMnemonic('test test test test test test test test test test junk test')).toMatchObject({
      ok: false,
      issue: { code: 'BAD_CHECKSUM' },
    });
  });
});

describe('BIP-39 seeds', () => {
  const hex = (bytes: Uint8Array) => bytesToHex(bytes).slice(2);

  it.each(TREZOR_VECTORS)(
    'holds TREZOR vector %s: phrase, seed with passphrase "TREZOR", master key',
    async (entropy, phrase, seed, xprv) => {
      expect(entropyToMnemonic(hexToBytes(`0x${entropy}`))).toBe(phrase);
      expect(validateMnemonic(phrase)).toMatchObject({ ok: true, mnemonic: phrase });
      const derived = await mnemonicToSeed(phrase, TREZOR_PASSPHRASE);
      expect(hex(derived)).toBe(seed);
      const master = await masterNode(derived);
      const published = HDKey.fromExtendedKey(xprv);
      expect(hex(master.privateKey)).toBe(hex(published.privateKey as Uint8Array));
      expect(hex(master.chainCode)).toBe(hex(published.chainCode as Uint8Array));
    },
  );

  it('has the well-known seed for "abandon ... about" without a passphrase', async () => {
    expect(hex(await mnemonicToSeed(`${'abandon '.repeat(11)}about`))).toBe(
      '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4',
    );
  });

  it('normalises the passphrase to NFKD: composed, decomposed and compatibility forms agree', async () => {
    const composed = await mnemonicToSeed(ANVIL, 'caf\u00e9 \u2168'); // é, ROMAN NUMERAL NINE
    const decomposed = await mnemonicToSeed(ANVIL, 'cafe\u0301 IX');
    expect(hex(decomposed)).toBe(hex(composed));
    expect(hex(await mnemonicToSeed(ANVIL, 'cafe IX'))).not.toBe(hex(composed));
  });

  it("agrees with node:crypto's PBKDF2 on random phrases and Unicode passphrases (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(16, 20, 24, 28, 32).chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        fc.string({ unit: 'grapheme', maxLength: 12 }),
        async (entropy, passphrase) => {
          const phrase = entropyToMnemonic(entropy);
          const expected = pbkdf2Sync(
            phrase.normalize('NFKD'),
            `mnemonic${passphrase.normalize('NFKD')}`,
            2048,
            64,
            'sha512',
          );
          expect(hex(await mnemonicToSeed(phrase, passphrase))).toBe(expected.toString('hex'));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('private keys', () => {
  it.each([
    ANVIL_KEY_0,
    ANVIL_KEY_0.slice(2),
    ANVIL_KEY_0.toUpperCase().replace('0X', '0x'),
    `0X${ANVIL_KEY_0.slice(2)}`,
    `  \n${ANVIL_KEY_0}\t `,
  ])('accepts %s, answering it lowercase with 0x', (input) => {
    expect(parsePrivateKey(input)).toEqual({ ok: true, privateKey: ANVIL_KEY_0 });
  });

  it('accepts the extremes of the valid range, 1 and n - 1', () => {
    expect(parsePrivateKey(`0x${'0'.repeat(63)}1`).ok).toBe(true);
    expect(parsePrivateKey((SECP256K1_N - 1n).toString(16)).ok).toBe(true);
  });

  it.each([
    ['empty', '', 'EMPTY'],
    ['whitespace', '  \n ', 'EMPTY'],
    ['a bare 0x', '0x', 'WRONG_LENGTH'],
    ['63 digits', ANVIL_KEY_0.slice(0, -1), 'WRONG_LENGTH'],
    ['65 digits', `${ANVIL_KEY_0}0`, 'WRONG_LENGTH'],
    ['an address', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'WRONG_LENGTH'],
    ['non-hex digits', `0x${'g'.repeat(64)}`, 'NOT_HEX'],
    ['inner whitespace', `${ANVIL_KEY_0.slice(0, 30)} ${ANVIL_KEY_0.slice(30)}`, 'NOT_HEX'],
    ['a double prefix', `0x${ANVIL_KEY_0}`, 'NOT_HEX'],
    ['the zero key', `0x${'0'.repeat(64)}`, 'ZERO_KEY'],
    ['the curve order n', SECP256K1_N.toString(16), 'OUT_OF_RANGE'],
    ['n + 1', (SECP256K1_N + 1n).toString(16), 'OUT_OF_RANGE'],
    ['all ff', 'f'.repeat(64), 'OUT_OF_RANGE'],
  ])('refuses %s with a typed error that does not echo the input', (_, input, code) => {
    const check = parsePrivateKey(input);
    expect(check).toMatchObject({ ok: false, issue: { code } });
    if (!check.ok && input.trim().length > 4)
      expect(check.issue.message).not.toContain(input.trim().slice(2, 12));
  });

  it('says how many digits a wrong-length key has', () => {
    expect(parsePrivateKey('abc')).toMatchObject({ ok: false, issue: { code: 'WRONG_LENGTH', length: 3 } });
    expect(
      parsePrivateKey('abc').ok
        ? ''
        : (parsePrivateKey('abc') as { issue: { message: string } }).issue.message,
    ).toMatch(/64 hexadecimal digits; this one has 3/);
  });

  it('recognises a recovery phrase pasted as a private key', () => {
    expect(parsePrivateKey(ANVIL)).toMatchObject({
      ok: false,
      issue: { code: 'NOT_HEX', message: /recovery phrase/ },
    });
  });
});

describe('confirmation words', () => {
  it('picks distinct, sorted, 1-based positions from the injected random source', () => {
    expect(pickConfirmationWords(ANVIL, 3, () => 0)).toEqual([1, 2, 3]);
    // Partial Fisher-Yates: always the last remaining slot.
    expect(pickConfirmationWords(ANVIL, 3, (max) => max - 1)).toEqual([1, 2, 12]);
    expect(pickConfirmationWords(ANVIL, 12, () => 0)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('always answers distinct in-range positions (property, real CSPRNG and arbitrary sources)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.infiniteStream(fc.nat()), (count, stream) => {
        const it = stream[Symbol.iterator]();
        const positions = pickConfirmationWords(ANVIL, count, (max) => (it.next().value as number) % max);
        return (
          positions.length === count &&
          new Set(positions).size === count &&
          positions.every((p) => p >= 1 && p <= 12) &&
          positions.every((p, i) => i === 0 || (positions[i - 1] as number) < p)
        );
      }),
    );
    const real = pickConfirmationWords(newMnemonic(24));
    expect(real).toHaveLength(3);
    expect(new Set(real).size).toBe(3);
  });

  it('refuses an impossible count', () => {
    expect(() => pickConfirmationWords(ANVIL, 0)).toThrow(RangeError);
    expect(() => pickConfirmationWords(ANVIL, 13)).toThrow(RangeError);
  });

  it('checks the answers, tolerating case and whitespace but nothing else', () => {
    const phrase = `${'abandon '.repeat(11)}about`;
    expect(
      checkConfirmation(phrase, [
        { position: 12, word: ' About ' },
        { position: 1, word: 'abandon' },
      ]),
    ).toBe(true);
    expect(checkConfirmation(phrase, [{ position: 12, word: 'abandon' }])).toBe(false);
    expect(
      checkConfirmation(phrase, [
        { position: 1, word: 'abandon' },
        { position: 12, word: '' },
      ]),
    ).toBe(false);
    expect(checkConfirmation(phrase, [])).toBe(false);
    expect(checkConfirmation(phrase, [{ position: 0, word: 'abandon' }])).toBe(false);
    expect(checkConfirmation(phrase, [{ position: 13, word: 'abandon' }])).toBe(false);
    expect(checkConfirmation(phrase, [{ position: 1.5, word: 'abandon' }])).toBe(false);
    expect(
      checkConfirmation(phrase, [
        { position: 1, word: 'abandon' },
        { position: 1, word: 'abandon' },
      ]),
    ).toBe(false);
  });
});
