import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { CHAINS, getChain } from '@/lib/chains';
import { checkExplorerHost, hostOfPasted, userHostOrigin } from '@/lib/explorer/user-hosts';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import type { Settings } from '@/lib/settings/settings';

type Note = { kind: 'ok' | 'error'; text: string } | undefined;

const messageOf = (error: unknown) => (error instanceof BackgroundError ? error.message : String(error));

/** Whether the browser still grants access to each host: it can be revoked in its own settings. */
function useHostAccess(hosts: readonly string[]): Record<string, boolean> {
  const [access, setAccess] = useState<Record<string, boolean>>({});
  const key = hosts.join(' ');
  useEffect(() => {
    const names = key ? key.split(' ') : [];
    const refresh = () =>
      Promise.all(
        names.map(async (host) => [
          host,
          await browser.permissions.contains({ origins: [userHostOrigin(host)] }),
        ]),
      ).then((pairs) => setAccess(Object.fromEntries(pairs)));
    void refresh();
    browser.permissions.onAdded.addListener(refresh);
    browser.permissions.onRemoved.addListener(refresh);
    return () => {
      browser.permissions.onAdded.removeListener(refresh);
      browser.permissions.onRemoved.removeListener(refresh);
    };
  }, [key]);
  return access;
}

/** The added hosts, each with its chain, its access (and a way to grant it again) and Remove. */
function HostList({
  entries,
  access,
  onGrant,
  onRemove,
}: {
  entries: [string, number][];
  access: Record<string, boolean>;
  onGrant: (host: string, chain: number) => void;
  onRemove: (host: string) => void;
}) {
  return (
    <ul class="hosts" aria-label="Added explorer sites">
      {entries.map(([host, chain]) => (
        <li key={host} data-host={host}>
          <span>
            {host} · {getChain(chain)?.name ?? `chain ${chain}`}
            {access[host] === false && ' · no access'}
          </span>
          {access[host] === false && (
            <button type="button" onClick={() => onGrant(host, chain)}>
              Grant access to {host}
            </button>
          )}
          <button type="button" onClick={() => onRemove(host)}>
            Remove {host}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * Explorer sites the user adds: a host and its chain. Adding asks the browser for access to the host
 * (an optional host permission) from the click itself, the user's gesture; only once granted does the
 * background store it and register the explorer content script there. Removing gives the access back.
 */
export function ExplorerHosts({
  hosts,
  onSaved,
}: {
  hosts: Readonly<Record<string, number>>;
  onSaved: (settings: Settings) => void;
}) {
  const [hostText, setHostText] = useState('');
  const [chainId, setChainId] = useState(CHAINS[0]?.chainId ?? 1);
  const [note, setNote] = useState<Note>();
  const entries = Object.entries(hosts).sort(([a], [b]) => a.localeCompare(b));

  const access = useHostAccess(entries.map(([host]) => host));

  /** Asks for access first thing in the click handler: permissions.request needs the user's gesture. */
  const grantThenSave = (host: string, chain: number) =>
    browser.permissions
      .request({ origins: [userHostOrigin(host)] })
      .then(async (granted) => {
        if (!granted) {
          setNote({ kind: 'error', text: `Access to ${host} was not granted, so it was not added.` });
          return;
        }
        onSaved(await callBackground({ type: 'setExplorerHost', host, chainId: chain }));
        setHostText('');
        setNote({ kind: 'ok', text: `Added ${host} (${getChain(chain)?.name ?? chain}).` });
      })
      .catch((error: unknown) => setNote({ kind: 'error', text: messageOf(error) }));

  const add = (event: Event) => {
    event.preventDefault();
    const check = checkExplorerHost(hostText);
    if (!check.ok) {
      setNote({ kind: 'error', text: check.message });
      return;
    }
    void grantThenSave(check.host, chainId);
  };

  const remove = (host: string) =>
    callBackground({ type: 'setExplorerHost', host, chainId: null }).then(
      (saved) => {
        onSaved(saved);
        setNote({ kind: 'ok', text: `Removed ${host}.` });
      },
      (error: unknown) => setNote({ kind: 'error', text: messageOf(error) }),
    );

  return (
    <fieldset>
      <legend>Explorer sites</legend>
      <p class="hint">
        Swap buttons appear on the built-in explorers (Etherscan family, Blockscout). Add another explorer by
        its host; Swaplane asks your browser for access to it.
      </p>
      {entries.length > 0 && (
        <HostList
          entries={entries}
          access={access}
          onGrant={(host, chain) => void grantThenSave(host, chain)}
          onRemove={(host) => void remove(host)}
        />
      )}
      <div class="add-host">
        <label>
          Explorer host
          <input
            placeholder="explorer.example.org"
            autoComplete="off"
            spellcheck={false}
            value={hostText}
            onInput={(event) => {
              const text = event.currentTarget.value;
              // A pasted address (https://etherscan.io/) is cut down to its host at once, in view.
              const pasted =
                (event as InputEvent).inputType === 'insertFromPaste' ? hostOfPasted(text.trim()) : null;
              setHostText(pasted && 'host' in pasted ? pasted.host : text);
              setNote(undefined);
            }}
            onKeyDown={(event) => event.key === 'Enter' && add(event)}
          />
        </label>
        <label>
          {/* Named by its own span: a wrapping label would also read out every option. */}
          <span id="explorer-chain-label">Chain</span>
          <select
            aria-labelledby="explorer-chain-label"
            value={chainId}
            onChange={(event) => setChainId(Number(event.currentTarget.value))}
          >
            {CHAINS.map((chain) => (
              <option key={chain.chainId} value={chain.chainId}>
                {chain.name} ({chain.chainId})
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={add}>
          Add explorer
        </button>
      </div>
      <p
        role="status"
        data-testid="explorer-hosts-status"
        class={note?.kind === 'error' ? 'error' : undefined}
      >
        {note?.text}
      </p>
    </fieldset>
  );
}
