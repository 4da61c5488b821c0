// BIP-39 recovery phrases (English list) and raw private keys: generation, normalisation and
// validation with errors that say exactly what is wrong.
//
// The messages here are for the person typing the phrase (the popup shows them). An UNKNOWN_WORD
// message names the mistyped word, so these messages must never be logged or sent anywhere.
import { type Hex, sha256 } from 'viem';
import { english } from 'viem/accounts';
import { randomBytes, randomInt, wipe } from './bytes';

export const MNEMONIC_WORD_COUNTS = [12, 15, 18, 21, 24] as const;
export type MnemonicWordCount = (typeof MNEMONIC_WORD_COUNTS)[number];

/** secp256k1 group order: a private key must be in [1, n - 1]. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

let wordIndex: Map<string, number> | undefined;
function indexOfWord(word: string): number | undefined {
  wordIndex ??= new Map(english.map((w, i) => [w, i]));
  return wordIndex.get(word);
}

/** Entropy (16..32 bytes, a multiple of 4) to its phrase: 11-bit word indices over entropy || checksum. */
export function entropyToMnemonic(entropy: Uint8Array): string {
  if (entropy.length < 16 || entropy.length > 32 || entropy.length % 4 !== 0) {
    throw new RangeError('entropy must be 16, 20, 24, 28 or 32 bytes');
  }
  const checksumBits = entropy.length / 4;
  const hash = sha256(entropy, 'bytes');
  const bits = bitsOf(entropy) + bitsOf(hash).slice(0, checksumBits);
  const words: string[] = [];
  for (let i = 0; i < bits.length; i += 11) {
    words.push(english[Number.parseInt(bits.slice(i, i + 11), 2)] as string);
  }
  return words.join(' ');
}

function bitsOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(2).padStart(8, '0')).join('');
}

/** A new phrase from the platform CSPRNG (crypto.getRandomValues): 128 bits for 12 words, 256 for 24. */
export function newMnemonic(words: 12 | 24 = 12): string {
  const entropy = randomBytes(words === 12 ? 16 : 32);
  try {
    return entropyToMnemonic(entropy);
  } finally {
    wipe(entropy);
  }
}

/** Lowercase, NFKD (as BIP-39 specifies), words separated by single spaces: tolerant of pasting. */
export function normaliseMnemonic(input: string): string {
  return input.normalize('NFKD').toLowerCase().split(/\s+/u).filter(Boolean).join(' ');
}

export type MnemonicIssue =
  | { code: 'WRONG_WORD_COUNT'; count: number; message: string }
  // `word` is absent when it is too long to be a word (never quoted: it may be a pasted secret).
  | { code: 'UNKNOWN_WORD'; word?: string; position: number; suggestion?: string; message: string }
  | { code: 'BAD_CHECKSUM'; message: string };

export type MnemonicCheck =
  | { ok: true; mnemonic: string; wordCount: MnemonicWordCount }
  | { ok: false; issue: MnemonicIssue };

/** The longest word of the English list has 8 letters: anything longer is not a mistyped word. */
const LONGEST_WORD = 8;

/** BIP-39 words are unique in their first four letters: a typo that keeps them has one candidate. */
function suggestionFor(word: string): string | undefined {
  if (word.length < 4) return undefined;
  const prefix = word.slice(0, 4);
  const candidates = english.filter((w) => w.startsWith(prefix));
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * A word not in the list, named with its position. A "word" longer than any in the list is not
 * quoted: it is words run together (a phrase pasted with commas) or a pasted key, a secret.
 */
function unknownWord(word: string, position: number): MnemonicIssue {
  if (word.length > LONGEST_WORD) {
    return {
      code: 'UNKNOWN_WORD',
      position,
      message: `Word ${position} is not in the BIP-39 English word list: it has ${word.length} characters, and a word has 3 to ${LONGEST_WORD} letters. Separate the words with spaces.`,
    };
  }
  const suggestion = suggestionFor(word);
  return {
    code: 'UNKNOWN_WORD',
    word,
    position,
    ...(suggestion ? { suggestion } : {}),
    message:
      `Word ${position} ("${word}") is not in the BIP-39 English word list` +
      (suggestion ? `: did you mean "${suggestion}"?` : '.'),
  };
}

/**
 * Validates a phrase after normalising it. Checks, in this order: unknown words (the first one and
 * its 1-based position, since a typo is the most actionable mistake), the word count, the checksum.
 */
export function validateMnemonic(input: string): MnemonicCheck {
  const mnemonic = normaliseMnemonic(input);
  const words = mnemonic === '' ? [] : mnemonic.split(' ');
  const indices: number[] = [];
  for (const [i, word] of words.entries()) {
    const index = indexOfWord(word);
    if (index === undefined) return { ok: false, issue: unknownWord(word, i + 1) };
    indices.push(index);
  }
  const count = words.length;
  if (!(MNEMONIC_WORD_COUNTS as readonly number[]).includes(count)) {
    return {
      ok: false,
      issue: {
        code: 'WRONG_WORD_COUNT',
        count,
        message: `A recovery phrase has 12, 15, 18, 21 or 24 words; this one has ${count}.`,
      },
    };
  }
  const bits = indices.map((i) => i.toString(2).padStart(11, '0')).join('');
  const checksumBits = count / 3;
  const entropyBits = bits.slice(0, bits.length - checksumBits);
  const entropy = new Uint8Array(entropyBits.length / 8);
  for (let i = 0; i < entropy.length; i++)
    entropy[i] = Number.parseInt(entropyBits.slice(i * 8, i * 8 + 8), 2);
  const expected = bitsOf(sha256(entropy, 'bytes')).slice(0, checksumBits);
  wipe(entropy);
  if (bits.slice(bits.length - checksumBits) !== expected) {
    return {
      ok: false,
      issue: {
        code: 'BAD_CHECKSUM',
        message:
          'Every word is valid but the phrase is not: a word is probably wrong or out of order. Check it against your copy.',
      },
    };
  }
  return { ok: true, mnemonic, wordCount: count as MnemonicWordCount };
}

/**
 * The BIP-39 seed: PBKDF2-HMAC-SHA512 of the NFKD phrase, salt "mnemonic" + the NFKD passphrase,
 * 2048 rounds, 64 bytes (WebCrypto). The phrase is used as given: validate it first. The UTF-8
 * copies made here are wiped; the strings themselves cannot be.
 */
export async function mnemonicToSeed(mnemonic: string, passphrase = ''): Promise<Uint8Array<ArrayBuffer>> {
  const encoder = new TextEncoder();
  const password = encoder.encode(mnemonic.normalize('NFKD'));
  const salt = encoder.encode(`mnemonic${passphrase.normalize('NFKD')}`);
  try {
    const base = await globalThis.crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
    const bits = await globalThis.crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-512', salt, iterations: 2048 },
      base,
      512,
    );
    return new Uint8Array(bits);
  } finally {
    wipe(password);
    wipe(salt);
  }
}

