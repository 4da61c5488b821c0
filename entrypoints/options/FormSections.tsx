// The settings form's sections people recognise: General, Security, Advanced (Sites, saved on their
// own, follow the form in Options.tsx).
import type { Settings } from '@/lib/settings/settings';
import type { checkSlippage } from '@/lib/swap/slippage';
import { ConnectedSites } from './ConnectedSites';
import { ExplorerHosts } from './ExplorerHosts';
import { FeeCeilings } from './FeeCeilings';
import { OneClickAmounts } from './OneClickAmounts';
import { GeneralFields, NetworkFields, SecurityFields, ServiceFields } from './SettingsFields';

export function FormSections({
  settings,
  patch,
  replace,
  slippageCheck,
  amountText,
  onAmountText,
  perChain,
  fallbackAmount,
  onPerChain,
}: {
  settings: Settings;
  patch: (next: Partial<Settings>) => void;
  replace: (next: Settings) => void;
  slippageCheck: ReturnType<typeof checkSlippage>;
  amountText: string;
  onAmountText: (text: string) => void;
  perChain: Record<string, string>;
  fallbackAmount: string;
  onPerChain: (chainId: string, text: string) => void;
}) {
  return (
    <>
      <section id="general" aria-labelledby="general-title">
        <h2 id="general-title" class="section-title">
          General
        </h2>
        <GeneralFields
          settings={settings}
          patch={patch}
          slippageCheck={slippageCheck}
          amountText={amountText}
          onAmountText={onAmountText}
        />
        <details class="more">
          <summary>One-click amount per network</summary>
          <OneClickAmounts texts={perChain} fallback={fallbackAmount} onInput={onPerChain} />
        </details>
      </section>
      <section id="security" aria-labelledby="security-title">
        <h2 id="security-title" class="section-title">
          Security
        </h2>
        <SecurityFields settings={settings} patch={patch} />
      </section>
      <section id="advanced" aria-labelledby="advanced-title">
        <h2 id="advanced-title" class="section-title">
          Advanced
        </h2>
        <p class="hint">Which swap service and RPCs Swaplane uses: change them only for ones you trust.</p>
        <ServiceFields settings={settings} patch={patch} replace={replace} />
        <NetworkFields settings={settings} patch={patch} />
        <FeeCeilings settings={settings} patch={patch} />
      </section>
    </>
  );
}

const SECTIONS = ['General', 'Security', 'Sites', 'Advanced'] as const;

/** Jumps to a section (buttons, not links: the views render no links but explorer ones). */
export function SectionNav() {
  return (
    <nav aria-label="Settings sections" class="section-nav">
      {SECTIONS.map((name) => (
        <button
          key={name}
          type="button"
          onClick={() => document.getElementById(name.toLowerCase())?.scrollIntoView({ block: 'start' })}
        >
          {name}
        </button>
      ))}
    </nav>
  );
}

/** Sites: explorer sites and connected dapps, each saved at once (outside the form and its Save). */
export function SitesSection({
  hosts,
  onSaved,
}: {
  hosts: Readonly<Record<string, number>>;
  onSaved: (settings: Settings) => void;
}) {
  return (
    <section id="sites" aria-labelledby="sites-title">
      <h2 id="sites-title" class="section-title">
        Sites
      </h2>
      <ExplorerHosts hosts={hosts} onSaved={onSaved} />
      <ConnectedSites />
    </section>
  );
}
