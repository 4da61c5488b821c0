// Which settings decide what a swap service or an RPC can do: changing them needs the wallet
// unlocked and the user's confirmation (lib/background/handlers/settings.ts, the options page).
import type { Settings } from './settings';

/** Whether a settings change touches what the service or the RPC can do (needs unlock + confirmation). */
export function changesServiceOrRpc(previous: Settings, next: Settings): boolean {
  const sorted = (record: Record<string, string>) => JSON.stringify(Object.entries(record).sort());
  return (
    previous.serviceBaseUrl !== next.serviceBaseUrl ||
    sorted(previous.rpcOverrides) !== sorted(next.rpcOverrides) ||
    sorted(previous.chainNameOverrides) !== sorted(next.chainNameOverrides)
  );
}
