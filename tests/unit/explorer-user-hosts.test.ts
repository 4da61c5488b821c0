import { describe, expect, it } from 'vitest';
import { createExplorerHosts, type PermissionsApi, type ScriptingApi } from '@/lib/background/explorer-hosts';
import {
  EXPLORER_SCRIPT_FILE,
  planRegistrations,
  type RegisteredScript,
  registrationFor,
} from '@/lib/background/explorer-scripts';
import {
  checkExplorerHost,
  editDistance,
  explorerChainForUrl,
  validUserHosts,
} from '@/lib/explorer/user-hosts';
import { DEFAULT_SETTINGS, type Settings, SettingsSchema } from '@/lib/settings/settings';

describe('checkExplorerHost', () => {
  it.each([
    ['explorer.example.org', 'explorer.example.org'],
    ['  Explorer.Example.ORG. ', 'explorer.example.org'],
    ['explorer.zora.energy', 'explorer.zora.energy'],
    ['explorer.mantle.xyz', 'explorer.mantle.xyz'],
    ['explorer.ink.example', 'explorer.ink.example'],
    // Pasted from the address bar: cut down to the host.
    ['https://explorer.example.org/', 'explorer.example.org'],
    ['https://Explorer.Example.org/token/0xabc?a=1#top', 'explorer.example.org'],
    ['explorer.example.org/path', 'explorer.example.org'],
  ])('accepts %j as %j', (input, host) => {
    expect(checkExplorerHost(input)).toEqual({ ok: true, host });
  });

  it.each([
    ['', /host name like/],
    ['http://explorer.example.org/', /Only https/],
    ['ftp://explorer.example.org/', /Only https/],
    ['https://explorer.example.org:8443/', /host name like/],
    ['https://user@explorer.example.org/', /host name like/],
    ['https://etherscan.io/', /built in/],
    ['explorer.example.org:8443', /host name like/],
    ['localhost', /host name like/],
    ['127.0.0.1', /host name like/],
    ['exa mple.org', /host name like/],
    ['ex_ample.org', /host name like/],
    ['еtherscan.io', /host name like/], // Cyrillic е
    ['xn--therscan-2fg.io', /xn--/],
    ['etherscan.io', /built in/],
    ['WWW.Etherscan.IO', /built in/],
    ['base.blockscout.com', /built in/],
    ['gnosis.blockscout.com', /built in/],
    ['lineascan.build', /built in/],
    ['blastscan.io', /built in/],
    ['sepolia.etherscan.io', /contains the built-in etherscan\.io/],
    ['www.eth.blockscout.com', /contains the built-in eth\.blockscout\.com/],
    ['etherscan.io.evil.com', /contains the built-in etherscan\.io/],
    ['basescan.org.example.net', /contains the built-in basescan\.org/],
    ['etherscan.com', /etherscan\.io under another domain/],
    ['bscscan.io', /bscscan\.com under another domain/],
    ['etherscam.io', /looks like etherscan\.io/],
    ['ehterscan.io', /looks like etherscan\.io/],
    ['etherscan.co', /etherscan\.io under another domain/],
    ['polygonscam.co', /looks like polygonscan\.com/],
    ['etc.blockscout.com', /looks like eth\.blockscout\.com/],
  ])('refuses %j', (input, message) => {
    const check = checkExplorerHost(input);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
  });

  it('accepts only what the settings schema can store', () => {
    for (const host of ['explorer.example.org', 'a-b.c.example.co.uk']) {
      expect(checkExplorerHost(host).ok).toBe(true);
      expect(SettingsSchema.safeParse({ ...DEFAULT_SETTINGS, explorerHosts: { [host]: 1 } }).success).toBe(
        true,
      );
    }
  });

  it('editDistance counts edits and adjacent swaps, and stops past its limit', () => {
    expect(editDistance('etherscan.io', 'etherscan.io')).toBe(0);
    expect(editDistance('etherscam.io', 'etherscan.io')).toBe(1);
    expect(editDistance('ehterscan.io', 'etherscan.io')).toBe(1);
    expect(editDistance('etherscan.io', 'etherscan.io.x', 3)).toBe(2);
    expect(editDistance('a', 'abcdefgh', 3)).toBe(4);
  });
});

