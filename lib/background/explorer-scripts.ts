// The content scripts registered at run time for the user's explorer hosts: the plan that brings
// them in line with the settings. Pure; lib/background/explorer-hosts.ts runs it against the browser.
import { userHostOrigin } from '@/lib/explorer/user-hosts';

/** The built-in file the manifest lists; user hosts get the same file registered at run time. */
export const EXPLORER_SCRIPT_FILE = 'content-scripts/explorer.js';
/** Ids of the scripts registered for user hosts: this prefix and the host. */
export const USER_HOST_SCRIPT_PREFIX = 'explorer-host:';

/** What `scripting.registerContentScripts` takes, reduced to what we set. */
export interface ScriptRegistration {
  id: string;
  matches: string[];
  js: string[];
  runAt: 'document_idle';
  /** Frames too: explorers load token pages' transfers and holders tabs in same-origin frames. */
  allFrames: true;
  persistAcrossSessions: boolean;
}

/** What `scripting.getRegisteredContentScripts` reports, reduced to what we compare. */
export interface RegisteredScript {
  id: string;
  matches?: string[];
  js?: string[];
  runAt?: string;
  allFrames?: boolean;
  persistAcrossSessions?: boolean;
}

export interface RegistrationPlan {
  register: ScriptRegistration[];
  update: ScriptRegistration[];
  unregister: string[];
}

/** The registration a granted user host should have. */
export function registrationFor(host: string, file = EXPLORER_SCRIPT_FILE): ScriptRegistration {
  return {
    id: `${USER_HOST_SCRIPT_PREFIX}${host}`,
    matches: [userHostOrigin(host)],
    js: [file],
    runAt: 'document_idle',
    allFrames: true,
    persistAcrossSessions: true,
  };
}

const same = (a: readonly string[] | undefined, b: readonly string[]) =>
  !!a && a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * Brings the registered user-host scripts in line with `hosts` (valid, permission granted): registers
 * what is missing, updates what differs (e.g. the script file after an update), unregisters ours that
 * are no longer wanted. Scripts with other ids are not ours and are left alone.
 */
export function planRegistrations(
  hosts: readonly string[],
  registered: readonly RegisteredScript[],
  file = EXPLORER_SCRIPT_FILE,
): RegistrationPlan {
  const wanted = new Map(
    hosts.map((host) => [`${USER_HOST_SCRIPT_PREFIX}${host}`, registrationFor(host, file)]),
  );
  const plan: RegistrationPlan = { register: [], update: [], unregister: [] };
  const seen = new Set<string>();
  for (const script of registered) {
    if (!script.id.startsWith(USER_HOST_SCRIPT_PREFIX)) continue;
    seen.add(script.id);
    const want = wanted.get(script.id);
    if (!want) {
      plan.unregister.push(script.id);
    } else if (
      !same(script.matches, want.matches) ||
      !same(script.js, want.js) ||
      script.runAt !== want.runAt ||
      script.allFrames !== want.allFrames ||
      script.persistAcrossSessions !== want.persistAcrossSessions
    ) {
      plan.update.push(want);
    }
  }
  for (const [id, want] of wanted) if (!seen.has(id)) plan.register.push(want);
  return plan;
}
