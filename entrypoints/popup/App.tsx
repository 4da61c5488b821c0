import { useEffect, useState } from 'preact/hooks';
import { ReceivePanel } from '@/components/ReceivePanel';
import { CHAINS } from '@/lib/chains';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { AccountBar } from './AccountBar';
import { AccountScreen } from './AccountScreen';
import { Activity } from './Activity';
import { messageOf } from './messages';
import { Onboarding } from './Onboarding';
import { SwapScreen } from './SwapScreen';
import { takeStart } from './start';
import { Unlock } from './Unlock';

export function App() {
  // The state main.tsx already asked for (start.ts): usually in by the first render.
  const [booted] = useState(() => takeStart('app'));
  const [wallet, setWallet] = useState<WalletState | null>(booted?.value?.wallet ?? null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<'swap' | 'activity' | 'accounts' | 'receive'>('swap');
  const active = wallet?.accounts.find((account) => account.id === wallet.activeId);

  useEffect(() => {
    if (booted?.value) return;
    const state = booted
      ? booted.promise.then((start) => start.wallet)
      : callBackground({ type: 'walletState' });
    state.then(setWallet, (failure: unknown) => setError(messageOf(failure)));
  }, [booted]);

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
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!wallet && !error && <p class="muted">Loading…</p>}
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
          {tab === 'swap' && <SwapScreen />}
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
