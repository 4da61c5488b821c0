import { useEffect, useState } from 'preact/hooks';
import { CHAINS } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { ResultOf } from '@/lib/messaging/protocol';
import { whenIdle } from './idle';

export interface NetworkBarProps {
  chainId: number;
  localChain: boolean;
  onChange: (chainId: number) => void;
}

/** The network, and whether it runs on this machine (Settings is in the header). */
export function NetworkBar({ chainId, localChain, onChange }: NetworkBarProps) {
  // Asked after the first frame (effects run after paint): never delays the popup's start.
  const [statuses, setStatuses] = useState<ResultOf<'servedNetworks'> | null>(null);
  useEffect(
    () => whenIdle(() => callBackground({ type: 'servedNetworks' }).then(setStatuses, () => undefined)),
    [],
  );
  const statusOf = (id: number) => statuses?.find((status) => status.chainId === id);
  // Until the answer is in, every network is listed as offered (the first frame never waits for it).
  const refused = (id: number) => statusOf(id)?.served === false;
  const offered = CHAINS.filter((chain) => !refused(chain.chainId));
  const notOffered = CHAINS.filter((chain) => refused(chain.chainId));
  return (
    <div class="toolbar">
      <label class="chain">
        <span class="sr-only">Network</span>
        <select value={String(chainId)} onChange={(event) => onChange(Number(event.currentTarget.value))}>
          {offered.map((chain) => (
            <option key={chain.chainId} value={String(chain.chainId)}>
              {chain.name}
            </option>
          ))}
          {notOffered.length > 0 && (
            // One line for the rest: they cannot be chosen, each says why on hover.
            <optgroup label="Not offered by this service">
              {notOffered.map((chain) => (
                <option
                  key={chain.chainId}
                  value={String(chain.chainId)}
                  disabled={chain.chainId !== chainId}
                  title={statusOf(chain.chainId)?.reason ?? undefined}
                >
                  {chain.name}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      {localChain && (
        <span class="badge" title="This network runs on this machine (the devnet)" data-testid="local-badge">
          Local
        </span>
      )}
    </div>
  );
}
