// Explorer hosts the user adds: the settings entry, its optional host permission and the content script
// registered at run time for it (the same file the manifest lists for the built-in hosts). The plan is
// pure (lib/background/explorer-scripts.ts); this runs it against the browser, one sync at a time.
import { createSerialQueue } from '@/lib/async';
import { getChain } from '@/lib/chains';
import { checkExplorerHost, userHostOrigin, validUserHosts } from '@/lib/explorer/user-hosts';
import type { Settings } from '@/lib/settings/settings';
import { CodedError } from './errors';
import { planRegistrations, type RegisteredScript, type ScriptRegistration } from './explorer-scripts';

/** The parts of `browser.scripting` used here. */
export interface ScriptingApi {
  getRegisteredContentScripts(): Promise<RegisteredScript[]>;
  registerContentScripts(scripts: ScriptRegistration[]): Promise<unknown>;
  updateContentScripts(scripts: ScriptRegistration[]): Promise<unknown>;
  unregisterContentScripts(filter: { ids: string[] }): Promise<unknown>;
}

/** The parts of `browser.permissions` used here. */
export interface PermissionsApi {
  contains(permissions: { origins: string[] }): Promise<boolean>;
  remove(permissions: { origins: string[] }): Promise<boolean>;
}

export interface ExplorerHostsOptions {
  scripting: () => ScriptingApi | undefined;
  permissions: () => PermissionsApi | undefined;
  settings: () => Settings;
  saveSettings: (next: Settings) => Promise<Settings>;
}

export interface ExplorerHosts {
  /** Registers the granted user hosts' scripts, unregisters the rest; serialised, never throws. */
  sync(): Promise<void>;
  /** Why the last sync failed, or null; adding or removing a host reports it to the options page. */
  lastSyncError(): string | null;
  /**
   * Adds (chainId) or removes (null) a user host. Adding needs the host permission already granted
   * (the options page asks for it on the user's click); removing also gives the permission back.
   */
  set(host: string, chainId: number | null): Promise<Settings>;
}

export function createExplorerHosts(options: ExplorerHostsOptions): ExplorerHosts {
  const enqueue = createSerialQueue();
  let lastError: string | null = null;

  async function runSync(): Promise<void> {
    const scripting = options.scripting();
    const permissions = options.permissions();
    if (!scripting || !permissions) return;
    const hosts = Object.keys(validUserHosts(options.settings().explorerHosts));
    const granted: string[] = [];
    for (const host of hosts) {
      if (await permissions.contains({ origins: [userHostOrigin(host)] })) granted.push(host);
    }
    const plan = planRegistrations(granted, await scripting.getRegisteredContentScripts());
    if (plan.unregister.length > 0) await scripting.unregisterContentScripts({ ids: plan.unregister });
    if (plan.update.length > 0) await scripting.updateContentScripts(plan.update);
    if (plan.register.length > 0) await scripting.registerContentScripts(plan.register);
  }

  // No console output (SECURITY.md): a failure is kept and reported by the next `set`.
  function sync(): Promise<void> {
    return enqueue(runSync).then(
      () => {
        lastError = null;
      },
      (error: unknown) => {
        lastError = error instanceof Error ? error.message : String(error);
      },
    );
  }

  async function syncOrThrow(host: string): Promise<void> {
    await sync();
    if (lastError) {
      throw new CodedError(
        'EXPLORER_SYNC_FAILED',
        `The setting for ${host} was saved, but the browser refused to update its page script (${lastError}). Reload the extension and try again.`,
      );
    }
  }

  return {
    sync,
    lastSyncError: () => lastError,
    async set(input, chainId) {
      const permissions = options.permissions();
      const current = options.settings();
      if (chainId === null) {
        const host = Object.keys(current.explorerHosts).find((entry) => entry === input.trim().toLowerCase());
        if (!host) return current;
        const { [host]: _removed, ...explorerHosts } = current.explorerHosts;
        const saved = await options.saveSettings({ ...current, explorerHosts });
        await syncOrThrow(host);
        // The permission goes too, unless the service or an RPC lives on the same origin.
        const origin = `https://${host}`;
        const urls = [saved.serviceBaseUrl, ...Object.values(saved.rpcOverrides)];
        if (permissions && !urls.some((url) => new URL(url).origin === origin)) {
          await permissions.remove({ origins: [userHostOrigin(host)] }).catch(() => false);
        }
        return saved;
      }
      const check = checkExplorerHost(input);
      if (!check.ok) throw new CodedError('BAD_HOST', check.message);
      if (!getChain(chainId)) throw new CodedError('UNKNOWN_CHAIN', `Unknown chain id ${chainId}.`);
      if (!permissions || !(await permissions.contains({ origins: [userHostOrigin(check.host)] }))) {
        throw new CodedError('NO_PERMISSION', `Swaplane has no access to ${check.host} yet.`);
      }
      const saved = await options.saveSettings({
        ...current,
        explorerHosts: { ...current.explorerHosts, [check.host]: chainId },
      });
      await syncOrThrow(check.host);
      return saved;
    },
  };
}
