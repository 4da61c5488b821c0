// Integrity of the settings that decide whom Swaplane trusts: the swap service, the RPCs, the API
// chain names, the router pins, the extra explorer hosts and the fee ceilings. storage.local is writable by any
// extension context, content scripts included, so these are sealed with an HMAC whose key is
// derived from the vault's secrets: only an unlocked wallet can seal them, and a value written by
// anything else fails the check before a signature (lib/background/trust-settings.ts).
import * as z from 'zod/mini';
import type { Settings } from '@/lib/settings/settings';
import type { RouterPinsMap } from '@/lib/state/pipeline-state';
import type { VaultSecrets } from './vault';

export const TrustSnapshotSchema = z.object({
  serviceBaseUrl: z.string(),
  rpcOverrides: z.record(z.string(), z.string()),
  chainNameOverrides: z.record(z.string(), z.string()),
  explorerHosts: z.record(z.string(), z.number()),
  /** "<service origin> <chainId>" -> router address. */
  routerPins: z.record(z.string(), z.string()),
  /** chainId -> the user's fee ceiling (gwei); absent while every chain uses its default. */
  feeCeilingsGwei: z.optional(z.record(z.string(), z.string())),
});
export type TrustSnapshot = z.infer<typeof TrustSnapshotSchema>;

export const TrustRecordSchema = z.object({
  snapshot: TrustSnapshotSchema,
  /** HMAC-SHA-256 of the snapshot's canonical JSON, hex. */
  mac: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  sealedAt: z.number(),
});
export type TrustRecord = z.infer<typeof TrustRecordSchema>;

/** What the settings page and the popup learn about the seal. */
export const TrustStatusSchema = z.object({
  state: z.enum(['confirmed', 'unconfirmed', 'forged', 'changed', 'locked', 'no-wallet']),
  fields: z.array(z.string()),
  message: z.nullable(z.string()),
});
export type TrustStatus = z.infer<typeof TrustStatusSchema>;

export function trustSnapshot(settings: Settings, pins: RouterPinsMap): TrustSnapshot {
  const routerPins: Record<string, string> = {};
  for (const [key, pin] of Object.entries(pins)) routerPins[key] = pin.address.toLowerCase();
  return {
    serviceBaseUrl: settings.serviceBaseUrl,
    rpcOverrides: { ...settings.rpcOverrides },
    chainNameOverrides: { ...settings.chainNameOverrides },
    explorerHosts: { ...settings.explorerHosts },
    routerPins,
    // The fee ceilings bound what an RPC can make a transaction pay: raised from outside, the seal breaks.
    // Absent (the defaults) leaves the snapshot as before, so existing seals stay valid.
    ...(settings.feeCeilingsGwei && Object.keys(settings.feeCeilingsGwei).length > 0
      ? { feeCeilingsGwei: { ...settings.feeCeilingsGwei } }
      : {}),
  };
}

/** JSON with object keys sorted at every level: the same snapshot always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const MAC_INFO = new TextEncoder().encode('swaplane trust-settings mac v1');

/**
 * The MAC key, derived (HKDF-SHA-256) from the vault's first secret: the recovery phrase, or the
 * first imported key of a wallet without one. Neither changes with the password, and accounts are
 * only ever added, so the key is stable for the wallet's life.
 */
export async function deriveTrustKey(secrets: VaultSecrets): Promise<CryptoKey> {
  const material = secrets.mnemonic ?? secrets.importedKeys[0]?.privateKey;
  if (!material) throw new Error('the vault holds no secret to derive the settings key from');
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(material), 'HKDF', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: MAC_INFO },
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  );
}

export async function macOf(key: CryptoKey, snapshot: TrustSnapshot): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(canonicalJson(snapshot)));
  return [...new Uint8Array(signature)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function sealTrust(key: CryptoKey, snapshot: TrustSnapshot, now: number): Promise<TrustRecord> {
  return { snapshot, mac: await macOf(key, snapshot), sealedAt: now };
}

const FIELD_NAMES: Record<keyof TrustSnapshot, string> = {
  serviceBaseUrl: 'the swap service URL',
  rpcOverrides: 'the RPC URLs',
  chainNameOverrides: 'the API chain names',
  explorerHosts: 'the extra explorer hosts',
  routerPins: 'the trusted router contracts',
  feeCeilingsGwei: 'the network fee ceilings',
};

export type TrustCheck =
  | { ok: true }
  | { ok: false; reason: 'unconfirmed' | 'forged' | 'changed'; fields: string[] };

/**
 * Compares the current trust-deciding settings with the sealed record. A record whose MAC does not
 * verify was written by something without the key (all fields are suspect); a valid record that
 * differs from the current values names the fields changed since the user last confirmed them.
 */
export async function checkTrust(
  key: CryptoKey,
  record: TrustRecord | null,
  current: TrustSnapshot,
): Promise<TrustCheck> {
  const all = Object.values(FIELD_NAMES);
  if (!record) return { ok: false, reason: 'unconfirmed', fields: all };
  if ((await macOf(key, record.snapshot)) !== record.mac) return { ok: false, reason: 'forged', fields: all };
  const fields = (Object.keys(FIELD_NAMES) as (keyof TrustSnapshot)[])
    .filter((field) => canonicalJson(record.snapshot[field]) !== canonicalJson(current[field]))
    .map((field) => FIELD_NAMES[field]);
  return fields.length === 0 ? { ok: true } : { ok: false, reason: 'changed', fields };
}

/** The words of a failed check, for the error that stops a signature and for the settings page. */
export function trustCheckMessage(check: Exclude<TrustCheck, { ok: true }>): string {
  const list = check.fields.join(', ');
  switch (check.reason) {
    case 'unconfirmed':
      return 'Swaplane has no confirmed record of the settings it trusts (the swap service, RPCs, routers and explorer hosts). Nothing was signed. Open Settings, check them and confirm them.';
    case 'forged':
      return `The record of the settings Swaplane trusts was rewritten by something other than Swaplane (${list} are all suspect). Nothing was signed. Open Settings, check every value and confirm them.`;
    case 'changed':
      return `Settings that decide whom Swaplane trusts changed outside Swaplane since you last confirmed them: ${list}. Nothing was signed. Open Settings, check them and confirm them.`;
  }
}
