// The build-time ABIs (scripts/vite-abi-literals.ts): the JSON a build emits is what parseAbi gives
// at run time, and every parseAbi in lib/ is one the build can rewrite, so abitype's signature parser
// never ships in the background bundle.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAbi, parseAbiItem } from 'viem';
import { describe, expect, it } from 'vitest';
import { inlineAbis } from '../../scripts/vite-abi-literals';

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('inlineAbis', () => {
  it('emits the JSON parseAbi and parseAbiItem give, for literals and same-file constants', () => {
    const source = [
      "const EVENTS = ['event Transfer(address indexed from, address indexed to, uint256 value)'] as const;",
      "const A = parseAbi(['function approve(address spender, uint256 amount) returns (bool)',",
      "  'struct Hop { address pool; }', 'function swap(Hop[] hops)',]);",
      'const B = parseAbi(EVENTS);',
      "const C = parseAbiItem('event Approval(address indexed owner, address indexed spender, uint256 value)');",
    ].join('\n');
    const { code, unresolved } = inlineAbis(source);
    expect(unresolved).toBe(0);
    const emitted = [...code.matchAll(/const [ABC] = (.*);$/gm)].map((match) =>
      JSON.parse(match[1] as string),
    );
    expect(emitted).toEqual([
      parseAbi([
        'function approve(address spender, uint256 amount) returns (bool)',
        'struct Hop { address pool; }',
        'function swap(Hop[] hops)',
      ]),
      parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']),
      parseAbiItem('event Approval(address indexed owner, address indexed spender, uint256 value)'),
    ]);
  });

  it('leaves a call it cannot evaluate, and counts it', () => {
    expect(inlineAbis('const X = parseAbi(signatures);')).toEqual({
      code: 'const X = parseAbi(signatures);',
      unresolved: 1,
    });
  });

  it('fails on a signature that does not parse, as parseAbi would', () => {
    expect(() => inlineAbis("parseAbi(['function (broken'])")).toThrow();
  });

  it('rewrites every parseAbi call in lib/', () => {
    const files = sourcesUnder('lib').filter((file) => readFileSync(file, 'utf8').includes('parseAbi'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect({ file, unresolved: inlineAbis(readFileSync(file, 'utf8')).unresolved }).toEqual({
        file,
        unresolved: 0,
      });
    }
  });
});
