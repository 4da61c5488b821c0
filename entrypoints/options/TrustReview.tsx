// "Review changed settings": shown when the settings that decide whom Swaplane trusts no longer
// match what the user last confirmed (written by something other than Swaplane). Nothing is signed
// until the user checks the values on this page and confirms them, unlocked.
import { useEffect, useState } from 'preact/hooks';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import type { TrustStatus } from '@/lib/wallet/trust-mac';
import { PasswordStep } from './PasswordStep';

const NEEDS_REVIEW: TrustStatus['state'][] = ['changed', 'forged', 'unconfirmed'];

export function TrustReview({ onConfirmed }: { onConfirmed: () => void }) {
  const [status, setStatus] = useState<TrustStatus | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    callBackground({ type: 'trustSettingsStatus' }).then(setStatus, () => setStatus(null));
  }, []);

  if (!status || !NEEDS_REVIEW.includes(status.state)) {
    return status?.state === 'locked' ? (
      <p class="hint" data-testid="trust-locked">
        Unlock the wallet in the popup to check that these settings are the ones you confirmed.
      </p>
    ) : null;
  }

  const confirm = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const wallet = await callBackground({ type: 'walletState' });
      if (wallet.status === 'locked') await callBackground({ type: 'walletUnlock', password });
      setStatus(await callBackground({ type: 'confirmTrustSettings' }));
      onConfirmed();
    } catch (failure) {
      setError(failure instanceof BackgroundError ? failure.message : String(failure));
    }
  };

  return (
    <section class="trust-review" aria-labelledby="trust-review-title">
      <h2 id="trust-review-title">Review changed settings</h2>
      <p role="alert">{status.message}</p>
      <p>
        Check the swap service, the RPC URLs, the API chain names and the explorer hosts below. If you did not
        set them, correct them before you confirm: a changed service or RPC is how funds are stolen.
      </p>
      <form onSubmit={confirm}>
        <PasswordStep
          label="Wallet password (if locked)"
          password={password}
          onPassword={setPassword}
          error={error}
        />
        <button type="submit" class="danger">
          These settings are mine: confirm them
        </button>
      </form>
    </section>
  );
}
