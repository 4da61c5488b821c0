// npm run zip: the release packages for Chromium and Firefox. Built with SWAPLANE_RELEASE=1 into
// .output/release (the demo build in .output/chrome-mv3 stays), then checked: no localhost host
// permission and none of the embedded default's URLs in any file of either build.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildConfig, ReleaseConfigError, releaseProblems } from './release-config';

const OUT_DIR = '.output/release';

/** Every problem of one built extension directory (see releaseProblems). */
export function checkReleaseDir(dir: string): string[] {
  const bundles: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(js|html|json|css)$/.test(name))
        bundles[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  const manifest = JSON.parse(bundles['manifest.json'] ?? '{}') as { host_permissions?: string[] };
  return releaseProblems(manifest, bundles);
}

function main(): void {
  const env = { ...process.env, SWAPLANE_RELEASE: '1', SWAPLANE_OUT_DIR: OUT_DIR };
  try {
    buildConfig(env); // a missing or plain-http service stops here, before any build
  } catch (error) {
    if (error instanceof ReleaseConfigError) {
      console.error(`zip: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const problems: string[] = [];
  for (const browser of ['chrome', 'firefox']) {
    execFileSync('npx', ['wxt', 'zip', '-b', browser], { env, stdio: 'inherit' });
    for (const problem of checkReleaseDir(join(OUT_DIR, `${browser}-mv3`)))
      problems.push(`${browser}: ${problem}`);
  }
  if (problems.length > 0) {
    console.error(`zip: the release builds are not clean:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`zip: release packages in ${OUT_DIR} (no localhost default, no localhost host permission)`);
}

if (process.argv[1]?.endsWith('zip.ts')) main();
