// `npm run lint:firefox`: builds the Firefox target (MV3, `.output/firefox-mv3`) and runs Mozilla's
// linter (web-ext lint, JSON output) over it. Fails on any error, on any warning that is not in
// ALLOWED below (each entry must say why), on a manifest Firefox cannot run (a service worker
// background) and on a code-generation or HTML sink in the built scripts. `--no-build` lints the
// existing output.
//
// Why MV3 for Firefox (WXT's default there is MV2; wxt.config.ts sets `manifestVersion: 3`): WXT's MV2 manifest drops
// `optional_host_permissions`, which the options page asks for when the user points Swaplane at
// another service or RPC origin; MV2 has no `action` (the background opens the popup with
// `browser.action.openPopup`); and the background is written for a worker that may stop and restart
// (state in storage.session, listeners registered synchronously), which is what Firefox's
// non-persistent MV3 background scripts are. MV3 also gives both browsers the same eval-free CSP.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { findUnsafeSinks } from './vite-harden.ts';

const FIREFOX_OUTPUT = '.output/firefox-mv3';

/** Linter warnings we accept, by code and file: none today. An entry needs a reason a reviewer can check. */
const ALLOWED: { code: string; file: RegExp; reason: string }[] = [];

const Message = z.object({
  _type: z.string().optional(),
  code: z.string(),
  message: z.string(),
  description: z.union([z.string(), z.array(z.string())]).optional(),
  file: z.string().optional(),
  line: z.number().optional(),
  column: z.number().optional(),
});
type Message = z.infer<typeof Message>;

const LintReport = z.object({
  count: z.number(),
  summary: z.object({ errors: z.number(), notices: z.number(), warnings: z.number() }),
  errors: z.array(Message),
  warnings: z.array(Message),
  notices: z.array(Message),
});

function lint(sourceDir: string) {
  // Exit status is non-zero when there are errors; the JSON report is on stdout either way.
  const run = spawnSync(
    'node_modules/.bin/web-ext',
    ['lint', '--source-dir', sourceDir, '--output', 'json', '--boring', '--no-config-discovery'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.error) throw run.error;
  const start = run.stdout.indexOf('{');
  if (start < 0) throw new Error(`web-ext lint printed no JSON report:\n${run.stdout}\n${run.stderr}`);
  return LintReport.parse(JSON.parse(run.stdout.slice(start)));
}

function scriptsIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => join(dir, file));
}

function manifestProblems(dir: string): string[] {
  const manifest = z
    .object({
      manifest_version: z.number(),
      background: z.object({
        scripts: z.array(z.string()).optional(),
        service_worker: z.string().optional(),
      }),
    })
    .parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
  const problems: string[] = [];
  if (manifest.manifest_version !== 3)
    problems.push(`manifest_version is ${manifest.manifest_version}, not 3`);
  if (manifest.background.service_worker !== undefined)
    problems.push('background.service_worker: Firefox runs background scripts, not service workers');
  if (!manifest.background.scripts?.length) problems.push('no background.scripts');
  return problems;
}

const show = (message: Message) =>
  `${message.code} ${message.file ?? ''}${message.line ? `:${message.line}` : ''}${message.column ? `:${message.column}` : ''} ${message.message}`;

function main(): void {
  if (!process.argv.includes('--no-build')) {
    execFileSync('node_modules/.bin/wxt', ['build', '-b', 'firefox'], { stdio: 'ignore' });
  }
  const report = lint(FIREFOX_OUTPUT);
  const allowed = (message: Message) =>
    ALLOWED.find((entry) => entry.code === message.code && entry.file.test(message.file ?? ''));
  const failures = [
    ...report.errors.map((message) => `error   ${show(message)}`),
    ...report.warnings.filter((message) => !allowed(message)).map((message) => `warning ${show(message)}`),
    ...manifestProblems(FIREFOX_OUTPUT).map((problem) => `manifest ${problem}`),
    ...scriptsIn(FIREFOX_OUTPUT).flatMap((file) =>
      findUnsafeSinks(readFileSync(file, 'utf8')).map(
        (sink) => `sink    ${relative(FIREFOX_OUTPUT, file)} ${sink.kind}: …${sink.excerpt}…`,
      ),
    ),
  ];
  for (const message of report.warnings.filter(allowed))
    console.log(`allowed ${show(message)} (${allowed(message)?.reason})`);
  for (const message of report.notices) console.log(`notice  ${show(message)}`);
  for (const failure of failures) console.log(failure);
  const { errors, warnings, notices } = report.summary;
  console.log(
    `web-ext lint ${FIREFOX_OUTPUT}: ${errors} error(s), ${warnings} warning(s), ${notices} notice(s); ` +
      `${failures.length === 0 ? 'clean' : `${failures.length} failure(s)`}`,
  );
  if (failures.length > 0) process.exit(1);
}

main();
