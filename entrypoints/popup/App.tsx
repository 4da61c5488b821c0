import { useEffect, useState } from 'preact/hooks';
import { AttemptsExhaustedError, withAttempts } from '@/lib/async';
import { CHAINS } from '@/lib/chains';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { AccountBar } from './AccountBar';
import { lazyScreen } from './lazy-screen';
import { messageOf } from './messages';
import { SwapScreen } from './SwapScreen';
import { takeStart } from './start';
import { Unlock } from './Unlock';

// Not in the unlocked popup's first frame: their own chunks, loaded when first shown.
const Onboarding = lazyScreen(() => import('./Onboarding').then((m) => m.Onboarding), 'new wallet');
const Activity = lazyScreen(() => import('./Activity').then((m) => m.Activity), 'activity');
const AccountScreen = lazyScreen(() => import('./AccountScreen').then((m) => m.AccountScreen), 'accounts');
const ReceivePanel = lazyScreen(
  () => import('@/components/ReceivePanel').then((m) => m.ReceivePanel),
  'receive',
);

/** The first wallet state: tries of FIRST_STATE_TRY_MS each (a cold worker answers within ~1 s). */
const FIRST_STATE_ATTEMPTS = 4;
const FIRST_STATE_TRY_MS = 3_000;

export function App() {
  // The state main.tsx already asked for (start.ts): usually in by the first render.
  const [booted] = useState(() => takeStart('app'));
  const [wallet, setWallet] = useState<WalletState | null>(booted?.value?.wallet ?? null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<'swap' | 'activity' | 'accounts' | 'receive'>('swap');
  const active = wallet?.accounts.find((account) => account.id === wallet.activeId);

  const [waiting, setWaiting] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  // The first state never hangs the popup: each try is bounded, a worker still starting is asked
  // again, and after the last try the popup says so with Try again (never "Loading…" for good).
  useEffect(() => {
    if (booted?.value && attempt === 0) return;
    let current = true;
    const first = attempt === 0 && booted ? booted.promise.then((start) => start.wallet) : null;
    setError(null);
    withAttempts((index) => (index === 0 && first ? first : callBackground({ type: 'walletState' })), {
      attempts: FIRST_STATE_ATTEMPTS,
      timeoutMs: FIRST_STATE_TRY_MS,
      onRetry: (next) =>
        current &&
        setWaiting(`Waiting for Swaplane's background to start (try ${next} of ${FIRST_STATE_ATTEMPTS})…`),
    }).then(
      (state) => current && setWallet(state),
      (failure: unknown) => {
        if (!current) return;
        setWaiting(null);
        setError(
          failure instanceof AttemptsExhaustedError && !(failure.last instanceof BackgroundError)
            ? `Swaplane's background did not answer in ${(FIRST_STATE_ATTEMPTS * FIRST_STATE_TRY_MS) / 1000} s. Try again; if it keeps happening, restart the browser.`
            : messageOf(failure instanceof AttemptsExhaustedError ? failure.last : failure),
        );
      },
    );
    return () => {
      current = false;
    };
  }, [booted, attempt]);

  return (
    <main class="shell">
      <header class="shell-header">
        <h1>Swaplane</h1>
        {wallet?.status === 'unlocked' && (
          <AccountBar
            wallet={wallet}
            onChange={setWallet}
            accountsOpen={tab === 'accounts'}
            onAccounts={() => setTab(tab === 'accounts' ? 'swap' : 'accounts')}
            receiveOpen={tab === 'receive'}
            onReceive={() => setTab(tab === 'receive' ? 'swap' : 'receive')}
          />
        )}
      </header>
      {error && !wallet && (
        <div class="error" role="alert">
          <p>{error}</p>
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      )}
      {!wallet && !error && (
        <p class="muted" role="status">
          {waiting ?? 'Loading…'}
        </p>
      )}
      {wallet?.accountsNotice && (
        <p class="warning" role="status" data-testid="accounts-notice">
          {wallet.accountsNotice}
        </p>
      )}
      {wallet?.status === 'none' && <Onboarding onDone={setWallet} />}
      {wallet?.status === 'locked' && <Unlock wallet={wallet} onUnlocked={setWallet} />}
      {wallet?.status === 'unlocked' && (
        <>
          <nav class="tabs" aria-label="Screens">
            <button
              type="button"
              aria-current={tab === 'swap' ? 'page' : undefined}
              onClick={() => setTab('swap')}
            >
              Swap
            </button>
            <button
              type="button"
              aria-current={tab === 'activity' ? 'page' : undefined}
              onClick={() => setTab('activity')}
            >
              Activity
            </button>
          </nav>
          {tab === 'swap' && <SwapScreen account={active?.address ?? null} />}
          {tab === 'activity' && <Activity />}
          {tab === 'receive' && active && (
            <ReceivePanel
              address={active.address}
              accountName={active.name}
              networkNames={CHAINS.map((chain) => chain.name)}
              onClose={() => setTab('swap')}
            />
          )}
          {tab === 'accounts' && (
            <AccountScreen wallet={wallet} onChange={setWallet} onClose={() => setTab('swap')} />
          )}
        </>
      )}
    </main>
  );
}
