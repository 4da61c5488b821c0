import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { CHAINS } from '@/lib/chains';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import { checkOneClickAmount, checkOneClickAmounts } from '@/lib/settings/one-click';
import { DEVNET_PRESET, type Settings, SettingsSchema } from '@/lib/settings/settings';
import { checkSlippage } from '@/lib/swap/slippage';
import { ConnectedSites } from './ConnectedSites';
import { ExplorerHosts } from './ExplorerHosts';
import { OneClickAmounts } from './OneClickAmounts';

const FIELD_LABELS: Record<string, string> = {
  serviceBaseUrl: 'Service base URL',
  rpcOverrides: 'RPC URL',
  chainNameOverrides: 'API chain name',
  slippage: 'Default slippage',
  refCode: 'Referral code',
  oneClickAmount: 'One-click quote amount',
  explorerHosts: 'Explorer hosts',
  autoLockMinutes: 'Auto-lock',
};

type Status = { kind: 'idle' } | { kind: 'saved' } | { kind: 'error'; message: string };

/** Origins the manifest already grants; anything else is asked for at run time. */
function isGrantedByManifest(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === '127.0.0.1' || hostname === 'localhost';
}

/** The match patterns of the origins among `urls` that the manifest does not already grant. */
function originsToAsk(urls: string[]): string[] {
  const origins = urls.map((url) => new URL(url).origin).filter((origin) => !isGrantedByManifest(origin));
  return [...new Set(origins)].map((origin) => `${origin}/*`);
}

