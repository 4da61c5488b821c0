// Which of the wallet's accounts a connecting site may see: the active one ticked by default.
import type { ApprovalDetail } from '@/lib/dapp/approval';

type Offered = Extract<ApprovalDetail, { kind: 'connect' }>['accounts'];

export function AccountChoice({
  accounts,
  chosen,
  onChange,
}: {
  accounts: Offered;
  chosen: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const active = accounts.find((account) => account.active);
  // Leaving the active account out makes the first chosen one active (only the active account signs).
  const switchTo =
    active && !chosen.includes(active.address) ? accounts.find((a) => chosen.includes(a.address)) : undefined;
  return (
    <fieldset class="accounts">
      <legend>Accounts this site may see</legend>
      {accounts.map((account) => (
        <label key={account.address}>
          <input
            type="checkbox"
            checked={chosen.includes(account.address)}
            onChange={(event) =>
              onChange(
                event.currentTarget.checked
                  ? [...chosen, account.address]
                  : chosen.filter((address) => address !== account.address),
              )
            }
          />
          <span>
            {account.name}
            {account.active ? ' (active)' : ''}
            <small class="address">{account.address}</small>
          </span>
        </label>
      ))}
      {chosen.length === 0 ? <p class="hint">Choose at least one account.</p> : null}
      {switchTo ? (
        <p class="note">Swaplane will switch to {switchTo.name}: the active account is the one that signs.</p>
      ) : null}
    </fieldset>
  );
}
