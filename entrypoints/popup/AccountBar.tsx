import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { messageOf } from './messages';

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** Each control says what it does in words under its icon (a tooltip alone is not a label). */
function HeaderActions({
  receiveOpen,
  onReceive,
  accountsOpen,
  onAccounts,
  run,
}: {
  receiveOpen: boolean;
  onReceive: () => void;
  accountsOpen: boolean;
  onAccounts: () => void;
  run: (request: Parameters<typeof callBackground>[0]) => void;
}) {
  return (
    <div class="header-actions">
      <button
        type="button"
        class="tile"
        title="Your address and its QR code"
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
        Receive
      </button>
      <button
        type="button"
        class="tile"
        aria-label="Add account"
        title="Add an account from your recovery phrase"
        onClick={() => run({ type: 'walletAddAccount' })}
      >
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <path d="M8 2.5v11M2.5 8h11" fill="none" stroke="currentColor" stroke-width="1.6" />
        </svg>
        Add
      </button>
      <button
        type="button"
        class="tile"
        aria-label="Manage accounts"
        title="Rename, import a private key, reveal a secret, change the password"
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
        Accounts
      </button>
      <button
        type="button"
        class="tile"
        title="Swap service, networks, explorer pages, security"
        onClick={() => browser.runtime.openOptionsPage()}
      >
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          {/* A cog (teeth around a ring), not a sun. */}
          <path
            d="M6.9 1.5h2.2l.4 1.8 1.3.6 1.6-1 1.5 1.5-1 1.6.6 1.3 1.8.4v2.2l-1.8.4-.6 1.3 1 1.6-1.5 1.5-1.6-1-1.3.6-.4 1.8H6.9l-.4-1.8-1.3-.6-1.6 1-1.5-1.5 1-1.6-.6-1.3-1.8-.4V6.9l1.8-.4.6-1.3-1-1.6 1.5-1.5 1.6 1 1.3-.6z"
            fill="none"
            stroke="currentColor"
            stroke-width="1.2"
            stroke-linejoin="round"
          />
          <circle cx="8" cy="8" r="2.2" fill="none" stroke="currentColor" stroke-width="1.2" />
        </svg>
        Settings
      </button>
      <button
        type="button"
        class="tile"
        title="Lock the wallet (your password unlocks it)"
        onClick={() => run({ type: 'walletLock' })}
      >
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <rect
            x="3"
            y="7"
            width="10"
            height="7"
            rx="1.5"
            fill="none"
            stroke="currentColor"
            stroke-width="1.5"
          />
          <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" fill="none" stroke="currentColor" stroke-width="1.5" />
        </svg>
        Lock
      </button>
    </div>
  );
}

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
      <label class="account-pick">
        <span class="sr-only">Account</span>
        <select
          data-testid="account-select"
          value={wallet.activeId ?? ''}
          title={active ? `${active.name} · ${active.address}` : undefined}
          onChange={(event) => run({ type: 'walletSetActive', id: event.currentTarget.value })}
        >
          {wallet.accounts.map((account) => (
            <option key={account.id} value={account.id} title={account.address}>
              {account.name} · {short(account.address)}
            </option>
          ))}
        </select>
      </label>
      <HeaderActions
        receiveOpen={receiveOpen}
        onReceive={onReceive}
        accountsOpen={accountsOpen}
        onAccounts={onAccounts}
        run={run}
      />
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