export function Options() {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [amountText, setAmountText] = useState('');
  const [perChain, setPerChain] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  useEffect(() => {
    callBackground({ type: 'getSettings' }).then(
      (loaded) => {
        setSettings(loaded);
        setAmountText(loaded.oneClickAmount);
        setPerChain(loaded.oneClickAmounts);
      },
      (error: unknown) => setStatus({ kind: 'error', message: String(error) }),
    );
  }, []);

  if (!settings) {
    return (
      <main>
        <h1>Swaplane settings</h1>
        {status.kind === 'error' ? <p role="alert">{status.message}</p> : <p>Loading…</p>}
      </main>
    );
  }

  const patch = (next: Partial<Settings>) => {
    setSettings({ ...settings, ...next });
    setStatus({ kind: 'idle' });
  };
  const slippageCheck = checkSlippage(settings.slippage);
  const amountCheck = checkOneClickAmount(amountText);
  const perChainCheck = checkOneClickAmounts(perChain);

  const save = async (event: Event) => {
    event.preventDefault();
    if (!amountCheck.ok) {
      setStatus({ kind: 'error', message: `One-click quote amount: ${amountCheck.message}` });
      return;
    }
    if (!perChainCheck.ok) {
      const name = CHAINS.find((chain) => String(chain.chainId) === perChainCheck.chainId)?.name;
      setStatus({ kind: 'error', message: `One-click amount on ${name}: ${perChainCheck.message}` });
      return;
    }
    const candidate = SettingsSchema.safeParse({
      ...settings,
      oneClickAmount: amountCheck.text,
      oneClickAmounts: perChainCheck.value,
    });
    if (!candidate.success) {
      const issue = candidate.error.issues[0];
      const field = FIELD_LABELS[String(issue?.path[0] ?? '')] ?? 'Settings';
      setStatus({ kind: 'error', message: `${field}: ${issue?.message ?? 'invalid value'}` });
      return;
    }
    try {
      // One request, as the click's first await: the user gesture does not outlive an awaited
      // call, so asking `contains` first (or one origin after another) could lose it. Already
      // granted origins resolve at once without a prompt.
      const urls = [candidate.data.serviceBaseUrl, ...Object.values(candidate.data.rpcOverrides)];
      const origins = originsToAsk(urls);
      if (origins.length > 0 && !(await browser.permissions.request({ origins }))) {
        const names = origins.map((pattern) => pattern.slice(0, -2)).join(', ');
        setStatus({ kind: 'error', message: `Swaplane needs permission to reach ${names}.` });
        return;
      }
      const saved = await callBackground({ type: 'updateSettings', settings: candidate.data });
      setSettings(saved);
      setAmountText(saved.oneClickAmount);
      setPerChain(saved.oneClickAmounts);
      setStatus({ kind: 'saved' });
    } catch (error) {
      setStatus({ kind: 'error', message: error instanceof BackgroundError ? error.message : String(error) });
    }
  };

  return (
    <main>
      <h1>Swaplane settings</h1>
      <form onSubmit={save} noValidate>
        <fieldset>
          <legend>Swap service</legend>
          <label>
            Service base URL
            <input
              type="url"
              required
              value={settings.serviceBaseUrl}
              onInput={(event) => patch({ serviceBaseUrl: event.currentTarget.value.trim() })}
            />
          </label>
          <label>
            Referral code (optional)
            <input
              type="number"
              min="0"
              step="1"
              value={settings.refCode ?? ''}
              onInput={(event) => {
                const raw = event.currentTarget.value;
                const { refCode: _drop, ...rest } = settings;
                setSettings(raw === '' ? rest : { ...settings, refCode: Number(raw) });
              }}
            />
          </label>
          <button
            type="button"
            onClick={() =>
              patch({
                serviceBaseUrl: DEVNET_PRESET.serviceBaseUrl,
                rpcOverrides: { ...DEVNET_PRESET.rpcOverrides },
              })
            }
          >
            Use the local devnet preset
          </button>
        </fieldset>

        <fieldset>
          <legend>Networks</legend>
          {CHAINS.map((chain) => {
            const key = String(chain.chainId);
            return (
              <div key={key} class="chain-row">
                <label>
                  {chain.name} RPC URL
                  <input
                    type="url"
                    placeholder={chain.defaultRpcUrl}
                    value={settings.rpcOverrides[key] ?? ''}
                    onInput={(event) => {
                      const value = event.currentTarget.value.trim();
                      const rpcOverrides = { ...settings.rpcOverrides };
                      if (value) rpcOverrides[key] = value;
                      else delete rpcOverrides[key];
                      patch({ rpcOverrides });
                    }}
                  />
                </label>
                <label>
                  {chain.name} API chain name
                  <input
                    placeholder={chain.apiChainName}
                    value={settings.chainNameOverrides[key] ?? ''}
                    onInput={(event) => {
                      const value = event.currentTarget.value.trim();
                      const chainNameOverrides = { ...settings.chainNameOverrides };
                      if (value) chainNameOverrides[key] = value;
                      else delete chainNameOverrides[key];
                      patch({ chainNameOverrides });
                    }}
                  />
                </label>
              </div>
            );
          })}
        </fieldset>

        <fieldset>
          <legend>Trading</legend>
          <label>
            Default slippage (%)
            <input
              type="number"
              step="0.1"
              min="0.01"
              max="50"
              value={settings.slippage}
              aria-describedby="slippage-note"
              onInput={(event) => patch({ slippage: Number(event.currentTarget.value) })}
            />
          </label>
          {slippageCheck.level !== 'ok' && (
            <p id="slippage-note" role="alert" class={slippageCheck.level}>
              {slippageCheck.message}
            </p>
          )}
          <label>
            One-click quote amount (native coin)
            <input
              inputMode="decimal"
              value={amountText}
              aria-describedby="one-click-note"
              onInput={(event) => {
                setAmountText(event.currentTarget.value);
                setStatus({ kind: 'idle' });
              }}
            />
          </label>
          <p
            id="one-click-note"
            class={amountCheck.ok ? undefined : 'error'}
            role={amountCheck.ok ? undefined : 'alert'}
          >
            {amountCheck.ok
              ? `Explorer pages quote ${amountCheck.text} of the chain’s coin (ETH, BNB, POL…) into the token.`
              : `One-click amount: ${amountCheck.message}`}
          </p>
          <label>
            Auto-lock after (minutes)
            <input
              type="number"
              min="1"
              max="1440"
              step="1"
              value={settings.autoLockMinutes}
              onInput={(event) => patch({ autoLockMinutes: Number(event.currentTarget.value) })}
            />
          </label>
        </fieldset>
        <OneClickAmounts
          texts={perChain}
          fallback={amountCheck.ok ? amountCheck.text : ''}
          onInput={(chainId, text) => {
            setPerChain({ ...perChain, [chainId]: text });
            setStatus({ kind: 'idle' });
          }}
        />

        <button type="submit" disabled={slippageCheck.level === 'error'}>
          Save
        </button>
        <p role="status" data-testid="settings-status">
          {status.kind === 'saved' && 'Saved.'}
          {status.kind === 'error' && status.message}
        </p>
      </form>
      {/* Outside the form: added and removed at once, not with Save. */}
      <ExplorerHosts
        hosts={settings.explorerHosts}
        onSaved={(saved) =>
          setSettings((current) => current && { ...current, explorerHosts: saved.explorerHosts })
        }
      />
      <ConnectedSites />
    </main>
  );
}
