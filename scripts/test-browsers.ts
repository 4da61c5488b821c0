// The browser half of `npm test`: the Chromium e2e suite (Playwright) and the Firefox build and smoke run
// at the same time. Much of both is waiting (quote expiry, bounded timeouts, Firefox unloading its event
// page before the auto-lock), so together they take little more than the longer one. The Chromium build
// comes first, alone (two WXT builds at once would share .wxt/); the Firefox build then runs beside the
// Chromium e2e, which only reads .output/chrome-mv3. Chromium's output streams as it comes; Firefox's
// (build and smoke) is printed when it ends. Fails when either fails.
import { spawn, spawnSync } from 'node:child_process';

function runOrExit(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function run(command: string, args: string[], buffered: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The Firefox build, then (if it built) the smoke on it, output buffered. */
async function buildAndSmokeFirefox(): Promise<{ code: number; output: string }> {
  const build = await run('npx', ['wxt', 'build', '-b', 'firefox'], true);
  if (build.code !== 0) return build;
  const smoke = await run('npx', ['tsx', 'tests/firefox/smoke.ts'], true);
  return { code: smoke.code, output: `${build.output}\n${smoke.output}` };
}

runOrExit('npx', ['wxt', 'build']);
const [chromium, firefox] = await Promise.all([
  run('npx', ['playwright', 'test'], false),
  buildAndSmokeFirefox(),
]);
console.log(`\n--- Firefox build and smoke (ran alongside the Chromium e2e) ---\n${firefox.output}`);
if (chromium.code !== 0) console.error(`Chromium e2e failed (exit ${chromium.code})`);
if (firefox.code !== 0) console.error(`Firefox smoke failed (exit ${firefox.code})`);
process.exit(chromium.code !== 0 ? chromium.code : firefox.code);
