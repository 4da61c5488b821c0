// The house rules, read from the source tree itself: lib/'s layer order (docs/ARCHITECTURE.md), no
// import cycle, a service that never imports the devnet, no source file over 400 lines, no function
// over 120 lines, no reference to a document outside the repository. No allowlist for sizes: a file
// or function over the limit is split before it lands.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  functionSpans,
  importCycles,
  lineCount,
  localImports,
  ROOT,
  resolveModule,
  sourceFiles,
} from '../support/source-tree';

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

function sourceFileExists(module: string): boolean {
  return ['.ts', '.tsx'].some((ext) => existsSync(join(ROOT, `${module}${ext}`)));
}

// The checks parse the whole tree: seconds on a loaded machine (three went past vitest's 5 s in a
// clean-clone CI at load 18). A bound against a hang, not a speed check.
vi.setConfig({ testTimeout: 60_000 });

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

describe('imports', () => {
  /**
   * Cycles being removed on another branch, each named: the entry goes when that branch lands.
   * lib/background/swaps*.ts: the swaps handler split (issue 25, branch issue-25f).
   */

  it('resolves a folder import to the folder’s index file (so its layer is checked)', () => {
    expect(resolveModule('lib/chains')).toBe('lib/chains/index');
    expect(resolveModule('lib/chains/index.ts')).toBe('lib/chains/index');
    expect(resolveModule('lib/async')).toBe('lib/async');
    expect(layerOf(resolveModule('lib/chains'))).toBe('chains');
    const unresolved = productFiles.flatMap((file) =>
      localImports(file)
        .filter((target) => !/\.(json|css|svg|png|html)(\?\w+)?$/.test(target))
        .filter((target) => !sourceFileExists(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('has no import cycle among the product’s modules', () => {
    const cycles = importCycles(productFiles).map((cycle) => cycle.join(' '));
    expect(cycles).toEqual([]);
  });

  it('finds a cycle, through a folder index and a type-only import (the check can fail)', () => {
    const sample = ['tests/fixtures/import-cycle/front.ts', 'tests/fixtures/import-cycle/back/index.ts'];
    expect(importCycles(sample)).toEqual([
      ['tests/fixtures/import-cycle/back/index', 'tests/fixtures/import-cycle/front'],
    ]);
    // The devnet's fixtures and long-tail generator once formed one; their shared types now stand apart.
    expect(importCycles(['devnet/fixtures.ts', 'devnet/fixture-types.ts', 'devnet/longtail.ts'])).toEqual([]);
  });

  it('keeps the service free of the devnet (the devnet imports pool math and contracts from service/)', () => {
    const intoDevnet = sourceFiles('service').flatMap((file) =>
      localImports(file)
        .filter((target) => target.startsWith('devnet/'))
        .map((target) => `${file} -> ${target}`),
    );
    expect(intoDevnet).toEqual([]);
    expect(localImports('service/routing/v3.ts')).toContain('service/pool-math/v3');
    expect(localImports('devnet/v3-pools.ts')).toContain('service/pool-math/v3');
  });
});

describe('layout', () => {
  // The user's chosen layout: WXT's folders, tests/, and the service, devnet and scripts beside them.
  // Solidity sources and pool maths are the service's (service/contracts, service/pool-math).
  const TOP_LEVEL_FOLDERS = [
    '.ci',
    'assets',
    'components',
    'devnet',
    'docs',
    'entrypoints',
    'lib',
    'public',
    'scripts',
    'service',
    'tests',
  ];

  it('has no top-level folder outside the chosen layout', () => {
    const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).split('\n');
    const folders = new Set(tracked.filter((file) => file.includes('/')).map((file) => file.split('/')[0]));
    expect([...folders].sort()).toEqual(TOP_LEVEL_FOLDERS.filter((folder) => folders.has(folder)));
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
