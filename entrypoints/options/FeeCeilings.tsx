import { CHAINS } from '@/lib/chains';
import { DEFAULT_FEE_CEILINGS_GWEI, FALLBACK_FEE_CEILING_GWEI, GWEI_TEXT } from '@/lib/rpc/fee-ceiling';
import type { Settings } from '@/lib/settings/settings';

type Checked = { ok: true; settings: Settings } | { ok: false; message: string };

/**
 * The settings with their fee ceilings as typed made canonical: blank is the chain's default (and
 * no ceiling set leaves the field out); anything else must read as gwei above 0.
 */
export function withFeeCeilings(checked: Checked): Checked {
  if (!checked.ok) return checked;
  const { feeCeilingsGwei: texts = {}, ...rest } = checked.settings;
  const value: Record<string, string> = {};
  for (const [chainId, raw] of Object.entries(texts)) {
    const text = raw.trim();
    if (text === '') continue;
    const name = CHAINS.find((chain) => String(chain.chainId) === chainId)?.name ?? `chain ${chainId}`;
    if (!GWEI_TEXT.test(text) || Number(text) === 0)
      return {
        ok: false,
        message: `Fee ceiling on ${name}: enter a fee per gas in gwei above 0, like 500 or 0.5.`,
      };
    value[chainId] = text;
  }
  return { ok: true, settings: Object.keys(value).length > 0 ? { ...rest, feeCeilingsGwei: value } : rest };
}

/**
 * One field per chain: the most any transaction Swaplane signs may pay per gas there. No RPC answer
 * can raise it; blank keeps the default shown.
 */
export function FeeCeilings({
  settings,
  patch,
}: {
  settings: Settings;
  patch: (next: Partial<Settings>) => void;
}) {
  const texts = settings.feeCeilingsGwei ?? {};
  return (
    <fieldset>
      <legend>Network fee ceilings</legend>
      <p>
        Swaplane never signs a transaction that may pay more than this per unit of gas, whatever the network
        or its RPC says. Blank keeps the default.
      </p>
      {CHAINS.map((chain) => {
        const key = String(chain.chainId);
        const [defaultGwei] = DEFAULT_FEE_CEILINGS_GWEI[chain.chainId] ?? FALLBACK_FEE_CEILING_GWEI;
        return (
          <label key={key}>
            {`Highest fee per gas on ${chain.name} (gwei)`}
            <input
              inputMode="decimal"
              placeholder={String(defaultGwei)}
              value={texts[key] ?? ''}
              onInput={(event) => patch({ feeCeilingsGwei: { ...texts, [key]: event.currentTarget.value } })}
            />
          </label>
        );
      })}
    </fieldset>
  );
}
