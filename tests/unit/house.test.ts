// The house rules, read from the source tree itself: lib/'s layer order (docs/ARCHITECTURE.md), no
// source file over 400 lines, no function over 120 lines, no reference to a document outside the
// repository. No allowlist: a file or function over the limit is split before it lands.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionSpans, lineCount, localImports, ROOT, sourceFiles } from '../support/source-tree';

/**
 * lib/'s domains from the lowest to the highest: a module may import its own domain and the ones
 * before it, never one after it. 'base' is lib/'s root files (async.ts, zod-config.ts).
 */
const LIB_LAYERS = [
  'base',
  'time',
  'amounts',
  'chains',
  'api',
  'prices',
  'settings',
  'rpc',
  'state',
  'wallet',
  'storage',
  'tokens',
  'swap',
  'safety',
  'explorer',
  'dapp',
  'messaging',
  'background',
] as const;

/** The product's source. Tests are not held to these sizes: a describe block is a list of cases. */
const PRODUCT_FOLDERS = ['lib', 'entrypoints', 'components', 'service', 'devnet', 'scripts'];

function layerOf(path: string): string | undefined {
  if (!path.startsWith('lib/')) return undefined;
  const rest = path.slice('lib/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : 'base';
}

const productFiles = PRODUCT_FOLDERS.flatMap((folder) => sourceFiles(folder));
const libFiles = sourceFiles('lib');

describe('lib/ layer order', () => {
  it('names every folder of lib/ in the layer order', () => {
    const folders = new Set(libFiles.map((file) => layerOf(file)));
    expect([...folders].filter((folder) => !LIB_LAYERS.includes(folder as never))).toEqual([]);
  });

  it('has no import from a lower layer to a higher one, and none into entrypoints/ or components/', () => {
    const upward: string[] = [];
    for (const file of libFiles) {
      const from = LIB_LAYERS.indexOf(layerOf(file) as (typeof LIB_LAYERS)[number]);
      for (const target of localImports(file)) {
        if (!target.startsWith('lib/')) {
          upward.push(`${file} -> ${target}`);
          continue;
        }
        const to = LIB_LAYERS.indexOf(layerOf(target) as (typeof LIB_LAYERS)[number]);
        if (to > from) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('detects an upward import (the check can fail)', () => {
    expect(localImports('lib/storage/items.ts')).toContain('lib/state/pipeline-state');
    expect(LIB_LAYERS.indexOf('storage')).toBeGreaterThan(LIB_LAYERS.indexOf('state'));
    expect(LIB_LAYERS.indexOf('storage')).toBeLessThan(LIB_LAYERS.indexOf('swap'));
  });

  it('keeps the views’ side of messaging free of request schemas (they are background-only)', () => {
    for (const file of ['lib/messaging/client.ts', 'lib/messaging/protocol.ts']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/import \{[^}]*\bRequestSchema\b[^}]*\} from '\.\/requests'/);
      expect(text, file).toMatch(/import type \{[^}]*\} from '\.\/requests'/);
    }
  });
});

describe('size', () => {
  it('no source file over 400 lines', () => {
    const long = productFiles.filter((file) => lineCount(file) > 400);
    expect(long).toEqual([]);
  });

  it('no function over 120 lines', () => {
    const long = productFiles.flatMap((file) =>
      functionSpans(file)
        .filter((span) => span.lines > 120)
        .map((span) => `${file} › ${span.name} (line ${span.line}, ${span.lines} lines)`),
    );
    expect(long).toEqual([]);
  });

  it('measures functions (the check can fail)', () => {
    // The product has none left, so a long one of the test support (not held to the limit) stands in.
    const spans = functionSpans('tests/support/fault-proxy.ts');
    expect(spans.find((span) => span.name === 'startFaultProxy')?.lines).toBeGreaterThan(120);
  });
});

describe('documents', () => {
  // Split so this file does not match itself.
  const OUTSIDE = [['DESIGN', '.md'].join(''), ['..', '/shared'].join(''), ['shared', '/spec'].join('')];

  it('no file of the repository refers to a document outside it', () => {
    const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => /\.(ts|tsx|md|json|html|css|sol)$/.test(file));
    const hits = tracked.flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(join(ROOT, file), 'utf8');
      } catch {
        return []; // listed but deleted in the work tree
      }
      return OUTSIDE.filter((needle) => text.includes(needle)).map((needle) => `${file}: ${needle}`);
    });
    expect(hits).toEqual([]);
  });

  it('docs/ has the architecture, the API and the performance budgets, and the README links them', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const doc of ['docs/ARCHITECTURE.md', 'docs/API.md', 'docs/PERFORMANCE.md']) {
      expect(readFileSync(join(ROOT, doc), 'utf8').length, doc).toBeGreaterThan(1000);
      expect(readme, doc).toContain(`(${doc})`);
    }
  });
});
