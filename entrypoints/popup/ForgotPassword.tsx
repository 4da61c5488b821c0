import { useState } from 'preact/hooks';
import { NewPasswordFields } from '@/components/NewPasswordFields';
import { callBackground } from '@/lib/messaging/client';
import { passwordProblems } from '@/lib/wallet/password';
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
  // The password pair's problems all at once, or the background's answer; cleared by any edit.
  const [errors, setErrors] = useState<string[]>([]);
  const [pairInvalid, setPairInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const edited = (set: (value: string) => void) => (value: string) => {
    set(value);
    setErrors([]);
    setPairInvalid(false);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const problems = passwordProblems(password, confirmation);
    setErrors(problems);
    setPairInvalid(problems.length > 0);
    if (problems.length > 0) return;
    setBusy(true);
    try {
      onRestored(await callBackground({ type: 'walletRestore', mnemonic: phrase, password, confirmation }));
    } catch (failure) {
      setErrors([messageOf(failure)]);
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
        onInput={(event) => edited(setPhrase)(event.currentTarget.value)}
      />
      <NewPasswordFields
        idPrefix="restore-"
        confirmLabel="Confirm new password"
        password={password}
        confirmation={confirmation}
        onPassword={edited(setPassword)}
        onConfirmation={edited(setConfirmation)}
        invalid={pairInvalid}
      />
      {errors.length > 0 && (
        <div class="error" role="alert">
          {errors.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
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
