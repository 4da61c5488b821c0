// Change the wallet's password: the current one (checked under the unlock backoff), then the new one
// twice. The vault is re-encrypted with the new password; the accounts do not change.
import { useState } from 'preact/hooks';
import { NewPasswordFields } from '@/components/NewPasswordFields';
import { PasswordInput } from '@/components/PasswordInput';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { messageOf } from './messages';

export function ChangePassword({
  onChange,
  onClose,
}: {
  onChange: (state: WalletState) => void;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      onChange(await callBackground({ type: 'walletChangePassword', password, newPassword, confirmation }));
      setDone(true);
      setPassword('');
      setNewPassword('');
      setConfirmation('');
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack card" onSubmit={submit} aria-labelledby="change-password-heading">
      <div class="screen-head">
        <h3 id="change-password-heading">Change password</h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <label class="field-label" for="current-password">
        Current password
      </label>
      <PasswordInput
        id="current-password"
        autocomplete="current-password"
        value={password}
        onInput={setPassword}
        invalid={error !== null}
        describedBy={error ? 'change-password-error' : undefined}
      />
      <NewPasswordFields
        idPrefix="change-"
        confirmLabel="Confirm new password"
        password={newPassword}
        confirmation={confirmation}
        onPassword={setNewPassword}
        onConfirmation={setConfirmation}
        invalid={error !== null}
      />
      {error && (
        <p id="change-password-error" class="error" role="alert">
          {error}
        </p>
      )}
      {done && (
        <p role="status" class="muted">
          Password changed. Use the new password from now on.
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || password === '' || newPassword === ''}>
        {busy ? 'Changing…' : 'Save new password'}
      </button>
    </form>
  );
}