export type PrivateKeyIssue =
  | { code: 'EMPTY'; message: string }
  | { code: 'NOT_HEX'; message: string }
  | { code: 'WRONG_LENGTH'; length: number; message: string }
  | { code: 'ZERO_KEY'; message: string }
  | { code: 'OUT_OF_RANGE'; message: string };

export type PrivateKeyCheck = { ok: true; privateKey: Hex } | { ok: false; issue: PrivateKeyIssue };

/**
 * Parses a raw secp256k1 private key: 64 hex digits, with or without 0x, surrounding whitespace
 * ignored. Answers it lowercase with 0x. Messages never echo the input.
 */
export function parsePrivateKey(input: string): PrivateKeyCheck {
  const trimmed = input.trim();
  if (trimmed === '') return { ok: false, issue: { code: 'EMPTY', message: 'Enter a private key.' } };
  const digits = /^0x/i.test(trimmed) ? trimmed.slice(2) : trimmed;
  if (!/^[0-9a-fA-F]*$/.test(digits)) {
    const phrase = trimmed.split(/\s+/u).length >= 12;
    return {
      ok: false,
      issue: {
        code: 'NOT_HEX',
        message: phrase
          ? 'This looks like a recovery phrase, not a private key: import it as a recovery phrase.'
          : 'A private key has only hexadecimal digits (0-9, a-f), optionally after 0x.',
      },
    };
  }
  if (digits.length !== 64) {
    return {
      ok: false,
      issue: {
        code: 'WRONG_LENGTH',
        length: digits.length,
        message: `A private key has 64 hexadecimal digits; this one has ${digits.length}.`,
      },
    };
  }
  const value = BigInt(`0x${digits}`);
  if (value === 0n) {
    return { ok: false, issue: { code: 'ZERO_KEY', message: 'The zero key is not a valid private key.' } };
  }
  if (value >= SECP256K1_N) {
    return {
      ok: false,
      issue: {
        code: 'OUT_OF_RANGE',
        message: 'This value is too large to be a secp256k1 private key (it must be below the curve order).',
      },
    };
  }
  return { ok: true, privateKey: `0x${digits.toLowerCase()}` };
}

/** A uniform integer in [0, maxExclusive); injectable so tests can be deterministic. */
export type RandomInt = (maxExclusive: number) => number;

/**
 * Distinct 1-based word positions (as shown to the user, "word #3") to ask back after the phrase
 * is written down, in ascending order.
 */
export function pickConfirmationWords(mnemonic: string, count = 3, random: RandomInt = randomInt): number[] {
  const total = normaliseMnemonic(mnemonic).split(' ').length;
  if (!Number.isInteger(count) || count < 1 || count > total) {
    throw new RangeError(`count must be between 1 and ${total}`);
  }
  // Partial Fisher-Yates over the positions: uniform, no repeats.
  const positions = Array.from({ length: total }, (_, i) => i + 1);
  for (let i = 0; i < count; i++) {
    const j = i + random(total - i);
    [positions[i], positions[j]] = [positions[j] as number, positions[i] as number];
  }
  return positions.slice(0, count).sort((a, b) => a - b);
}

export interface ConfirmationAnswer {
  /** 1-based, as returned by pickConfirmationWords. */
  position: number;
  word: string;
}

/**
 * True only when at least one answer is given, positions are distinct and in range, and every
 * answer equals the phrase's word there (case and surrounding whitespace ignored).
 */
export function checkConfirmation(mnemonic: string, answers: readonly ConfirmationAnswer[]): boolean {
  const words = normaliseMnemonic(mnemonic).split(' ');
  if (answers.length === 0) return false;
  const seen = new Set<number>();
  let ok = true;
  for (const { position, word } of answers) {
    if (!Number.isInteger(position) || position < 1 || position > words.length || seen.has(position)) {
      return false;
    }
    seen.add(position);
    // No early exit on a wrong word: the answer takes the same path whichever word is wrong.
    if (normaliseMnemonic(word) !== words[position - 1]) ok = false;
  }
  return ok;
}
