// The account screen, opened from the account bar: rename the active account, import an extra
// account from a private key, and reveal the recovery phrase or an imported key after the password.
// A revealed secret stays hidden until asked for, and is dropped from state on Hide, on choosing
// another secret, and when the screen closes (unmount).
import { useEffect, useState } from 'preact/hooks';
import { callBackground } from '@/lib/messaging/client';
import type { WalletState } from '@/lib/wallet/state';
import { ChangePassword } from './ChangePassword';
import { useAttempt } from './hooks/useAttempt';

const NAME_MAX = 40;

type Account = WalletState['accounts'][number];

export function RenameAccount({
  account,
  onChange,
}: {
  account: Account;
  onChange: (state: WalletState) => void;
}) {
  const [name, setName] = useState(account.name);
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, setError, attempt } = useAttempt();
  useEffect(() => {
    setName(account.name);
    setDone(null);
    setError(null);
  }, [account.id]);
  const submit = (event: Event) => {
    event.preventDefault();
    setDone(null);
    const trimmed = name.trim();
    if (trimmed === '') {
      setError('Enter a name for this account.');
      return;
    }
    void attempt(async () => {
      onChange(await callBackground({ type: 'walletRename', id: account.id, name: trimmed }));
      setDone(`Renamed to “${trimmed}”.`);
    });
  };
  return (
    <form class="stack card" onSubmit={submit} aria-labelledby="rename-heading">
      <h3 id="rename-heading">Rename account</h3>
      <label class="field-label" for="rename-name">
        Account name
      </label>
      <input
        id="rename-name"
        maxLength={NAME_MAX}
        autocomplete="off"
        value={name}
        aria-invalid={error !== null}
        aria-describedby={error ? 'rename-error' : undefined}
        onInput={(event) => setName(event.currentTarget.value)}
      />
      {error && (
        <p id="rename-error" class="error" role="alert">
          {error}
        </p>
      )}
      <p class="muted" role="status">
        {done ?? ''}
      </p>
      <button type="submit" disabled={busy || name.trim() === account.name}>
        {busy ? 'Saving…' : 'Save name'}
      </button>
    </form>
  );
}

export function ImportKey({ onChange }: { onChange: (state: WalletState) => void }) {
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, attempt } = useAttempt();
  const submit = (event: Event) => {
    event.preventDefault();
    setDone(null);
    const trimmedName = name.trim();
    void attempt(async () => {
      const state = await callBackground({
        type: 'walletImportKey',
        privateKey: key,
        ...(trimmedName ? { name: trimmedName } : {}),
      });
      setKey('');
      setName('');
      const added = state.accounts.find((account) => account.id === state.activeId);
      setDone(added ? `Imported “${added.name}”; it is now the active account.` : 'Imported.');
      onChange(state);
    });
  };
  return (
    <form class="stack card" onSubmit={submit} aria-labelledby="import-key-heading">
      <h3 id="import-key-heading">Import a private key</h3>
      <p class="muted">
        Adds one more account from its private key. It is encrypted with your password, like the rest of the
        wallet; back it up yourself, the recovery phrase does not cover it.
      </p>
      <label class="field-label" for="import-key">
        Private key (64 hex characters)
      </label>
      <textarea
        id="import-key"
        rows={2}
        autocomplete="off"
        spellcheck={false}
        value={key}
        aria-invalid={error !== null}
        aria-describedby={error ? 'import-key-error' : undefined}
        onInput={(event) => setKey(event.currentTarget.value)}
      />
      <label class="field-label" for="import-key-name">
        Name (optional)
      </label>
      <input
        id="import-key-name"
        maxLength={NAME_MAX}
        autocomplete="off"
        value={name}
        onInput={(event) => setName(event.currentTarget.value)}
      />
      {error && (
        <p id="import-key-error" class="error" role="alert">
          {error}
        </p>
      )}
      <p class="muted" role="status">
        {done ?? ''}
      </p>
      <button type="submit" disabled={busy || key.trim() === ''}>
        {busy ? 'Importing…' : 'Import key'}
      </button>
    </form>
  );
}

