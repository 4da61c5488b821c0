import { useState } from 'preact/hooks';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { messageOf } from './messages';

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

export function AccountBar({
  wallet,
  onChange,
}: {
  wallet: WalletState;
  onChange: (state: WalletState) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const run = (request: Parameters<typeof callBackground>[0]) =>
    (callBackground(request) as Promise<WalletState>).then(onChange, (failure: unknown) =>
      setError(messageOf(failure)),
    );
  const active = wallet.accounts.find((account) => account.id === wallet.activeId);
  return (
    <div class="account-bar">
      <label>
        <span class="sr-only">Account</span>
        <select
          data-testid="account-select"
          value={wallet.activeId ?? ''}
          onChange={(event) => run({ type: 'walletSetActive', id: event.currentTarget.value })}
        >
          {wallet.accounts.map((account) => (
            <option key={account.id} value={account.id}>
              {account.name} ({short(account.address)})
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        aria-label="Add account"
        title="Add account"
        onClick={() => run({ type: 'walletAddAccount' })}
      >
        +
      </button>
      <button type="button" class="compact" onClick={() => run({ type: 'walletLock' })}>
        Lock
      </button>
      {active && (
        <span class="sr-only" data-testid="active-address">
          {active.address}
        </span>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