describe('explorerChainForUrl (the background answers the content script from the sender URL)', () => {
  const user = { 'explorer.example.org': 8453, 'etherscan.io.evil.com': 1, 'unknown-chain.example.org': 999 };
  it.each([
    ['https://explorer.example.org/token/0x1', 8453],
    ['https://EXPLORER.example.org./address/0x1', 8453],
    ['https://etherscan.io/token/0x1', 1],
    ['https://www.basescan.org/', 8453],
    // exact hosts only, https on the default port only, and only valid stored entries
    ['https://sub.explorer.example.org/', undefined],
    ['https://explorer.example.org.evil.com/', undefined],
    ['http://explorer.example.org/', undefined],
    ['https://explorer.example.org:8443/', undefined],
    ['https://etherscan.io.evil.com/', undefined],
    ['https://unknown-chain.example.org/', undefined],
    ['not a url', undefined],
    [undefined, undefined],
  ])('%s -> %s', (url, chainId) => {
    expect(explorerChainForUrl(url, user)).toBe(chainId);
  });

  it('validUserHosts drops invalid, look-alike, built-in and unknown-chain entries', () => {
    expect(
      validUserHosts({
        'explorer.example.org': 10,
        'etherscan.io': 8453,
        'etherscam.io': 1,
        'x.example.org': 5,
      }),
    ).toEqual({ 'explorer.example.org': 10 });
  });
});

describe('planRegistrations', () => {
  const a = registrationFor('a.example.org');
  const b = registrationFor('b.example.org');
  const registered = (script: RegisteredScript) => script;

  it('registers every wanted host with the manifest script file, in its frames too, persistent', () => {
    expect(a).toEqual({
      id: 'explorer-host:a.example.org',
      matches: ['https://a.example.org/*'],
      js: [EXPLORER_SCRIPT_FILE],
      runAt: 'document_idle',
      allFrames: true,
      persistAcrossSessions: true,
    });
    expect(planRegistrations(['a.example.org', 'b.example.org'], [])).toEqual({
      register: [a, b],
      update: [],
      unregister: [],
    });
  });

  it('leaves matching registrations alone and unregisters ours that are not wanted', () => {
    expect(planRegistrations(['a.example.org'], [registered(a), registered(b)])).toEqual({
      register: [],
      update: [],
      unregister: [b.id],
    });
    expect(planRegistrations([], [registered(a)])).toEqual({ register: [], update: [], unregister: [a.id] });
  });

  it('updates a registration that differs (another file, pattern, timing, frames or persistence)', () => {
    for (const stale of [
      { ...a, js: ['content-scripts/old.js'] },
      { ...a, matches: ['https://a.example.org/token/*'] },
      { ...a, runAt: 'document_start' },
      { ...a, persistAcrossSessions: false },
      // Registered by a version that ran in top frames only.
      { ...a, allFrames: undefined },
      { id: a.id },
    ]) {
      expect(planRegistrations(['a.example.org'], [stale])).toEqual({
        register: [],
        update: [a],
        unregister: [],
      });
    }
  });

  it('never touches scripts that are not ours', () => {
    const foreign = { id: 'something-else', matches: ['https://a.example.org/*'], js: ['x.js'] };
    expect(planRegistrations([], [foreign])).toEqual({ register: [], update: [], unregister: [] });
  });
});

/**
 * The background service against an in-memory scripting/permissions pair (the real APIs only exist in
 * the browser; tests/e2e/explorer-hosts.spec.ts runs them for real).
 */
function harness(granted: string[] = []) {
  const scripts = new Map<string, RegisteredScript>();
  const origins = new Set(granted);
  const calls: string[] = [];
  const scripting: ScriptingApi = {
    async getRegisteredContentScripts() {
      return [...scripts.values()].map((script) => structuredClone(script));
    },
    async registerContentScripts(list) {
      calls.push(`register ${list.map((script) => script.id).join(',')}`);
      for (const script of list) {
        if (scripts.has(script.id)) throw new Error(`Duplicate script ID '${script.id}'`);
        scripts.set(script.id, structuredClone(script));
      }
    },
    async updateContentScripts(list) {
      calls.push(`update ${list.map((script) => script.id).join(',')}`);
      for (const script of list) scripts.set(script.id, structuredClone(script));
    },
    async unregisterContentScripts({ ids }) {
      calls.push(`unregister ${ids.join(',')}`);
      for (const id of ids) scripts.delete(id);
    },
  };
  const permissions: PermissionsApi = {
    async contains({ origins: asked }) {
      return asked.every((origin) => origins.has(origin));
    },
    async remove({ origins: removed }) {
      for (const origin of removed) origins.delete(origin);
      return true;
    },
  };
  let settings: Settings = structuredClone(DEFAULT_SETTINGS);
  const hosts = createExplorerHosts({
    scripting: () => scripting,
    permissions: () => permissions,
    settings: () => settings,
    saveSettings: async (next) => {
      settings = SettingsSchema.parse(next);
      return settings;
    },
  });
  return { hosts, scripting, scripts, origins, calls, settings: () => settings };
}

