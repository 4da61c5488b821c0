// The wallet password and the error of a settings confirmation (a trust change, a trust review).
export function PasswordStep({
  label,
  password,
  onPassword,
  error,
}: {
  /** Null: the wallet is unlocked, no password asked. */
  label: string | null;
  password: string;
  onPassword: (password: string) => void;
  error: string | null;
}) {
  return (
    <>
      {label && (
        <label>
          {label}
          <input
            type="password"
            autoComplete="current-password"
            value={password}
            onInput={(event) => onPassword(event.currentTarget.value)}
          />
        </label>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </>
  );
}
