// The second half of `npm test` (after Biome, tsc and the Firefox lint): vitest (unit, then
// integration on a real anvil), the Chromium e2e suite (Playwright) and the Firefox smoke, all three at
// the same time. Much of the e2e and the smoke is waiting (quote expiry, bounded timeouts, Firefox
// unloading its event page before the auto-lock) with a core left idle, so together they take little
// more than the e2e alone. Both builds are made first, one after the other (two WXT builds at once
// would share .wxt/), and vitest starts only after them: one of its tests builds the release packages
// (scripts/zip.ts) with WXT too. Chromium's output streams as it comes; vitest's and Firefox's are
// printed when each ends. Fails when any fails. `--browsers-only` leaves vitest out (npm run test:browsers).
import { spawn, spawnSync } from 'node:child_process';

type Outcome = { name: string; code: number; output: string; seconds: number };

function runOrExit(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function run(name: string, command: string, args: string[], buffered: boolean): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('close', (code) =>
      resolve({ name, code: code ?? 1, output, seconds: Math.round((Date.now() - started) / 1000) }),
    );
  });
}

const withVitest = !process.argv.includes('--browsers-only');
runOrExit('npx', ['wxt', 'build']);
runOrExit('npx', ['wxt', 'build', '-b', 'firefox']);
const outcomes = await Promise.all([
  run('Chromium e2e', 'npx', ['playwright', 'test'], false),
  run('Firefox smoke', 'npx', ['tsx', 'tests/firefox/smoke.ts'], true),
  ...(withVitest ? [run('vitest', 'npx', ['vitest', 'run'], true)] : []),
]);
for (const outcome of outcomes.filter((each) => each.output)) {
  console.log(`\n--- ${outcome.name} (ran alongside the Chromium e2e) ---\n${outcome.output}`);
}
for (const outcome of outcomes) {
  const verdict = outcome.code === 0 ? 'passed' : `FAILED (exit ${outcome.code})`;
  console.log(`${outcome.name}: ${verdict} in ${outcome.seconds} s`);
}
process.exit(outcomes.find((outcome) => outcome.code !== 0)?.code ?? 0);
