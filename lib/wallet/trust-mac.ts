// Integrity of what decides whom Swaplane trusts and what it signs: the swap service, the RPCs, the
// API chain names, the router pins, the extra explorer hosts, the fee ceilings, the slippage, the calldata policy, the
// dapp provider's settings and the connected sites. storage.local is writable by any extension
// context, content scripts included, so each of these is sealed with its own HMAC whose key is
// derived from the vault's secrets: only an unlocked wallet can seal, a value written by anything
// else fails the check before a signature (lib/background/trust-settings.ts), and a confirmed change
// seals only the fields the user confirmed.
import * as z from 'zod/mini';
import type { Settings } from '@/lib/settings/settings';
import type { RouterPinsMap } from '@/lib/state/pipeline-state';
import { wipe } from './bytes';
import type { VaultSecrets } from './vault';

const MacSchema = z.string().check(z.regex(/^[0-9a-f]{64}$/));

export const TrustSnapshotSchema = z.object({
  serviceBaseUrl: z.string(),
  rpcOverrides: z.record(z.string(), z.string()),
  chainNameOverrides: z.record(z.string(), z.string()),
  explorerHosts: z.record(z.string(), z.number()),
  /** "<service origin> <chainId>" -> router address. */
  routerPins: z.record(z.string(), z.string()),
  /** chainId -> the user's fee ceiling (gwei); empty while every chain uses its default. */
  feeCeilingsGwei: z.record(z.string(), z.string()),
  slippage: z.number(),
  /** "Only sign swap calls Swaplane can read" (absent in settings means on). */
  onlyReadableCalldata: z.boolean(),
  dappSettings: z.unknown(),
  /** Each connected site without its chain (a page may switch that at any time): sorted by origin. */
  connectedSites: z.array(z.unknown()),
  /** History entries carry their own seals (lib/swap/entry-seal.ts) since this was first sealed. */
  entrySeals: z.number(),
});
export type TrustSnapshot = z.infer<typeof TrustSnapshotSchema>;
export type TrustField = keyof TrustSnapshot;

export const TrustRecordSchema = z.object({
  /** The values as last sealed, field by field. */
  snapshot: z.partial(TrustSnapshotSchema),
  /** field -> HMAC-SHA-256 of [field, value] as canonical JSON, hex. */
  macs: z.record(z.string(), MacSchema),
  sealedAt: z.number(),
  /** A v1 record's single MAC over the first five fields: upgraded on the first unlocked check. */
  legacyMac: z.optional(MacSchema),
});
export type TrustRecord = z.infer<typeof TrustRecordSchema>;

/** What the settings page and the popup learn about the seal. */
export const TrustStatusSchema = z.object({
  state: z.enum(['confirmed', 'unconfirmed', 'forged', 'changed', 'locked', 'no-wallet']),
  fields: z.array(z.string()),
  message: z.nullable(z.string()),
});
export type TrustStatus = z.infer<typeof TrustStatusSchema>;

export const FIELD_NAMES: Record<TrustField, string> = {
  serviceBaseUrl: 'the swap service URL',
  rpcOverrides: 'the RPC URLs',
  chainNameOverrides: 'the API chain names',
  explorerHosts: 'the extra explorer hosts',
  routerPins: 'the trusted router contracts',
  feeCeilingsGwei: 'the network fee ceilings',
  slippage: 'the slippage tolerance',
  onlyReadableCalldata: '"Only sign swap calls Swaplane can read"',
  dappSettings: 'the dapp provider settings',
  connectedSites: 'the connected sites',
  entrySeals: 'the seals on the swap history',
};
export const TRUST_FIELDS = Object.keys(FIELD_NAMES) as TrustField[];
/** The fields a v1 record sealed. */
const LEGACY_FIELDS: TrustField[] = [
  'serviceBaseUrl',
  'rpcOverrides',
  'chainNameOverrides',
  'explorerHosts',
  'routerPins',
];

/** A connected site as sealed: every field of its record but the chain, whatever the record's shape. */
export function sealedSite(site: unknown): unknown {
  if (!site || typeof site !== 'object') return site;
  const { chainId: _chain, ...rest } = site as Record<string, unknown>;
  return rest;
}

export const ENTRY_SEALS_VERSION = 1;

export interface StoredTrustValues {
  dappSettings?: unknown;
  connectedSites?: readonly unknown[];
}

export function trustSnapshot(
  settings: Settings,
  pins: RouterPinsMap,
  stored: StoredTrustValues = {},
): TrustSnapshot {
  const routerPins: Record<string, string> = {};
  for (const [key, pin] of Object.entries(pins)) routerPins[key] = pin.address.toLowerCase();
  const sites = (stored.connectedSites ?? []).map(sealedSite);
  sites.sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
  return {
    serviceBaseUrl: settings.serviceBaseUrl,
    rpcOverrides: { ...settings.rpcOverrides },
    chainNameOverrides: { ...settings.chainNameOverrides },
    explorerHosts: { ...settings.explorerHosts },
    routerPins,
    // The fee ceilings bound what an RPC can make a transaction pay: raised from outside, the seal breaks.
    feeCeilingsGwei: { ...(settings.feeCeilingsGwei ?? {}) },
    slippage: settings.slippage,
    onlyReadableCalldata: settings.onlyReadableCalldata !== false,
    dappSettings: stored.dappSettings ?? null,
    connectedSites: sites,
    entrySeals: ENTRY_SEALS_VERSION,
  };
}

