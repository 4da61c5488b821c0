// Which settings decide what a swap service or an RPC can do: changing them needs the wallet
// unlocked and the user's confirmation (lib/background/handlers/settings.ts, the options page).
import type { Settings } from './settings';

const sorted = (record: Record<string, string>) => JSON.stringify(Object.entries(record).sort());

/** Whether a change points at another swap service (its URL or the chain names it is asked with). */
export function changesService(previous: Settings, next: Settings): boolean {
  return (
    previous.serviceBaseUrl !== next.serviceBaseUrl ||
    sorted(previous.chainNameOverrides) !== sorted(next.chainNameOverrides)
  );
}

/** Whether a settings change touches what the service or the RPC can do (needs unlock + confirmation). */
export function changesServiceOrRpc(previous: Settings, next: Settings): boolean {
  return changesService(previous, next) || sorted(previous.rpcOverrides) !== sorted(next.rpcOverrides);
}