/** What can be revealed: the phrase when there are derived accounts, and each imported key. */
export function revealTargets(wallet: WalletState): { value: string; label: string }[] {
  const targets: { value: string; label: string }[] = [];
  if (wallet.accounts.some((account) => account.kind === 'derived'))
    targets.push({ value: 'mnemonic', label: 'Recovery phrase' });
  for (const account of wallet.accounts) {
    if (account.kind === 'imported')
      targets.push({ value: account.id, label: `Private key of “${account.name}”` });
  }
  return targets;
}

export function RevealSecret({ wallet }: { wallet: WalletState }) {
  const targets = revealTargets(wallet);
  const [target, setTarget] = useState(targets[0]?.value ?? '');
  const [password, setPassword] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const { busy, error, setError, attempt } = useAttempt();
  const forget = () => {
    setSecret(null);
    setShown(false);
  };
  // Leaving the screen drops the secret (Preact discards the state; this says so explicitly).
  useEffect(() => forget, []);
  if (targets.length === 0) return null;
  const label = targets.find((entry) => entry.value === target)?.label ?? '';
  const submit = (event: Event) => {
    event.preventDefault();
    forget();
    const typed = password;
    setPassword('');
    void attempt(async () => {
      const answer = await callBackground({ type: 'walletReveal', password: typed, target });
      setSecret(answer.secret);
    });
  };
  return (
    <form class="stack card" onSubmit={submit} aria-labelledby="reveal-heading">
      <h3 id="reveal-heading">Reveal a secret</h3>
      <p class="warning" id="reveal-warning">
        Anyone who sees your recovery phrase or a private key can take everything in those accounts. Reveal it
        only to back it up, with no one watching and no screen sharing. Swaplane never asks you for it.
      </p>
      <label class="field-label" for="reveal-target">
        What to reveal
      </label>
      <select
        id="reveal-target"
        value={target}
        onChange={(event) => {
          setTarget(event.currentTarget.value);
          forget();
          setError(null);
        }}
      >
        {targets.map((entry) => (
          <option key={entry.value} value={entry.value}>
            {entry.label}
          </option>
        ))}
      </select>
      <label class="field-label" for="reveal-password">
        Password
      </label>
      <input
        id="reveal-password"
        type="password"
        autocomplete="current-password"
        value={password}
        aria-invalid={error !== null}
        aria-describedby={error ? 'reveal-error reveal-warning' : 'reveal-warning'}
        onInput={(event) => setPassword(event.currentTarget.value)}
      />
      {error && (
        <p id="reveal-error" class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy || password === ''}>
        {busy ? 'Checking…' : 'Reveal'}
      </button>
      {secret !== null && (
        <section class="secret-box" aria-label={label} data-testid="revealed">
          {shown ? (
            <p class="secret" data-testid="revealed-secret">
              {secret}
            </p>
          ) : (
            <p class="muted" data-testid="secret-hidden">
              {label} is hidden. Show it only where no one can see your screen.
            </p>
          )}
          <div class="row">
            <button type="button" aria-pressed={shown} onClick={() => setShown(!shown)}>
              {shown ? 'Hide' : 'Show'}
            </button>
            <button type="button" onClick={forget}>
              Done, forget it
            </button>
          </div>
        </section>
      )}
    </form>
  );
}

export function AccountScreen({
  wallet,
  onChange,
  onClose,
}: {
  wallet: WalletState;
  onChange: (state: WalletState) => void;
  onClose: () => void;
}) {
  const active = wallet.accounts.find((account) => account.id === wallet.activeId);
  const [changingPassword, setChangingPassword] = useState(false);
  return (
    <section class="stack" aria-labelledby="account-heading" data-testid="account-screen">
      <div class="screen-head">
        <h2 id="account-heading">Accounts</h2>
        <button type="button" onClick={onClose}>
          Back to swap
        </button>
      </div>
      {active && <RenameAccount account={active} onChange={onChange} />}
      <ImportKey onChange={onChange} />
      <RevealSecret wallet={wallet} />
      {changingPassword ? (
        <ChangePassword onChange={onChange} onClose={() => setChangingPassword(false)} />
      ) : (
        <button type="button" onClick={() => setChangingPassword(true)}>
          Change password
        </button>
      )}
    </section>
  );
}
