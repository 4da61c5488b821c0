import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import { BUILD_DEFAULTS } from '@/lib/settings/build-defaults';
import { checkOneClickAmount } from '@/lib/settings/one-click';
import type { Settings } from '@/lib/settings/settings';
import { changesServiceOrRpc } from '@/lib/settings/trust-fields';
import { checkSlippage } from '@/lib/swap/slippage';
import { withFeeCeilings } from './FeeCeilings';
import { FormSections, SectionNav, SitesSection } from './FormSections';
import { checkedSettings } from './SettingsFields';
import { TrustChangeDialog } from './TrustChange';
import { TrustReview } from './TrustReview';

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

type Pending = { next: Settings; busy: boolean; error: string | null };
type WalletStatus = 'none' | 'locked' | 'unlocked';

/** Before the settings are in: "Loading…", or why they could not be read. */
function NotLoaded({ status }: { status: Status }) {
  return (
    <main>
      <h1>Swaplane settings</h1>
      {status.kind === 'error' ? <p role="alert">{status.message}</p> : <p>Loading…</p>}
    </main>
  );
}

/**
 * A change of the service or an RPC against what the background holds: held until the user confirms
 * it with the password (unlocking a locked wallet on the way), then stored.
 */
function useTrustChange(
  walletStatus: WalletStatus,
  setWalletStatus: (status: WalletStatus) => void,
  onStored: (saved: Settings) => void,
) {
  const [pending, setPending] = useState<Pending | null>(null);
  const confirm = async (password: string) => {
    if (!pending) return;
    setPending({ ...pending, busy: true, error: null });
    try {
      const saved = await storeSettings(pending.next, { password, locked: walletStatus === 'locked' });
      if ('refused' in saved) {
        setPending({ ...pending, busy: false, error: saved.refused });
        return;
      }
      if (walletStatus === 'locked') setWalletStatus('unlocked');
      onStored(saved);
      setPending(null);
    } catch (error) {
      const message = error instanceof BackgroundError ? error.message : String(error);
      setPending({ ...pending, busy: false, error: message });
    }
  };
  return {
    pending,
    propose: (next: Settings) => setPending({ next, busy: false, error: null }),
    confirm,
    cancel: () => setPending(null),
  };
}

export function Options() {
  const [settings, setSettings] = useState<Settings | null>(null);
  /** What the background holds: a change of the service or an RPC against it needs confirming. */
  const [stored, setStored] = useState<Settings | null>(null);
  const [walletStatus, setWalletStatus] = useState<WalletStatus>('none');
  const [amountText, setAmountText] = useState('');
  const [perChain, setPerChain] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  const loaded = (next: Settings) => {
    setSettings(next);
    setStored(next);
    setAmountText(next.oneClickAmount);
    setPerChain(next.oneClickAmounts);
  };

  const savedNow = (saved: Settings) => {
    loaded(saved);
    setStatus({ kind: 'saved' });
  };
  const trust = useTrustChange(walletStatus, setWalletStatus, savedNow);
  const pending = trust.pending;

  useEffect(() => {
    callBackground({ type: 'getSettings' }).then(loaded, (error: unknown) =>
      setStatus({ kind: 'error', message: String(error) }),
    );
    callBackground({ type: 'walletState' }).then(
      (wallet) => setWalletStatus(wallet.status),
      () => undefined,
    );
  }, []);

  if (!settings) return <NotLoaded status={status} />;
  const idle = () => setStatus({ kind: 'idle' });

  const patch = (next: Partial<Settings>) => {
    setSettings({ ...settings, ...next });
    idle();
  };
  const slippageCheck = checkSlippage(settings.slippage);
  const amountCheck = checkOneClickAmount(amountText);
  const failed = (message: string) => setStatus({ kind: 'error', message });

  const save = async (event: Event) => {
    event.preventDefault();
    const candidate = withFeeCeilings(checkedSettings(settings, amountText, perChain));
    if (!candidate.ok) return failed(candidate.message);
    if (walletStatus !== 'none' && stored && changesServiceOrRpc(stored, candidate.settings)) {
      trust.propose(candidate.settings);
      return;
    }
    try {
      const saved = await storeSettings(candidate.settings);
      if ('refused' in saved) failed(saved.refused);
      else savedNow(saved);
    } catch (error) {
      failed(error instanceof BackgroundError ? error.message : String(error));
    }
  };

  return (
    <main>
      <h1>Swaplane settings</h1>
      <SectionNav />
      <TrustReview onConfirmed={idle} onDiscarded={loaded} />
      {pending && (
        <TrustChangeDialog
          serviceChanged={stored?.serviceBaseUrl !== pending.next.serviceBaseUrl}
          serviceUrl={pending.next.serviceBaseUrl}
          locked={walletStatus === 'locked'}
          busy={pending.busy}
          error={pending.error}
          onConfirm={(password) => void trust.confirm(password)}
          onCancel={() => {
            trust.cancel();
            // The fields go back to what is stored: a rejected URL never stays on screen as if kept.
            if (stored) setSettings({ ...settings, ...trustFieldsOf(stored) });
            setStatus({ kind: 'error', message: 'Not saved: the change was cancelled.' });
          }}
        />
      )}
      <form onSubmit={save} noValidate>
        <FormSections
          settings={settings}
          patch={patch}
          replace={setSettings}
          slippageCheck={slippageCheck}
          amountText={amountText}
          onAmountText={(text) => {
            setAmountText(text);
            idle();
          }}
          perChain={perChain}
          fallbackAmount={amountCheck.ok ? amountCheck.text : ''}
          onPerChain={(chainId, text) => {
            setPerChain({ ...perChain, [chainId]: text });
            idle();
          }}
        />
        <div class="save-bar">
          <button type="submit" disabled={slippageCheck.level === 'error'}>
            Save
          </button>
          <p role="status" data-testid="settings-status">
            {status.kind === 'saved' && 'Saved.'}
            {status.kind === 'error' && status.message}
          </p>
        </div>
      </form>
      {/* Outside the form: added and removed at once, not with Save. */}
      <SitesSection
        hosts={settings.explorerHosts}
        onSaved={(saved) =>
          setSettings((current) => current && { ...current, explorerHosts: saved.explorerHosts })
        }
      />
    </main>
  );
}

/** The fields a trust change confirms (service, RPCs, API chain names), as stored. */
function trustFieldsOf(
  settings: Settings,
): Pick<Settings, 'serviceBaseUrl' | 'rpcOverrides' | 'chainNameOverrides'> {
  return {
    serviceBaseUrl: settings.serviceBaseUrl,
    rpcOverrides: settings.rpcOverrides,
    chainNameOverrides: settings.chainNameOverrides,
  };
}
