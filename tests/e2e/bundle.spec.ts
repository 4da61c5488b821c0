// The Chrome build `npm run test:e2e` just made carries no code generation (zod's JIT and its
// `new Function` probe are compiled out) and no HTML sink (Preact's dangerouslySetInnerHTML
// path is compiled out): see scripts/vite-harden.ts. The smoke test proves the same bundles run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { findUnsafeSinks } from '../../scripts/vite-harden.ts';

const OUTPUT = '.output/chrome-mv3';

test('the built Chrome extension contains no code-generation or HTML sinks', () => {
  const scripts = readdirSync(OUTPUT, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.js'),
  );
  expect(scripts).toEqual(expect.arrayContaining(['background.js', join('content-scripts', 'explorer.js')]));
  const sinks = scripts.flatMap((file) =>
    findUnsafeSinks(readFileSync(join(OUTPUT, file), 'utf8')).map(
      (sink) => `${file}: ${sink.kind}: ${sink.excerpt}`,
    ),
  );
  expect(sinks).toEqual([]);
  // The rewrites are in place (not just absent code): zod's probe now meets a throwing constructor.
  const background = readFileSync(join(OUTPUT, 'background.js'), 'utf8');
  expect(background).toContain('code generation is disabled in Swaplane builds');
});