/** JSON with object keys sorted at every level: the same snapshot always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
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
  // The secret's UTF-8 copy is wiped once imported (the string itself cannot be).
  const materialBytes = new TextEncoder().encode(material);
  const base = await crypto.subtle
    .importKey('raw', materialBytes, 'HKDF', false, ['deriveKey'])
    .finally(() => wipe(materialBytes));
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: MAC_INFO },
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  );
}

async function hmacHex(key: CryptoKey, text: string): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text));
  return [...new Uint8Array(signature)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** One field's MAC: the field's name is inside it, so a value cannot be moved to another field. */
export function fieldMac(key: CryptoKey, field: string, value: unknown): Promise<string> {
  return hmacHex(key, canonicalJson([field, value]));
}

/**
 * A record with `fields` sealed at their current values and every other field as `base` had it
 * (sealed or not): a confirmation of some fields never seals another.
 */
export async function sealFields(
  key: CryptoKey,
  base: TrustRecord | null,
  current: TrustSnapshot,
  fields: readonly TrustField[],
  now: number,
): Promise<TrustRecord> {
  const snapshot: Partial<TrustSnapshot> = { ...(base?.snapshot ?? {}) };
  const macs: Record<string, string> = { ...(base?.macs ?? {}) };
  for (const field of fields) {
    (snapshot as Record<string, unknown>)[field] = current[field];
    macs[field] = await fieldMac(key, field, current[field]);
  }
  return { snapshot, macs, sealedAt: now };
}

/** Every field sealed at its current value (a new wallet, or the user confirming all of them). */
export function sealTrust(key: CryptoKey, snapshot: TrustSnapshot, now: number): Promise<TrustRecord> {
  return sealFields(key, null, snapshot, TRUST_FIELDS, now);
}

/**
 * A v1 record (one MAC over the first five fields) as a v2 one: its five fields sealed at the values
 * it vouches for, and the fields it never covered sealed at their current values (existing users'
 * items are sealed on their first unlock, not wiped). A v1 record that does not verify stays forged.
 */
export async function upgradeLegacy(
  key: CryptoKey,
  record: TrustRecord,
  current: TrustSnapshot,
  now: number,
): Promise<TrustRecord | null> {
  if (!record.legacyMac) return record;
  const legacy: Record<string, unknown> = {};
  for (const field of LEGACY_FIELDS) legacy[field] = record.snapshot[field];
  if ((await hmacHex(key, canonicalJson(legacy))) !== record.legacyMac) return null;
  const vouched = { ...current, ...legacy } as TrustSnapshot;
  const sealed = await sealFields(key, null, vouched, TRUST_FIELDS, now);
  return sealed;
}

export type TrustCheck =
  | { ok: true }
  | {
      ok: false;
      reason: 'unconfirmed' | 'forged' | 'changed';
      /** The failing fields, as a person reads them. */
      fields: string[];
      /** The same fields, by key; `vouched` holds the sealed value of each field whose MAC verifies. */
      keys: TrustField[];
      vouched: Partial<TrustSnapshot>;
    };

/** Connected sites are fine when every current one is a sealed one (a removal needs no seal). */
function fieldMatches(field: TrustField, sealed: unknown, current: unknown): boolean {
  if (field !== 'connectedSites') return canonicalJson(sealed) === canonicalJson(current);
  const known = new Set((Array.isArray(sealed) ? sealed : []).map(canonicalJson));
  return (current as unknown[]).every((site) => known.has(canonicalJson(site)));
}

/**
 * Compares the current values with the sealed record, field by field: a field without a MAC is
 * unconfirmed, one whose MAC does not verify was written by something without the key (forged), and
 * one that verifies but differs from the current value changed outside Swaplane.
 */
export async function checkTrust(
  key: CryptoKey,
  record: TrustRecord | null,
  current: TrustSnapshot,
): Promise<TrustCheck> {
  const failing: { field: TrustField; reason: 'unconfirmed' | 'forged' | 'changed' }[] = [];
  const vouched: Partial<TrustSnapshot> = {};
  for (const field of TRUST_FIELDS) {
    const mac = record?.macs[field];
    const sealed = record?.snapshot[field];
    if (!record || record.legacyMac || !mac) {
      failing.push({ field, reason: record?.legacyMac ? 'forged' : 'unconfirmed' });
      continue;
    }
    if ((await fieldMac(key, field, sealed)) !== mac) {
      failing.push({ field, reason: 'forged' });
      continue;
    }
    (vouched as Record<string, unknown>)[field] = sealed;
    if (!fieldMatches(field, sealed, current[field])) failing.push({ field, reason: 'changed' });
  }
  if (failing.length === 0) return { ok: true };
  const reasons = new Set(failing.map((entry) => entry.reason));
  const reason = reasons.has('forged') ? 'forged' : reasons.has('changed') ? 'changed' : 'unconfirmed';
  const keys = failing.map((entry) => entry.field);
  return { ok: false, reason, fields: keys.map((field) => FIELD_NAMES[field]), keys, vouched };
}

/** The words of a failed check, for the error that stops a signature and for the settings page. */
export function trustCheckMessage(check: Exclude<TrustCheck, { ok: true }>): string {
  const list = check.fields.join(', ');
  const act = 'Open Settings, check them, then confirm them or discard the change.';
  switch (check.reason) {
    case 'unconfirmed':
      return `Swaplane has no confirmed record of ${list}. Nothing was signed. ${act}`;
    case 'forged':
      return `The record of ${list} was rewritten by something other than Swaplane. Nothing was signed. ${act}`;
    case 'changed':
      return `Settings Swaplane signs from changed outside Swaplane since you last confirmed them: ${list}. Nothing was signed. ${act}`;
  }
}
