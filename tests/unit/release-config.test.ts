// The release build (npm run zip) against the demo build: no localhost default, no localhost host
// permission, https only; the checks of scripts/release-config.ts, and the real build in the end.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig, DEMO_HOST_PERMISSIONS, releaseProblems } from '../../scripts/release-config';
import { checkReleaseDir } from '../../scripts/zip';

describe('build configuration', () => {
  it('keeps the embedded default and this machine in a demo build', () => {
    const demo = buildConfig({});
    expect(demo.defaults).toMatchObject({ release: false, serviceBaseUrl: 'http://127.0.0.1:8787' });
    expect(demo.hostPermissions).toEqual(DEMO_HOST_PERMISSIONS);
  });

  it('carries only the https service and RPCs given at build time in a release build', () => {
    const release = buildConfig({
      SWAPLANE_RELEASE: '1',
      SWAPLANE_SERVICE_URL: 'https://swap.example.org/v1',
      SWAPLANE_RPC_URLS: '{"1":"https://rpc.example.org","8453":"https://base.example.org/key"}',
    });
    expect(release.defaults).toEqual({
      release: true,
      serviceBaseUrl: 'https://swap.example.org/v1',
      rpcOverrides: { '1': 'https://rpc.example.org', '8453': 'https://base.example.org/key' },
    });
    expect(release.hostPermissions).toEqual([
      'https://swap.example.org/*',
      'https://rpc.example.org/*',
      'https://base.example.org/*',
    ]);
  });

  it.each([
    [{}, /needs its swap service/],
    [{ SWAPLANE_SERVICE_URL: 'http://swap.example.org' }, /must be an https:\/\/ URL/],
    [{ SWAPLANE_SERVICE_URL: 'https://localhost:8787' }, /must not point at this machine/],
    [
      {
        SWAPLANE_SERVICE_URL: 'https://swap.example.org',
        SWAPLANE_RPC_URLS: '{"1":"http://rpc.example.org"}',
      },
      /https/,
    ],
    [{ SWAPLANE_SERVICE_URL: 'https://swap.example.org', SWAPLANE_RPC_URLS: 'nope' }, /must be JSON/],
    [
      { SWAPLANE_SERVICE_URL: 'https://swap.example.org', SWAPLANE_RPC_URLS: '{"eth":"https://a.b"}' },
      /chain id/,
    ],
  ])('refuses a release build with %o', (env, message) => {
    expect(() => buildConfig({ SWAPLANE_RELEASE: '1', ...env })).toThrow(message);
  });

  it('finds localhost host permissions and the embedded default in built files', () => {
    expect(
      releaseProblems(
        { host_permissions: ['http://127.0.0.1/*', 'https://swap.example.org/*'] },
        {
          'background.js': 'const d = "http://127.0.0.1:8545";',
        },
      ),
    ).toEqual(['host permission http://127.0.0.1/*', 'background.js contains http://127.0.0.1:8545']);
  });

  it('builds release packages for Chromium and Firefox with none of the demo defaults (npm run zip)', () => {
    execFileSync('npx', ['tsx', 'scripts/zip.ts'], {
      env: {
        ...process.env,
        SWAPLANE_SERVICE_URL: 'https://swap.example.org',
        SWAPLANE_RPC_URLS: '{"1":"https://rpc.example.org"}',
      },
      stdio: 'pipe',
    });
    for (const browser of ['chrome', 'firefox']) {
      const dir = join('.output/release', `${browser}-mv3`);
      expect(checkReleaseDir(dir)).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
        host_permissions: string[];
      };
      expect(manifest.host_permissions).toEqual(['https://swap.example.org/*', 'https://rpc.example.org/*']);
      expect(readFileSync(join(dir, 'background.js'), 'utf8')).toContain('https://swap.example.org');
    }
  }, 120_000);
});
