import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { CHAINS } from '@/lib/chains';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import { BUILD_DEFAULTS } from '@/lib/settings/build-defaults';
import { checkOneClickAmount, checkOneClickAmounts } from '@/lib/settings/one-click';
import { DEVNET_PRESET, type Settings, SettingsSchema } from '@/lib/settings/settings';
import { changesServiceOrRpc } from '@/lib/settings/trust-fields';
import { checkSlippage } from '@/lib/swap/slippage';
import { ConnectedSites } from './ConnectedSites';
import { ExplorerHosts } from './ExplorerHosts';
import { OneClickAmounts } from './OneClickAmounts';
import { TrustChangeDialog } from './TrustChange';
import { TrustReview } from './TrustReview';

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
  // Only a demo build's manifest grants this machine (a release build asks like any other host).
  return !BUILD_DEFAULTS.release && (hostname === '127.0.0.1' || hostname === 'localhost');
}

/** The match patterns of the origins among `urls` that the manifest does not already grant. */
function originsToAsk(urls: string[]): string[] {
  const origins = urls.map((url) => new URL(url).origin).filter((origin) => !isGrantedByManifest(origin));
  return [...new Set(origins)].map((origin) => `${origin}/*`);
}

/**
 * Sends settings to the background. The permission request for new remote origins is the first
 * await of the click that calls this: the user gesture does not outlive an awaited call, so asking
 * `contains` first (or one origin after another) could lose it. Granted origins resolve at once.
 */
async function storeSettings(
  next: Settings,
  trustChange?: { password: string; locked: boolean },
): Promise<Settings | { refused: string }> {
  const origins = originsToAsk([next.serviceBaseUrl, ...Object.values(next.rpcOverrides)]);
  if (origins.length > 0 && !(await browser.permissions.request({ origins }))) {
    const names = origins.map((pattern) => pattern.slice(0, -2)).join(', ');
    return { refused: `Swaplane needs permission to reach ${names}.` };
  }
  if (trustChange?.locked) await callBackground({ type: 'walletUnlock', password: trustChange.password });
  return callBackground({
    type: 'updateSettings',
    settings: next,
    ...(trustChange ? { confirmTrustChange: true } : {}),
  });
}

export function Options() {
  const [settings, setSettings] = useState<Settings | null>(null);
  /** What the background holds: a change of the service or an RPC against it needs confirming. */
  const [stored, setStored] = useState<Settings | null>(null);
  const [walletStatus, setWalletStatus] = useState<'none' | 'locked' | 'unlocked'>('none');
  const [pending, setPending] = useState<{ next: Settings; busy: boolean; error: string | null } | null>(
    null,
  );
  const [amountText, setAmountText] = useState('');
  const [perChain, setPerChain] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  const loaded = (next: Settings) => {
    setSettings(next);
    setStored(next);
    setAmountText(next.oneClickAmount);
    setPerChain(next.oneClickAmounts);
  };

  useEffect(() => {
    callBackground({ type: 'getSettings' }).then(loaded, (error: unknown) =>
      setStatus({ kind: 'error', message: String(error) }),
    );
    callBackground({ type: 'walletState' }).then(
      (wallet) => setWalletStatus(wallet.status),
      () => undefined,
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
    if (walletStatus !== 'none' && stored && changesServiceOrRpc(stored, candidate.data)) {
      setPending({ next: candidate.data, busy: false, error: null });
      return;
    }
    try {
      const saved = await storeSettings(candidate.data);
      if ('refused' in saved) setStatus({ kind: 'error', message: saved.refused });
      else {
        loaded(saved);
        setStatus({ kind: 'saved' });
      }
    } catch (error) {
      setStatus({ kind: 'error', message: error instanceof BackgroundError ? error.message : String(error) });
    }
  };

  const confirmTrustChange = async (password: string) => {
    if (!pending) return;
    setPending({ ...pending, busy: true, error: null });
    try {
      const saved = await storeSettings(pending.next, { password, locked: walletStatus === 'locked' });
      if ('refused' in saved) {
        setPending({ ...pending, busy: false, error: saved.refused });
        return;
      }
      if (walletStatus === 'locked') setWalletStatus('unlocked');
      loaded(saved);
      setPending(null);
      setStatus({ kind: 'saved' });
    } catch (error) {
      const message = error instanceof BackgroundError ? error.message : String(error);
      setPending({ ...pending, busy: false, error: message });
    }
  };

  return (
    <main>
      <h1>Swaplane settings</h1>
      <TrustReview onConfirmed={() => setStatus({ kind: 'idle' })} />
      {pending && (
        <TrustChangeDialog
          serviceChanged={stored?.serviceBaseUrl !== pending.next.serviceBaseUrl}
          serviceUrl={pending.next.serviceBaseUrl}
          locked={walletStatus === 'locked'}
          busy={pending.busy}
          error={pending.error}
          onConfirm={(password) => void confirmTrustChange(password)}
          onCancel={() => {
            setPending(null);
            setStatus({ kind: 'error', message: 'Not saved: the change was cancelled.' });
          }}
        />
      )}
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
          {DEVNET_PRESET && (
            <button
              type="button"
              onClick={() =>
                DEVNET_PRESET &&
                patch({
                  serviceBaseUrl: DEVNET_PRESET.serviceBaseUrl,
                  rpcOverrides: { ...DEVNET_PRESET.rpcOverrides },
                })
              }
            >
              Use the local devnet preset
            </button>
          )}
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
          <label>
            <input
              type="checkbox"
              checked={settings.onlyReadableCalldata !== false}
              onChange={(event) => patch({ onlyReadableCalldata: event.currentTarget.checked })}
            />{' '}
            Only sign swap calls Swaplane can read
          </label>
          <p class="muted">
            On: a swap call Swaplane cannot decode and check is refused. Off: it is signed only when a
            simulation shows exactly what it does to your balances and you confirm it.
          </p>
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
