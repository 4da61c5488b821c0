// The Chrome build `npm run test:e2e` just made carries no code generation (zod/mini has no JIT;
// classic zod's would be compiled out) and no HTML sink (Preact's dangerouslySetInnerHTML path is
// compiled out): see scripts/vite-harden.ts. The smoke test proves the same bundles run.
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
  // zod/mini everywhere: no classic schema (whose object parser is the one with a JIT and a
  // `new Function` probe, defused by vite-harden if it ever comes back) is bundled, so the popup
  // and the worker pay neither its size nor its start-up cost (docs/PERFORMANCE.md).
  for (const file of ['background.js', ...scripts.filter((script) => script.startsWith('chunks'))]) {
    const code = readFileSync(join(OUTPUT, file), 'utf8');
    expect(code, file).not.toMatch(/[`"']ZodObject(JIT)?[`"']/);
    expect(code, file).not.toContain('code generation is disabled in Swaplane builds');
  }
  const shared = scripts.filter((script) => /ZodMiniObject/.test(readFileSync(join(OUTPUT, script), 'utf8')));
  expect(shared.length, 'zod/mini is in the build').toBeGreaterThan(0);
});
