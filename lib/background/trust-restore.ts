// Discarding an outside change of sealed values (lib/background/trust-settings.ts): each field gets
// back the value the user last confirmed, or its default where no sealed value verifies.
import { DEFAULT_SETTINGS, type Settings } from '@/lib/settings/settings';
import type { ConnectedSite, DappSettings } from '@/lib/state/dapp';
import type { RouterPinsMap } from '@/lib/state/pipeline-state';
import { connectedSitesItem, dappSettingsItem, routerPinsItem } from '@/lib/storage/items';
import {
  canonicalJson,
  TRUST_FIELDS,
  type TrustField,
  type TrustSnapshot,
  trustSnapshot,
} from '@/lib/wallet/trust-mac';

type Values = Partial<TrustSnapshot>;

/** The settings with the given fields put back (defaults for a field with no vouched value). */
export function restoredSettings(settings: Settings, values: Values): Settings {
  const next: Settings = { ...settings };
  const pick = <K extends keyof Values>(field: K) => field in values;
  if (pick('serviceBaseUrl')) next.serviceBaseUrl = values.serviceBaseUrl ?? DEFAULT_SETTINGS.serviceBaseUrl;
  if (pick('rpcOverrides')) next.rpcOverrides = values.rpcOverrides ?? { ...DEFAULT_SETTINGS.rpcOverrides };
  if (pick('chainNameOverrides')) next.chainNameOverrides = values.chainNameOverrides ?? {};
  if (pick('explorerHosts')) next.explorerHosts = values.explorerHosts ?? {};
  if (pick('feeCeilingsGwei')) next.feeCeilingsGwei = values.feeCeilingsGwei ?? {};
  if (pick('slippage')) next.slippage = values.slippage ?? DEFAULT_SETTINGS.slippage;
  if (pick('onlyReadableCalldata')) next.onlyReadableCalldata = values.onlyReadableCalldata ?? true;
  return next;
}

/**
 * Writes back the non-settings fields: router pins (as confirmed, re-dated now), the dapp settings,
 * and the connected sites the seal vouches for (each keeps its stored chain when it still has one).
 */
export async function restoreStoredTrustValues(values: Values, now: number): Promise<void> {
  if ('routerPins' in values) {
    const pins: RouterPinsMap = {};
    for (const [key, address] of Object.entries(values.routerPins ?? {}))
      pins[key] = { address: address as `0x${string}`, pinnedAt: now };
    await routerPinsItem.set(pins);
  }
  if ('dappSettings' in values) {
    await dappSettingsItem.set(
      (values.dappSettings as DappSettings | undefined) ?? { exposeWindowEthereum: false },
    );
  }
  if ('connectedSites' in values) {
    const stored = await connectedSitesItem.get();
    const sealed = (values.connectedSites ?? []) as Omit<ConnectedSite, 'chainId'>[];
    const sites = sealed.map((site) => ({
      ...site,
      chainId: stored.find((candidate) => candidate.origin === site.origin)?.chainId ?? 1,
    })) as ConnectedSite[];
    await connectedSitesItem.set(sites);
  }
}

/** The sealed settings fields a save changes: the user's own change, sealed as confirmed. */
export function changedTrustFields(previous: Settings, next: Settings): TrustField[] {
  const before = trustSnapshot(previous, {});
  const after = trustSnapshot(next, {});
  return TRUST_FIELDS.filter((field) => canonicalJson(before[field]) !== canonicalJson(after[field]));
}
