// Password policy and a strength estimate. Pure: no storage, no crypto.
//
// The policy decides whether a *new* password is accepted (create, change password). It is never
// applied on unlock: a stricter policy later must not lock anyone out of an existing vault.
// The estimate only advises; it is deliberately simple (length, character classes, repeats,
// sequences and a small list of the most common passwords), not a zxcvbn replacement.

export const PASSWORD_MIN_LENGTH = 8;

export type PasswordIssue =
  | { code: 'EMPTY'; message: string }
  | { code: 'TOO_SHORT'; length: number; message: string }
  | { code: 'TOO_COMMON'; message: string }
  | { code: 'MISMATCH'; message: string };

export type PasswordCheck = { ok: true } | { ok: false; issue: PasswordIssue };

export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export interface PasswordStrength {
  score: StrengthScore;
  /** One short sentence for the user; never contains the password. */
  hint: string;
}

/** The form every password takes before it is measured or fed to the KDF (see vault.ts). */
export function normalisePassword(password: string): string {
  return password.normalize('NFC');
}

/** Length in user-perceived characters (code points), not UTF-16 units. */
function lengthOf(password: string): number {
  return Array.from(password).length;
}

// The most common passwords of public breach lists that are 8+ characters (shorter ones fail the
// length rule anyway), plus the stems that decorated variants ("Password1!") are built from.
const COMMON = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '12345678910',
  '0123456789',
  '87654321',
  '11111111',
  '00000000',
  '88888888',
  '12341234',
  '11223344',
  '123123123',
  '147258369',
  '123654789',
  '987654321',
  'password',
  'passw0rd',
  'password1',
  'password12',
  'password123',
  'iloveyou',
  'qwertyuiop',
  'qwerty123',
  'qwertyui',
  'qwerty12',
  '1q2w3e4r',
  '1q2w3e4r5t',
  '1qaz2wsx',
  'zaq12wsx',
  'asdfghjkl',
  'asdfasdf',
  'abcd1234',
  'abc12345',
  'abcdefgh',
  'aa123456',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'welcome123',
  'superman',
  'starwars',
  'whatever',
  'trustno1',
  'letmein1',
  'computer',
  'michelle',
  'jennifer',
  'corvette',
  'mercedes',
  'mustang1',
  'internet',
  'samantha',
  'butterfly',
  'sunflower',
  'chocolate',
  'liverpool',
  'changeme',
  'firebird',
  'metallica',
  'bitcoin1',
  'ethereum',
  'metamask',
  'satoshi1',
  'blockchain',
  'cryptocurrency',
  // stems (also refused outright when 8+ characters)
  'qwerty',
  'letmein',
  'welcome',
  'admin',
  'monkey',
  'dragon',
  'master',
  'shadow',
  'bitcoin',
  'crypto',
  'wallet',
  'swaplane',
]);

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/** Lowercase, undo common substitutions and strip the digits/symbols people append or prepend. */
function stemOf(password: string): string {
  const lower = password.toLowerCase();
  const stripped = lower.replace(/^[^a-z]+|[^a-z]+$/g, '');
  return Array.from(stripped, (c) => LEET[c] ?? c).join('');
}

function isCommon(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}

function hasCommonStem(password: string): boolean {
  const stem = stemOf(password);
  return stem.length > 0 && COMMON.has(stem);
}

/**
 * Whether a new password is acceptable: not empty or whitespace-only, at least 8 characters, not
 * one of the most common passwords, and equal to its confirmation when one is given.
 */
