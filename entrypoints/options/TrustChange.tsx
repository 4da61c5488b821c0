// The confirmation a change of the swap service, an RPC or an API chain name needs once a wallet
// exists: it says what a service and an RPC can and cannot do, and asks for the password when the
// wallet is locked (the background refuses the change otherwise).
import { useEffect, useRef, useState } from 'preact/hooks';
import { PasswordStep } from './PasswordStep';

export function TrustChangeDialog({
  serviceChanged,
  serviceUrl,
  locked,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  serviceChanged: boolean;
  serviceUrl: string;
  locked: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: (password: string) => void;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  // A modal <dialog>: in view over the page wherever Save was (the page's top can be far above),
  // the rest inert until it is answered; Escape is Cancel.
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      class="trust-change"
      aria-labelledby="trust-change-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id="trust-change-title">
        {serviceChanged ? 'Change the swap service?' : 'Change how Swaplane reaches the network?'}
      </h2>
      {serviceChanged && (
        <p>
          New swap service: <code>{serviceUrl}</code>
        </p>
      )}
      <p>
        <strong>A swap service can</strong> choose the route and price of your swaps, build the transactions
        you are asked to sign, and see the tokens, amounts and address you quote with.
      </p>
      <p>
        <strong>It cannot</strong> sign for you or move funds on its own: Swaplane reads every swap call,
        checks it against the quote you reviewed, simulates what it does to your balances, and signs only what
        you confirm.
      </p>
      <p>
        <strong>An RPC</strong> reads your balances and sends your signed transactions: a dishonest one can
        show wrong balances or hold transactions back. Only use services and RPCs you trust.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(password);
        }}
      >
        <PasswordStep
          label={locked ? 'Wallet password' : null}
          password={password}
          onPassword={setPassword}
          error={error}
        />
        <button type="submit" class="danger" disabled={busy || (locked && password === '')}>
          {locked ? 'Unlock and change' : 'Confirm change'}
        </button>{' '}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </form>
    </dialog>
  );
}
