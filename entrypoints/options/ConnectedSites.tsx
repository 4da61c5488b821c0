import { useEffect, useState } from 'preact/hooks';
import { getChain } from '@/lib/chains';
import type { ConnectedSite } from '@/lib/dapp/sites';
import { BackgroundError, callBackground } from '@/lib/messaging/client';

const messageOf = (error: unknown) => (error instanceof BackgroundError ? error.message : String(error));

/**
 * Sites connected to Swaplane (through its in-page provider): which account each sees and on which
 * chain, with a way to disconnect; and whether pages also get window.ethereum.
 */
export function ConnectedSites() {
  const [sites, setSites] = useState<ConnectedSite[] | null>(null);
  const [expose, setExpose] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    callBackground({ type: 'dappSites' }).then(setSites, (caught) => setError(messageOf(caught)));
    callBackground({ type: 'dappGetSettings' }).then(
      (settings) => setExpose(settings.exposeWindowEthereum),
      (caught) => setError(messageOf(caught)),
    );
  }, []);

  const disconnect = async (origin: string) => {
    setError(null);
    try {
      setSites(await callBackground({ type: 'dappDisconnect', origin }));
    } catch (caught) {
      setError(messageOf(caught));
    }
  };

  const toggle = async (next: boolean) => {
    setError(null);
    try {
      setExpose(
        (await callBackground({ type: 'dappSetSettings', settings: { exposeWindowEthereum: next } }))
          .exposeWindowEthereum,
      );
    } catch (caught) {
      setError(messageOf(caught));
    }
  };

  return (
    <section aria-labelledby="connected-sites-heading">
      <h2 id="connected-sites-heading">Connected sites</h2>
      <p>
        Sites you connected can see your account's address and ask you to sign or send; each request still
        opens a window.
      </p>
      {sites === null ? (
        <p>Loading…</p>
      ) : sites.length === 0 ? (
        <p>No site is connected.</p>
      ) : (
        <ul aria-label="Connected sites">
          {sites.map((site) => (
            <li key={site.origin}>
              <strong>{site.origin}</strong> sees {site.accounts.join(', ')} on{' '}
              {getChain(site.chainId)?.name ?? `chain ${site.chainId}`}{' '}
              <button
                type="button"
                aria-label={`Disconnect ${site.origin}`}
                onClick={() => void disconnect(site.origin)}
              >
                Disconnect
              </button>
            </li>
          ))}
        </ul>
      )}
      <label>
        <span>
          <input
            type="checkbox"
            checked={expose === true}
            disabled={expose === null}
            onChange={(event) => void toggle(event.currentTarget.checked)}
          />{' '}
          Also provide window.ethereum to pages (for sites that do not look for wallets by EIP-6963; never
          replaces another wallet's)
        </span>
      </label>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}
