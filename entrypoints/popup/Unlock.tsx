import { useEffect, useState } from 'preact/hooks';
import { PasswordInput } from '@/components/PasswordInput';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { lazyScreen } from './lazy-screen';
import { messageOf } from './messages';

const ForgotPassword = lazyScreen(() => import('./ForgotPassword').then((m) => m.ForgotPassword), 'restore');

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
  const [retryAt, setRetryAt] = useState<number | null>(wallet.retryAt ?? null);
  const secondsLeft = useSecondsUntil(retryAt);
  const waiting = secondsLeft > 0;
  const [forgot, setForgot] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onUnlocked(await callBackground({ type: 'walletUnlock', password }));
    } catch (failure) {
      setError(messageOf(failure));
      setPassword('');
      // The backoff lives in the background (it survives a closed popup and a worker restart).
      const state = await callBackground({ type: 'walletState' }).catch(() => null);
      setRetryAt(state?.retryAt ?? null);
    } finally {
      setBusy(false);
    }
  };
  if (forgot) return <ForgotPassword onRestored={onUnlocked} onBack={() => setForgot(false)} />;
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
      {error && !waiting && (
        <p id="unlock-error" class="error" role="alert">
          {error}
        </p>
      )}
      {waiting && (
        <p id="unlock-error" class="error" role="timer" aria-live="polite" data-testid="unlock-wait">
          Too many wrong passwords. Try again in {secondsLeft} s.
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || waiting || password === ''}>
        {busy ? 'Unlocking…' : 'Unlock'}
      </button>
      <button type="button" class="link" onClick={() => setForgot(true)}>
        Forgot password?
      </button>
    </form>
  );
}

/** Whole seconds until `at` (0 once passed), ticking once a second. */
function useSecondsUntil(at: number | null): number {
  const left = () => (at === null ? 0 : Math.max(0, Math.ceil((at - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (at === null) return;
    const timer = setInterval(() => {
      const next = left();
      setSeconds(next);
      if (next === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [at]);
  return seconds;
}
