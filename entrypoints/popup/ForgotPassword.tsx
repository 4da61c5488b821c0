import { useState } from 'preact/hooks';
import { PasswordInput } from '@/components/PasswordInput';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { messageOf } from './messages';

/**
 * "Forgot password?": the wallet made again from its recovery phrase under a new password, after a
 * warning that says what is replaced. Nothing changes until the phrase and both passwords check out.
 */
export function ForgotPassword({
  onRestored,
  onBack,
}: {
  onRestored: (state: WalletState) => void;
  onBack: () => void;
}) {
  const [phrase, setPhrase] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onRestored(await callBackground({ type: 'walletRestore', mnemonic: phrase, password, confirmation }));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack" onSubmit={submit}>
      <h2>Restore from your recovery phrase</h2>
      <div class="warning" role="note">
        <p>
          This replaces the wallet on this browser with the one your phrase makes, under a new password.
          Accounts you imported with a private key are not in the phrase and will be removed: have their keys
          at hand. Without the phrase, nobody can restore this wallet.
        </p>
      </div>
      <label class="field-label" for="restore-phrase">
        Recovery phrase (12 or 24 words)
      </label>
      <textarea
        id="restore-phrase"
        rows={3}
        autocomplete="off"
        spellcheck={false}
        value={phrase}
        onInput={(event) => {
          setPhrase(event.currentTarget.value);
          setError(null);
        }}
      />
      <label class="field-label" for="restore-password">
        New password (at least 8 characters)
      </label>
      <PasswordInput
        id="restore-password"
        autocomplete="new-password"
        value={password}
        onInput={(value) => {
          setPassword(value);
          setError(null);
        }}
      />
      <label class="field-label" for="restore-confirm">
        Confirm new password
      </label>
      <PasswordInput
        id="restore-confirm"
        autocomplete="new-password"
        value={confirmation}
        onInput={(value) => {
          setConfirmation(value);
          setError(null);
        }}
      />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || phrase.trim() === '' || password === ''}>
        {busy ? 'Restoring…' : 'Replace and restore the wallet'}
      </button>
      <button type="button" onClick={onBack}>
        Back to unlock
      </button>
    </form>
  );
}