describe('explorer host service', () => {
  it('adds a granted host: stored with its chain, script registered', async () => {
    const h = harness(['https://explorer.example.org/*']);
    const saved = await h.hosts.set(' Explorer.Example.org ', 8453);
    expect(saved.explorerHosts).toEqual({ 'explorer.example.org': 8453 });
    expect([...h.scripts.keys()]).toEqual(['explorer-host:explorer.example.org']);
  });

  it('refuses a host without its permission, a look-alike, and an unknown chain', async () => {
    const h = harness(['https://etherscam.io/*']);
    await expect(h.hosts.set('explorer.example.org', 1)).rejects.toMatchObject({ code: 'NO_PERMISSION' });
    await expect(h.hosts.set('etherscam.io', 1)).rejects.toMatchObject({ code: 'BAD_HOST' });
    h.origins.add('https://explorer.example.org/*');
    await expect(h.hosts.set('explorer.example.org', 999)).rejects.toMatchObject({ code: 'UNKNOWN_CHAIN' });
    expect(h.settings().explorerHosts).toEqual({});
    expect(h.scripts.size).toBe(0);
  });

  it('removing a host unregisters its script and gives the permission back', async () => {
    const h = harness(['https://a.example.org/*', 'https://b.example.org/*']);
    await h.hosts.set('a.example.org', 1);
    await h.hosts.set('b.example.org', 10);
    const saved = await h.hosts.set('a.example.org', null);
    expect(saved.explorerHosts).toEqual({ 'b.example.org': 10 });
    expect([...h.scripts.keys()]).toEqual(['explorer-host:b.example.org']);
    expect([...h.origins]).toEqual(['https://b.example.org/*']);
  });

  it('keeps the permission when the swap service lives on the removed host', async () => {
    const h = harness(['https://a.example.org/*']);
    await h.hosts.set('a.example.org', 1);
    h.settings().serviceBaseUrl = 'https://a.example.org/api';
    await h.hosts.set('a.example.org', null);
    expect(h.scripts.size).toBe(0);
    expect([...h.origins]).toEqual(['https://a.example.org/*']);
  });

  it('a browser that refuses the registration is reported, not logged, and the next sync recovers', async () => {
    const h = harness(['https://a.example.org/*']);
    const register = h.scripting.registerContentScripts;
    h.scripting.registerContentScripts = async () => {
      throw new Error('Invalid match pattern');
    };
    await expect(h.hosts.set('a.example.org', 1)).rejects.toMatchObject({
      code: 'EXPLORER_SYNC_FAILED',
      message: expect.stringContaining('Invalid match pattern'),
    });
    expect(h.hosts.lastSyncError()).toBe('Invalid match pattern');
    expect(h.settings().explorerHosts).toEqual({ 'a.example.org': 1 });
    h.scripting.registerContentScripts = register;
    await h.hosts.sync();
    expect(h.hosts.lastSyncError()).toBeNull();
    expect([...h.scripts.keys()]).toEqual(['explorer-host:a.example.org']);
  });

  it('sync follows revoked permissions and hand-edited settings, and is idempotent', async () => {
    const h = harness(['https://a.example.org/*', 'https://b.example.org/*']);
    await h.hosts.set('a.example.org', 1);
    await h.hosts.set('b.example.org', 1);
    h.origins.delete('https://a.example.org/*'); // the user revoked it in the browser
    await h.hosts.sync();
    expect([...h.scripts.keys()]).toEqual(['explorer-host:b.example.org']);
    h.calls.length = 0;
    await Promise.all([h.hosts.sync(), h.hosts.sync()]);
    expect(h.calls).toEqual([]);
    h.origins.add('https://a.example.org/*'); // granted again
    await h.hosts.sync();
    expect([...h.scripts.keys()].sort()).toEqual([
      'explorer-host:a.example.org',
      'explorer-host:b.example.org',
    ]);
  });
});
