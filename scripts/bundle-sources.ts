// What a built script holds: `npx tsx scripts/bundle-sources.ts [background|popup-preload|content-scripts/explorer] [--top 40]`.
// Builds the extension once with sourcemaps (SWAPLANE_SOURCEMAP=1, into a throwaway directory, so
// .output is untouched), gives each byte of the minified file to the source module the map names,
// and lists modules and packages by minified bytes with, for each, how much smaller the file's gzip
// gets without that module's bytes (gzip shares context, so that is the number that adds up, roughly).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';

const args = process.argv.slice(2);
const entry = args.find((arg) => !arg.startsWith('--') && !/^\d+$/.test(arg)) ?? 'background';
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 40;

const outDir = mkdtempSync(join(tmpdir(), 'swaplane-sources-'));
try {
  execFileSync('npx', ['wxt', 'build'], {
    stdio: 'ignore',
    env: { ...process.env, SWAPLANE_SOURCEMAP: '1', SWAPLANE_OUT_DIR: outDir },
  });
  const file = join(outDir, 'chrome-mv3', `${entry}.js`);
  const code = readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '');
  const map = new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8')));

  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const offsets: { at: number; source: string }[] = [];
  map.eachMapping((m) => {
    offsets.push({ at: (lineStarts[m.generatedLine - 1] ?? 0) + m.generatedColumn, source: m.source ?? '' });
  });
  offsets.sort((a, b) => a.at - b.at);

  // Each source's byte ranges in the minified file; unmapped bytes are the bundler's own glue.
  const ranges = new Map<string, [number, number][]>();
  offsets.forEach(({ at, source }, i) => {
    const name = nameOf(source);
    const list = ranges.get(name) ?? [];
    list.push([at, offsets[i + 1]?.at ?? code.length]);
    ranges.set(name, list);
  });

  const gzip = (text: string) => gzipSync(text, { level: 9 }).length;
  const whole = gzip(code);
  const without = (spans: [number, number][]) => {
    const sorted = [...spans].sort((a, b) => a[0] - b[0]);
    let kept = '';
    let from = 0;
    for (const [start, end] of sorted) {
      kept += code.slice(from, start);
      from = end;
    }
    return whole - gzip(kept + code.slice(from));
  };
  const rows = (groups: Map<string, [number, number][]>) =>
    [...groups]
      .map(([name, spans]) => ({ name, bytes: spans.reduce((sum, [a, b]) => sum + b - a, 0), spans }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, top)
      .map(({ name, bytes, spans }) => ({
        name,
        'minified bytes': bytes,
        'gzip saved without it': without(spans),
      }));

  const packages = new Map<string, [number, number][]>();
  for (const [name, spans] of ranges) {
    const key = name.startsWith('node_modules/') ? packageOf(name) : name.split('/').slice(0, 2).join('/');
    packages.set(key, [...(packages.get(key) ?? []), ...spans]);
  }
  console.log(`${entry}.js: ${code.length} bytes, ${whole} gzip (level 9)`);
  console.log('\nBy package (node_modules) or folder:');
  console.table(rows(packages));
  console.log('\nBy module:');
  console.table(rows(ranges));
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

function nameOf(source: string): string {
  if (source === '') return '(bundler runtime)';
  const path = relative(process.cwd(), join(outDir, 'chrome-mv3', source));
  const inModules = path.lastIndexOf('node_modules/');
  return inModules >= 0 ? path.slice(inModules) : path;
}

function packageOf(path: string): string {
  const parts = path.split('/');
  return parts.slice(0, parts[1]?.startsWith('@') ? 3 : 2).join('/');
}
