// The approval window: who asks (the origin the browser reported, with warnings), what happens,
// and plainly named buttons. It follows the background's queue; closing it rejects what waits.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ApprovalsState } from '@/lib/dapp/approval';
import { BackgroundError, callBackground } from '@/lib/messaging/client';
import { AccountChoice } from './AccountChoice';
import { useActivationDelay } from './activation';
import { Detail } from './Detail';
import { Header } from './Header';
import { WaitingList } from './WaitingList';
import { Warnings, warningsOf } from './Warnings';

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

// Polling also keeps the MV3 worker awake while the user reads; it does not count as activity
// for the auto-lock (the background knows it is polling).
const POLL_MS = 1000;

/** The background's queue, polled; `selected` is the request the user moved to. */
function useApprovals() {
  const [state, setState] = useState<ApprovalsState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const selected = useRef<string | undefined>(undefined);
  const load = useCallback(async () => {
    try {
      setState(await callBackground({ type: 'dappApprovals', selected: selected.current }));
    } catch (caught) {
      setError(caught instanceof BackgroundError ? caught.message : 'Swaplane did not answer.');
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);
  return { state, setState, error, setError, selected, load };
}

export function Approve() {
  const { state, setState, error, setError, selected, load } = useApprovals();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [ticked, setTicked] = useState<string[]>([]);
  const [accounts, setAccounts] = useState<string[] | null>(null);

  useEffect(() => {
    // Nothing left to decide: the window goes away by itself.
    if (state && !state.current && !error && !busy) window.close();
  }, [state, error, busy]);

  const request = state?.current ?? null;
  const shownId = request?.id ?? null;
  const armed = useActivationDelay(shownId);
  useEffect(() => {
    // Each request is reviewed on its own: its ticks and choices start empty.
    setTicked([]);
    setAccounts(null);
    selected.current = shownId ?? undefined;
  }, [shownId]);

  if (!state) return <main>{error ? <p role="alert">{error}</p> : <p>Loading…</p>}</main>;
  if (!request) return <NothingToApprove error={error} />;
  const locked = state.wallet !== 'unlocked';
  const warnings = warningsOf(request);
  const toTick = warnings.filter((warning) => warning.tick).map((warning) => warning.code);
  const allTicked = toTick.every((code) => ticked.includes(code));
  const chosen =
    request.detail.kind === 'connect'
      ? (accounts ?? request.detail.accounts.filter((account) => account.active).map((a) => a.address))
      : null;

  const select = (id: string) => {
    selected.current = id;
    void load();
  };

  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const next = await callBackground({
        type: 'dappDecide',
        id: request.id,
        approve,
        ...(approve && locked ? { password } : {}),
        ...(approve && toTick.length > 0 ? { acknowledged: ticked } : {}),
        ...(approve && chosen ? { accounts: chosen } : {}),
      });
      setPassword('');
      selected.current = undefined;
      setState(next);
    } catch (caught) {
      setError(caught instanceof BackgroundError ? caught.message : 'Swaplane did not answer.');
      await load();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Header view={request} order={state.order} onSelect={select} />
      <main>
        <h1>{TITLES[request.detail.kind]}</h1>
        <section aria-label="Requesting site">
          <p>
            <span class="origin">{request.origin}</span> asks for a {KIND_NAMES[request.detail.kind]}.
          </p>
          <Embedder embeddedIn={request.embeddedIn} origin={request.origin} />
        </section>
        <Warnings warnings={warnings} ticked={ticked} onTick={setTicked} />
        {request.detail.kind === 'connect' ? (
          <AccountChoice accounts={request.detail.accounts} chosen={chosen ?? []} onChange={setAccounts} />
        ) : null}
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
          <button
            type="button"
            class="primary"
            disabled={
              busy ||
              !armed ||
              !allTicked ||
              (locked && !password) ||
              (chosen !== null && chosen.length === 0)
            }
            onClick={() => void decide(true)}
          >
            {APPROVE_LABEL[request.detail.kind]}
          </button>
        </div>
      </main>
    </>
  );
}

function NothingToApprove({ error }: { error: string | null }) {
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

/**
 * A frame of another site asks: the frame's origin is the one asking, connected and shown above;
 * the page the user sees around it is another, named here so neither passes for the other.
 */
function Embedder({ embeddedIn, origin }: { embeddedIn: string | null | undefined; origin: string }) {
  if (embeddedIn === undefined) return null;
  return (
    <p>
      It asks from a frame inside{' '}
      {embeddedIn === null ? 'a page Swaplane cannot name' : <span class="origin">{embeddedIn}</span>}. Your
      answer is for <span class="origin">{origin}</span> only.
    </p>
  );
}
