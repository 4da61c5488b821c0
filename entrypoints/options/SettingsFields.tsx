// The settings form's fieldsets (Swap service, Networks, Trading) and the check Save runs before it
// sends anything. Options.tsx holds the state and the saving.
import { CHAINS } from '@/lib/chains';
import { checkOneClickAmount, checkOneClickAmounts } from '@/lib/settings/one-click';
import { DEVNET_PRESET, type Settings, SettingsSchema } from '@/lib/settings/settings';
import type { checkSlippage } from '@/lib/swap/slippage';

const FIELD_LABELS: Record<string, string> = {
  serviceBaseUrl: 'Service base URL',
  rpcOverrides: 'RPC URL',
  chainNameOverrides: 'API chain name',
  slippage: 'Default slippage',
  refCode: 'Referral code',
  oneClickAmount: 'One-click quote amount',
  explorerHosts: 'Explorer hosts',
  autoLockMinutes: 'Auto-lock',
};

/** The settings Save would send, or the one line that says why it sends nothing. */
export function checkedSettings(
  settings: Settings,
  amountText: string,
  perChain: Record<string, string>,
): { ok: true; settings: Settings } | { ok: false; message: string } {
  const amountCheck = checkOneClickAmount(amountText);
  if (!amountCheck.ok) return { ok: false, message: `One-click quote amount: ${amountCheck.message}` };
  const perChainCheck = checkOneClickAmounts(perChain);
  if (!perChainCheck.ok) {
    const name = CHAINS.find((chain) => String(chain.chainId) === perChainCheck.chainId)?.name;
    return { ok: false, message: `One-click amount on ${name}: ${perChainCheck.message}` };
  }
  const candidate = SettingsSchema.safeParse({
    ...settings,
    oneClickAmount: amountCheck.text,
    oneClickAmounts: perChainCheck.value,
  });
  if (!candidate.success) {
    const issue = candidate.error.issues[0];
    const field = FIELD_LABELS[String(issue?.path[0] ?? '')] ?? 'Settings';
    return { ok: false, message: `${field}: ${issue?.message ?? 'invalid value'}` };
  }
  return { ok: true, settings: candidate.data };
}

interface FieldsProps {
  settings: Settings;
  patch: (next: Partial<Settings>) => void;
}

export function ServiceFields({
  settings,
  patch,
  replace,
}: FieldsProps & { replace: (next: Settings) => void }) {
  return (
    <fieldset>
      <legend>Swap service</legend>
      <label>
        Service base URL
        <input
          type="url"
          required
          value={settings.serviceBaseUrl}
          onInput={(event) => patch({ serviceBaseUrl: event.currentTarget.value.trim() })}
        />
      </label>
      <label>
        Referral code (optional)
        <input
          type="number"
          min="0"
          step="1"
          value={settings.refCode ?? ''}
          onInput={(event) => {
            const raw = event.currentTarget.value;
            const { refCode: _drop, ...rest } = settings;
            replace(raw === '' ? rest : { ...settings, refCode: Number(raw) });
          }}
        />
      </label>
      {DEVNET_PRESET && (
        <button
          type="button"
          onClick={() =>
            DEVNET_PRESET &&
            patch({
              serviceBaseUrl: DEVNET_PRESET.serviceBaseUrl,
              rpcOverrides: { ...DEVNET_PRESET.rpcOverrides },
            })
          }
        >
          Use the local devnet preset
        </button>
      )}
    </fieldset>
  );
}

/** `record` with `key` set to `value`, or without `key` when `value` is empty. */
function withEntry(record: Record<string, string>, key: string, value: string): Record<string, string> {
  const next = { ...record };
  if (value) next[key] = value;
  else delete next[key];
  return next;
}

export function NetworkFields({ settings, patch }: FieldsProps) {
  return (
    <fieldset>
      <legend>Networks</legend>
      {CHAINS.map((chain) => {
        const key = String(chain.chainId);
        return (
          <div key={key} class="chain-row">
            <label>
              {chain.name} RPC URL
              <input
                type="url"
                placeholder={chain.defaultRpcUrl}
                value={settings.rpcOverrides[key] ?? ''}
                onInput={(event) =>
                  patch({
                    rpcOverrides: withEntry(settings.rpcOverrides, key, event.currentTarget.value.trim()),
                  })
                }
              />
            </label>
            <label>
              {chain.name} API chain name
              <input
                placeholder={chain.apiChainName}
                value={settings.chainNameOverrides[key] ?? ''}
                onInput={(event) =>
                  patch({
                    chainNameOverrides: withEntry(
                      settings.chainNameOverrides,
                      key,
                      event.currentTarget.value.trim(),
                    ),
                  })
                }
              />
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}

/** General: the default slippage and the explorer pages' one-click amount. */
export function GeneralFields({
  settings,
  patch,
  slippageCheck,
  amountText,
  onAmountText,
}: FieldsProps & {
  slippageCheck: ReturnType<typeof checkSlippage>;
  amountText: string;
  onAmountText: (text: string) => void;
}) {
  const amountCheck = checkOneClickAmount(amountText);
  return (
    <fieldset>
      <legend>Swaps</legend>
      <label>
        Default slippage (%)
        <input
          type="number"
          step="0.1"
          min="0.01"
          max="50"
          value={settings.slippage}
          aria-describedby="slippage-note"
          onInput={(event) => patch({ slippage: Number(event.currentTarget.value) })}
        />
      </label>
      {slippageCheck.level !== 'ok' && (
        <p id="slippage-note" role="alert" class={slippageCheck.level}>
          {slippageCheck.message}
        </p>
      )}
      <label>
        One-click quote amount (native coin)
        <input
          inputMode="decimal"
          value={amountText}
          aria-describedby="one-click-note"
          onInput={(event) => onAmountText(event.currentTarget.value)}
        />
      </label>
      <p
        id="one-click-note"
        class={amountCheck.ok ? undefined : 'error'}
        role={amountCheck.ok ? undefined : 'alert'}
      >
        {amountCheck.ok
          ? `Explorer pages quote ${amountCheck.text} of the chain’s coin (ETH, BNB, POL…) into the token.`
          : `One-click amount: ${amountCheck.message}`}
      </p>
    </fieldset>
  );
}

/** Security: when the wallet locks itself, and which swap calls may be signed. */
export function SecurityFields({ settings, patch }: FieldsProps) {
  return (
    <fieldset>
      <legend>Wallet</legend>
      <label>
        Auto-lock after (minutes)
        <input
          type="number"
          min="1"
          max="1440"
          step="1"
          value={settings.autoLockMinutes}
          onInput={(event) => patch({ autoLockMinutes: Number(event.currentTarget.value) })}
        />
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={settings.onlyReadableCalldata !== false}
          aria-describedby="calldata-note"
          onChange={(event) => patch({ onlyReadableCalldata: event.currentTarget.checked })}
        />
        <span>Only sign swap calls Swaplane can read</span>
      </label>
      <p class="hint" id="calldata-note">
        On: a swap call Swaplane cannot decode and check is refused. Off: it is signed only when a simulation
        shows exactly what it does to your balances and you confirm it.
      </p>
      <p class="hint">
        Password and recovery phrase: in Swaplane’s popup, open Manage accounts (the person button) to change
        the password or reveal the recovery phrase; on the unlock screen, Forgot password? restores the wallet
        from its phrase.
      </p>
    </fieldset>
  );
}
