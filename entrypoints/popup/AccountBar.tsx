import { useState } from 'preact/hooks';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { messageOf } from './messages';

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

export function AccountBar({
  wallet,
  onChange,
  accountsOpen,
  onAccounts,
  receiveOpen,
  onReceive,
}: {
  wallet: WalletState;
  onChange: (state: WalletState) => void;
  /** The account screen (rename, import a key, reveal) is shown. */
  accountsOpen: boolean;
  onAccounts: () => void;
  /** The Receive screen (address, QR code, Copy address) is shown. */
  receiveOpen: boolean;
  onReceive: () => void;
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
            <option key={account.id} value={account.id} title={account.address}>
              {account.name} · {short(account.address)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        class="compact"
        aria-label="Receive"
        title="Receive: your address and its QR code"
        aria-pressed={receiveOpen}
        onClick={onReceive}
      >
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <path
            d="M2 2h5v5H2zM9 2h5v5H9zM2 9h5v5H2zM10 10h1.5v1.5H10zM12.5 12.5H14V14h-1.5zM12.5 9H14v1.5h-1.5zM9 12.5h1.5V14H9z"
            fill="none"
            stroke="currentColor"
            stroke-width="1.3"
          />
        </svg>
      </button>
      <button
        type="button"
        aria-label="Add account"
        title="Add account"
        onClick={() => run({ type: 'walletAddAccount' })}
      >
        +
      </button>
      <button
        type="button"
        class="compact"
        aria-label="Manage accounts"
        title="Rename, import a private key, reveal a secret"
        aria-pressed={accountsOpen}
        onClick={onAccounts}
      >
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <circle cx="8" cy="5" r="3" fill="none" stroke="currentColor" stroke-width="1.6" />
          <path
            d="M2.5 14.5c.6-3 2.8-4.5 5.5-4.5s4.9 1.5 5.5 4.5"
            fill="none"
            stroke="currentColor"
            stroke-width="1.6"
          />
        </svg>
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
