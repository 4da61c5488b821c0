// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findUnsafeSinks, hardenModule } from '../../scripts/vite-harden.ts';

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) =>
  join(dirname(require.resolve(`${name}/package.json`)), file);
const read = (path: string) => readFileSync(path, 'utf8');

describe('findUnsafeSinks', () => {
  it.each([
    ['Function(``)', 'Function constructor'],
    ['x=new Function("a","return a")', 'Function constructor'],
    ['compile(){let e=Function,t=this?.content', 'Function constructor'],
    ['n?null:Function)', 'Function constructor'],
    ['Function.apply(null,["return 1"])', 'Function constructor'],
    ['(0,eval)("1")', 'eval'],
    ['eval ("1")', 'eval'],
    ['let e=eval;', 'eval'],
    ['e.innerHTML=d.__html', 'innerHTML assignment'],
    ['e.innerHTML+=x', 'innerHTML assignment'],
    ['e.outerHTML=x', 'outerHTML assignment'],
    ['e.insertAdjacentHTML("beforeend",x)', 'HTML insertion'],
    ['document.write(x)', 'HTML insertion'],
  ])('flags %s', (code, kind) => {
    expect(findUnsafeSinks(code).map((sink) => sink.kind)).toEqual([kind]);
  });

  it.each([
    'c=Function.call.bind(Object.prototype.hasOwnProperty)',
    'Function.prototype.toString.call(f)',
    'typeof e==`function`',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: minified code, as text
    'super([`Function "${e}" does not contain any outputs on ABI.`])',
    'x.Function(1)',
    'isFunction(x);evaluate(y);x.eval(1)',
    'd.__html==e.innerHTML',
    'devtools:{inspectedWindow:{eval:{minArgs:1,maxArgs:2}}}',
    '{Function:1}',
    'e.textContent=x',
  ])('leaves %s alone', (code) => {
    expect(findUnsafeSinks(code)).toEqual([]);
  });
});

describe('hardenModule', () => {
  it('replaces every Function alias in zod with a constructor that throws EvalError', () => {
    for (const file of ['v4/core/util.js', 'v4/core/doc.js', 'v4/core/compile.js']) {
      const path = packageFile('zod', file);
      const source = read(path);
      expect(source).toContain('const F = Function;');
      const hardened = hardenModule(path, source);
      expect(hardened).not.toBeNull();
      expect(hardened).not.toContain('const F = Function;');
      expect(hardened).toContain("throw new EvalError('code generation is disabled in Swaplane builds')");
    }
  });

  it('fails loudly when zod or Preact no longer look as expected', () => {
    expect(() => hardenModule('/x/node_modules/zod/v4/core/doc.js', 'export class Doc {}')).toThrow(
      /scripts\/vite-harden\.ts/,
    );
    expect(() => hardenModule('/x/node_modules/preact/dist/preact.mjs', 'export const h = 1;')).toThrow(
      /scripts\/vite-harden\.ts/,
    );
  });

  it('leaves other modules untouched', () => {
    expect(hardenModule('/x/node_modules/viem/index.js', 'const F = Function;')).toBeNull();
    expect(hardenModule('/repo/lib/amounts/format.ts', 'e.innerHTML=x')).toBeNull();
  });

  it('takes Preact’s only HTML sink out, and the patched Preact still renders', async () => {
    const path = packageFile('preact', 'dist/preact.mjs');
    const source = read(path);
    expect(findUnsafeSinks(source).map((sink) => sink.kind)).toEqual(['innerHTML assignment']);
    const hardened = hardenModule(path, source) ?? '';
    expect(findUnsafeSinks(hardened)).toEqual([]);

    // preact.mjs has no imports, so the patched text loads as a module of its own.
    const preact = (await import(
      /* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(hardened).toString('base64')}`
    )) as typeof import('preact');
    const root = document.createElement('div');
    preact.render(preact.h('p', { title: '<b>' }, '<img src=x onerror=alert(1)>'), root);
    expect(root.querySelector('p')?.getAttribute('title')).toBe('<b>');
    expect(root.querySelector('p')?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(root.querySelector('b, img')).toBeNull();
    expect(() =>
      preact.render(preact.h('div', { dangerouslySetInnerHTML: { __html: '<img src=x>' } }), root),
    ).toThrow('dangerouslySetInnerHTML is disabled in Swaplane');
    expect(root.querySelector('img')).toBeNull();
  });
});
