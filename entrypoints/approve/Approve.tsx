// The approval window: who asks (the origin the browser reported, with warnings), what happens,
// and plainly named buttons. It follows the background's queue; closing it rejects what waits.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApprovalsState } from '@/lib/dapp/approval';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import { Detail } from './Detail';

const TITLES = {
  connect: 'Connect to this site?',
  sign: 'Sign this message?',
  'typed-data': 'Sign this data?',
  transaction: 'Confirm this transaction?',
} as const;

const APPROVE_LABEL = {
  connect: 'Connect',
  sign: 'Sign',
  'typed-data': 'Sign',
  transaction: 'Confirm',
} as const;

const KIND_NAMES: Record<string, string> = {
  connect: 'connection',
  sign: 'signature',
  'typed-data': 'signature',
  transaction: 'transaction',
};

// Polling also keeps the MV3 worker (which holds the waiting requests) awake while the user reads.
const POLL_MS = 1000;

export function Approve() {
  const [state, setState] = useState<ApprovalsState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setState(await callBackground({ type: 'dappApprovals' }));
    } catch (caught) {
      setError(caught instanceof BackgroundError ? caught.message : 'Swaplane did not answer.');
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  useEffect(() => {
    // Nothing left to decide: the window goes away by itself.
    if (state && !state.current && !error && !busy) window.close();
  }, [state, error, busy]);

  if (!state) return <main>{error ? <p role="alert">{error}</p> : <p>Loading…</p>}</main>;
  const request = state.current;
  if (!request) {
    return (
      <main>
        <h1>Nothing to approve</h1>
        {error ? (
          <p role="alert" class="error">
            {error}
          </p>
        ) : null}
        <div class="actions">
          <button type="button" onClick={() => window.close()}>
            Close
          </button>
        </div>
      </main>
    );
  }
  const locked = state.wallet !== 'unlocked';

  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const next = await callBackground({
        type: 'dappDecide',
        id: request.id,
        approve,
        ...(approve && locked ? { password } : {}),
      });
      setPassword('');
      setState(next);
    } catch (caught) {
      setError(caught instanceof BackgroundError ? caught.message : 'Swaplane did not answer.');
      await load();
    } finally {
      setBusy(false);
    }
  };

  return (
    <main>
      <h1>{TITLES[request.detail.kind]}</h1>
      <section aria-label="Requesting site">
        <p>
          <span class="origin">{request.origin}</span> asks for a {KIND_NAMES[request.detail.kind]}.
        </p>
        {request.warnings.map((warning) => (
          <p key={warning.code} role="alert" class="warning">
            {warning.message}
          </p>
        ))}
      </section>
      <Detail detail={request.detail} />
      <WaitingList waiting={state.waiting} />
      {locked ? (
        <label>
          Password
          <input
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
          <small>Swaplane is locked: your password unlocks it for this request.</small>
        </label>
      ) : null}
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void decide(false)}>
          Reject
        </button>
        <button type="button" disabled={busy || (locked && !password)} onClick={() => void decide(true)}>
          {APPROVE_LABEL[request.detail.kind]}
        </button>
      </div>
    </main>
  );
}

/** The queue the user can see: what else waits behind the request shown. */
function WaitingList({ waiting }: { waiting: ApprovalsState['waiting'] }) {
  if (waiting.length === 0) return null;
  return (
    <section aria-label="Waiting requests">
      <h2>
        {waiting.length} more {waiting.length === 1 ? 'request' : 'requests'} waiting
      </h2>
      <ul>
        {waiting.map((entry) => (
          <li key={entry.id}>
            {entry.origin}: {KIND_NAMES[entry.kind] ?? entry.kind}
          </li>
        ))}
      </ul>
    </section>
  );
}
