import { useState } from 'preact/hooks';
import { PasswordInput } from '@/components/PasswordInput';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { messageOf } from './messages';

export function Unlock({
  wallet,
  onUnlocked,
}: {
  wallet: WalletState;
  onUnlocked: (state: WalletState) => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onUnlocked(await callBackground({ type: 'walletUnlock', password }));
    } catch (failure) {
      setError(messageOf(failure));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack" onSubmit={submit}>
      <h2>Unlock</h2>
      {wallet.vaultError && (
        <p class="error" role="alert">
          {wallet.vaultError}
        </p>
      )}
      <label for="unlock-password" class="field-label">
        Password
      </label>
      <PasswordInput
        id="unlock-password"
        autocomplete="current-password"
        focusOnMount
        value={password}
        onInput={setPassword}
        invalid={error !== null}
        describedBy={error ? 'unlock-error' : undefined}
      />
      {error && (
        <p id="unlock-error" class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || password === ''}>
        {busy ? 'Unlocking…' : 'Unlock'}
      </button>
    </form>
  );
}
