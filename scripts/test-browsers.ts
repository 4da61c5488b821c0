// The browser half of `npm test`: the Chromium e2e suite (Playwright) and the Firefox smoke run at the
// same time. Much of both is waiting (quote expiry, bounded timeouts, Firefox unloading its event page
// before the auto-lock), so together they take little more than the longer one. Both builds are made
// first, one after the other (two WXT builds at once would share .wxt/). Chromium's output streams as it
// comes; Firefox's is printed when it ends. Fails when either fails.
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

runOrExit('npx', ['wxt', 'build']);
runOrExit('npx', ['wxt', 'build', '-b', 'firefox']);
const [chromium, firefox] = await Promise.all([
  run('npx', ['playwright', 'test'], false),
  run('npx', ['tsx', 'tests/firefox/smoke.ts'], true),
]);
console.log(`\n--- Firefox smoke (ran alongside the Chromium e2e) ---\n${firefox.output}`);
if (chromium.code !== 0) console.error(`Chromium e2e failed (exit ${chromium.code})`);
if (firefox.code !== 0) console.error(`Firefox smoke failed (exit ${firefox.code})`);
process.exit(chromium.code !== 0 ? chromium.code : firefox.code);
