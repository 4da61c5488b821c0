// SECURITY.md: source-level guarantees the behavioural tests rely on, checked so a change that breaks
// one fails here with the file named (a review aid, next to the tests that exercise each defence).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

function sources(...dirs: string[]): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|tsx)$/.test(name))
        found.push({ file: path.relative(ROOT, full), text: readFileSync(full, 'utf8') });
    }
  };
  for (const dir of dirs) walk(path.join(ROOT, dir));
  return found;
}

const matches = (files: { file: string; text: string }[], pattern: RegExp) =>
  files.filter(({ text }) => pattern.test(text)).map(({ file }) => file);

describe('no HTML sinks for data', () => {
  it('the extension never writes HTML from strings (Preact text and textContent only)', () => {
    const files = sources('lib', 'components', 'entrypoints');
    expect(files.length).toBeGreaterThan(50);
    expect(
      matches(
        files,
        /dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write\(/,
      ),
    ).toEqual([]);
    expect(matches(files, /\beval\(|new Function\(/)).toEqual([]);
  });

  it('the only links the views render are explorer links of a transaction (SwapProgress, Activity; https only)', () => {
    const files = sources('components', 'entrypoints');
    // In-page anchors with a literal fragment (the options page's section nav) leave nothing.
    expect(matches(files, /<a\s(?!href="#[a-z-]+">)/).sort()).toEqual([
      'components/ActivityEntry.tsx',
      'components/SwapProgress.tsx',
    ]);
    // Each of them checks the scheme before it links.
    for (const file of ['components/ActivityEntry.tsx', 'components/SwapProgress.tsx'])
      expect(readFileSync(file, 'utf8')).toMatch(/\^https:\\\/\\\//);
  });
});

describe('the content script', () => {
  const files = sources('lib/explorer', 'entrypoints/explorer.content');
  it('listens to no window messages (postMessage from the page reaches nothing)', () => {
    expect(files.length).toBeGreaterThan(3);
    expect(matches(files, /addEventListener\(\s*['"]message['"]|onmessage|\.postMessage\(/)).toEqual([]);
  });
  it('reads no storage and talks to the background only through runtime.sendMessage in the messenger', () => {
    expect(matches(files, /browser\.storage|chrome\.storage/)).toEqual([]);
    expect(matches(files, /sendMessage/)).toEqual(['lib/explorer/messenger.ts']);
  });
});

describe('logs', () => {
  it('the extension has no console output at all (nothing can leak a secret through it)', () => {
    expect(matches(sources('lib', 'components', 'entrypoints'), /\bconsole\./)).toEqual([]);
  });
});