export function checkPassword(password: string, confirmation?: string): PasswordCheck {
  const normal = normalisePassword(password);
  if (normal.trim().length === 0) {
    return { ok: false, issue: { code: 'EMPTY', message: 'Enter a password.' } };
  }
  const length = lengthOf(normal);
  if (length < PASSWORD_MIN_LENGTH) {
    return {
      ok: false,
      issue: {
        code: 'TOO_SHORT',
        length,
        message: `Use at least ${PASSWORD_MIN_LENGTH} characters (this one has ${length}).`,
      },
    };
  }
  if (isCommon(normal)) {
    return {
      ok: false,
      issue: { code: 'TOO_COMMON', message: 'This is one of the most common passwords: choose another.' },
    };
  }
  if (confirmation !== undefined && normalisePassword(confirmation) !== normal) {
    return { ok: false, issue: { code: 'MISMATCH', message: 'The two passwords do not match.' } };
  }
  return { ok: true };
}

const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', '0123456789', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Counts characters, with each run of repeats or of a keyboard/alphabet sequence counting as ~2. */
function effectiveLength(password: string): { length: number; repeats: boolean; sequences: boolean } {
  const chars = Array.from(password.toLowerCase());
  let length = 0;
  let repeats = false;
  let sequences = false;
  let i = 0;
  while (i < chars.length) {
    let run = 1;
    while (chars[i + run] === chars[i]) run++;
    if (run >= 3) {
      repeats = true;
      length += 2;
      i += run;
      continue;
    }
    let seq = 1;
    while (i + seq < chars.length && isStep(chars[i + seq - 1] as string, chars[i + seq] as string)) seq++;
    if (seq >= 3) {
      sequences = true;
      length += 2;
      i += seq;
      continue;
    }
    length += 1;
    i += 1;
  }
  return { length, repeats, sequences };
}

function isStep(a: string, b: string): boolean {
  return SEQUENCES.some((s) => {
    const at = s.indexOf(a);
    return at >= 0 && (s[at + 1] === b || (at > 0 && s[at - 1] === b));
  });
}

function poolSize(password: string): number {
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/[0-9]/.test(password)) pool += 10;
  if (/[^a-zA-Z0-9]/.test(password)) pool += 33;
  return pool;
}

/** A 0-4 estimate of how hard the password is to guess offline, with one hint to improve it. */
export function estimateStrength(password: string): PasswordStrength {
  const normal = normalisePassword(password);
  if (normal.trim().length === 0) return { score: 0, hint: 'Enter a password.' };
  if (isCommon(normal)) {
    return { score: 0, hint: 'This is one of the most common passwords: it would be guessed at once.' };
  }
  const { length, repeats, sequences } = effectiveLength(normal);
  const bits = length * Math.log2(Math.max(poolSize(normal), 2));
  let score: StrengthScore = bits < 30 ? 0 : bits < 45 ? 1 : bits < 60 ? 2 : bits < 80 ? 3 : 4;
  let hint: string;
  if (hasCommonStem(normal)) {
    score = Math.min(score, 1) as StrengthScore;
    hint = 'Built on a common password: digits, symbols or swapped letters do not help much.';
  } else if (lengthOf(normal) < PASSWORD_MIN_LENGTH) {
    hint = `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  } else if (repeats) {
    hint = 'Avoid repeated characters like "aaa".';
  } else if (sequences) {
    hint = 'Avoid sequences like "abc", "123" or "qwerty".';
  } else if (score < 3) {
    hint = 'Make it longer: a few unrelated words are easy to remember and hard to guess.';
  } else if (score < 4) {
    hint = 'Good. One more word would make it very strong.';
  } else {
    hint = 'Very strong.';
  }
  return { score, hint };
}

/**
 * Every problem of a new password pair at once (the form shows them together, not one per submit):
 * the password's own issue, then the mismatch with its confirmation. Empty when both are fine.
 */
export function passwordProblems(password: string, confirmation: string): string[] {
  const problems: string[] = [];
  const own = checkPassword(password);
  if (!own.ok) problems.push(own.issue.message);
  if (normalisePassword(confirmation) !== normalisePassword(password))
    problems.push(confirmation === '' ? 'Confirm the password.' : 'The two passwords do not match.');
  return problems;
}
