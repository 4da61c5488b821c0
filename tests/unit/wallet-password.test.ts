import { describe, expect, it } from 'vitest';
import {
  checkPassword,
  estimateStrength,
  PASSWORD_MIN_LENGTH,
  passwordProblems,
} from '@/lib/wallet/password';

describe('password policy', () => {
  it.each(['', ' ', '        ', '\n\t  \r\n', '\u00a0\u3000'])(
    'refuses an empty or whitespace-only password (%j)',
    (p) => {
      expect(checkPassword(p)).toMatchObject({ ok: false, issue: { code: 'EMPTY' } });
    },
  );

  it('refuses fewer than 8 characters and says how many there are', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    const check = checkPassword('abc1234');
    expect(check).toMatchObject({ ok: false, issue: { code: 'TOO_SHORT', length: 7 } });
    expect(check.ok ? '' : check.issue.message).toBe('Use at least 8 characters (this one has 7).');
    expect(checkPassword('kitchens').ok).toBe(true);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkPassword('\u{1F511}'.repeat(4))).toMatchObject({ ok: false, issue: { length: 4 } });
    expect(checkPassword('\u{1F511}'.repeat(8)).ok).toBe(true);
    // e + combining accent is one character once normalised (NFC).
    expect(checkPassword('e\u0301'.repeat(7))).toMatchObject({ ok: false, issue: { length: 7 } });
  });

  it('refuses the most common passwords, in any case', () => {
    for (const p of ['password', 'PASSWORD', '12345678', 'qwertyuiop', 'iloveyou']) {
      expect(checkPassword(p)).toMatchObject({ ok: false, issue: { code: 'TOO_COMMON' } });
    }
  });

  it('checks the confirmation, after normalisation', () => {
    expect(checkPassword('tall green lamp', 'tall green lamp ')).toMatchObject({
      ok: false,
      issue: { code: 'MISMATCH' },
    });
    expect(checkPassword('caf\u00e9 caf\u00e9', 'cafe\u0301 cafe\u0301')).toEqual({ ok: true });
  });

  it('keeps the password out of every message', () => {
    for (const p of ['hunter2', '12345678', 'qwertyuiop', 'tall green lamp']) {
      const check = checkPassword(p, 'x');
      if (!check.ok) expect(check.issue.message).not.toContain(p);
      expect(estimateStrength(p).hint).not.toContain(p);
    }
  });
});

describe('password strength', () => {
  it.each([
    ['', 0],
    ['password', 0],
    ['12345678', 0],
    ['aaaaaaaaaaaa', 0],
    ['abcdefgh1234', 0],
    ['P@ssw0rd2024!', 1],
    ['hunter22', 1],
    ['correct horse battery staple', 4],
    ['t7#Qm!x2Lp9@Vr4z', 4],
  ])('scores %j as %i', (password, score) => {
    expect(estimateStrength(password).score).toBe(score);
  });

  it('grows with length and character classes', () => {
    const scores = [
      'kitchens',
      'kitchens tulip',
      'kitchens tulip ochre',
      'kitchens tulip ochre 7 Lanterns',
    ].map((p) => estimateStrength(p).score);
    expect(scores).toEqual([...scores].sort());
    expect(scores[0]).toBeLessThan(scores[3] as number);
  });

  it('gives a hint that fits the weakness', () => {
    expect(estimateStrength('Password1!').hint).toMatch(/common password/);
    expect(estimateStrength('zzzzzzzzkitten').hint).toMatch(/repeated/);
    expect(estimateStrength('abcdefkitten').hint).toMatch(/sequences/);
    expect(estimateStrength('kittens').hint).toMatch(/8 characters/);
    expect(estimateStrength('correct horse battery staple').hint).toBe('Very strong.');
  });
});

describe('passwordProblems', () => {
  it('lists every problem of the pair at once', () => {
    expect(passwordProblems('short', 'other')).toEqual([
      'Use at least 8 characters (this one has 5).',
      'The two passwords do not match.',
    ]);
    expect(passwordProblems('password', '')).toEqual([
      'This is one of the most common passwords: choose another.',
      'Confirm the password.',
    ]);
  });

  it('is empty for a good, confirmed password', () => {
    expect(passwordProblems('quiet harbour lantern 7', 'quiet harbour lantern 7')).toEqual([]);
  });
});
