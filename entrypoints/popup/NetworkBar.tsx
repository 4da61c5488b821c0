import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { CHAINS } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { ResultOf } from '@/lib/messaging/protocol';
import { whenIdle } from './idle';

export interface NetworkBarProps {
  chainId: number;
  localChain: boolean;
  onChange: (chainId: number) => void;
}

/** The network, whether it runs on this machine, and the way to Settings. */
export function NetworkBar({ chainId, localChain, onChange }: NetworkBarProps) {
  // Asked after the first frame (effects run after paint): never delays the popup's start.
  const [statuses, setStatuses] = useState<ResultOf<'servedNetworks'> | null>(null);
  useEffect(
    () => whenIdle(() => callBackground({ type: 'servedNetworks' }).then(setStatuses, () => undefined)),
    [],
  );
  const statusOf = (id: number) => statuses?.find((status) => status.chainId === id);
  return (
    <div class="toolbar">
      <label class="chain">
        <span class="sr-only">Network</span>
        <select value={String(chainId)} onChange={(event) => onChange(Number(event.currentTarget.value))}>
          {CHAINS.map((chain) => {
            const status = statusOf(chain.chainId);
            const refused = status !== undefined && !status.served;
            return (
              <option
                key={chain.chainId}
                value={String(chain.chainId)}
                disabled={refused && chain.chainId !== chainId}
                title={status?.reason ?? undefined}
              >
                {refused ? `${chain.name} (${status.reason})` : chain.name}
              </option>
            );
          })}
        </select>
      </label>
      {localChain && (
        <span class="badge" title="This network runs on this machine (the devnet)" data-testid="local-badge">
          Local
        </span>
      )}
      <button
        type="button"
        class="compact icon-button"
        aria-label="Settings"
        title="Settings: swap service, networks, explorer pages"
        onClick={() => browser.runtime.openOptionsPage()}
      >
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <circle cx="8" cy="8" r="2.2" fill="none" stroke="currentColor" stroke-width="1.5" />
          <path
            d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4"
            fill="none"
            stroke="currentColor"
            stroke-width="1.5"
            stroke-linecap="round"
          />
        </svg>
      </button>
    </div>
  );
}
