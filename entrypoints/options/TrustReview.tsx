// "Review changed settings": shown when the settings that decide whom Swaplane trusts no longer
// match what the user last confirmed (written by something other than Swaplane). Nothing is signed
// until the user checks the values on this page and confirms them, unlocked.
import { useEffect, useState } from 'preact/hooks';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import type { Settings } from '@/lib/settings/settings';
import type { TrustStatus } from '@/lib/wallet/trust-mac';
import { PasswordStep } from './PasswordStep';

const NEEDS_REVIEW: TrustStatus['state'][] = ['changed', 'forged', 'unconfirmed'];

export function TrustReview({
  onConfirmed,
  onDiscarded,
}: {
  onConfirmed: () => void;
  /** After a discard, with the settings as put back. */
  onDiscarded: (settings: Settings) => void;
}) {
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

  // Confirm seals what is shown; Discard puts back what the user last confirmed for each changed field.
  const decide = async (event: Event) => {
    event.preventDefault();
    const choice =
      (event as SubmitEvent).submitter?.getAttribute('value') === 'discard' ? 'discard' : 'confirm';
    setError(null);
    try {
      const wallet = await callBackground({ type: 'walletState' });
      if (wallet.status === 'locked') await callBackground({ type: 'walletUnlock', password });
      setStatus(
        await callBackground({ type: choice === 'discard' ? 'discardTrustChanges' : 'confirmTrustSettings' }),
      );
      onConfirmed();
      if (choice === 'discard') onDiscarded(await callBackground({ type: 'getSettings' }));
    } catch (failure) {
      setError(failure instanceof BackgroundError ? failure.message : String(failure));
    }
  };

  return (
    <section class="trust-review" aria-labelledby="trust-review-title">
      <h2 id="trust-review-title">Review changed settings</h2>
      <p role="alert">{status.message}</p>
      <p>
        Check the values named above on this page (the swap service, RPCs, chain names, explorer hosts,
        slippage, the calldata rule, connected sites). If you did not set them, discard the change: a changed
        service, RPC or connected site is how funds are stolen.
      </p>
      <form onSubmit={decide}>
        <PasswordStep
          label="Wallet password (if locked)"
          password={password}
          onPassword={setPassword}
          error={error}
        />
        <button type="submit" class="danger" value="confirm">
          These settings are mine: confirm them
        </button>
        <button type="submit" value="discard">
          Discard the change: put back what I confirmed
        </button>
      </form>
    </section>
  );
}
