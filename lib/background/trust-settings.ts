// The seal on what decides whom Swaplane trusts and what it signs (lib/wallet/trust-mac.ts): sealed
// when a wallet is created and after every change Swaplane itself makes while unlocked (only the
// fields that were intact before it, or that the user confirmed); checked before anything is signed;
// confirmed or discarded by the user, unlocked, after a change from outside.
import type { Settings } from '@/lib/settings/settings';
import {
  connectedSitesItem,
  dappSettingsItem,
  lockedSavesItem,
  routerPinsItem,
  trustRecordItem,
} from '@/lib/storage/items';
import type { EntrySealer } from '@/lib/swap/entry-seal';
import {
  canonicalJson,
  checkTrust,
  fieldMac,
  sealedSite,
  sealFields,
  TRUST_FIELDS,
  type TrustCheck,
  type TrustField,
  type TrustSnapshot,
  type TrustStatus,
  trustCheckMessage,
  trustSnapshot,
  upgradeLegacy,
} from '@/lib/wallet/trust-mac';
import { CodedError } from './errors';

export interface TrustSettingsDeps {
  settings: () => Settings;
  /** The MAC key while the wallet is unlocked, else null. */
  key: () => Promise<CryptoKey | null>;
  hasWallet: () => Promise<boolean>;
  /** Writes back the given fields' values (a discarded outside change): settings, pins, sites. */
  restore?: (values: Partial<TrustSnapshot>) => Promise<void>;
  /** Seals the history entries recorded before entries were sealed (once per wallet). */
  sealEntries?: () => Promise<void>;
  now?: () => number;
}

/**
 * Fields no locked write speaks for the user: the connected sites are written while locked only by a
 * page switching its chain (over a list that may hold a site added from outside), pins only by a swap.
 */
const NOT_SAVED_LOCKED: readonly TrustField[] = ['connectedSites', 'routerPins', 'entrySeals'];

/** Remembers the user's own locked save of `confirmed` at their current values, to seal at unlock. */
async function rememberLockedSave(values: TrustSnapshot, confirmed: readonly TrustField[]): Promise<void> {
  const fields = confirmed.filter((field) => !NOT_SAVED_LOCKED.includes(field));
  if (fields.length === 0) return;
  const saved = { ...(await lockedSavesItem.get()) };
  for (const field of fields) saved[field] = canonicalJson(values[field]);
  await lockedSavesItem.set(saved);
}

/**
 * The fields the user saved while locked that still hold the value they saved (to seal now); a field
 * written from outside since then keeps failing the check. Once: the record is cleared.
 */
async function takeLockedSaves(read: () => Promise<TrustSnapshot>): Promise<TrustField[]> {
  const saved = await lockedSavesItem.get();
  const fields = TRUST_FIELDS.filter((field) => field in saved);
  if (fields.length === 0) return [];
  await lockedSavesItem.set({});
  const values = await read();
  return fields.filter((field) => canonicalJson(values[field]) === saved[field]);
}

export function createTrustSettings(deps: TrustSettingsDeps) {
  const now = deps.now ?? Date.now;

  async function current(): Promise<TrustSnapshot> {
    const [pins, dappSettings, connectedSites] = await Promise.all([
      routerPinsItem.get(),
      dappSettingsItem.get(),
      connectedSitesItem.get(),
    ]);
    return trustSnapshot(deps.settings(), pins, { dappSettings, connectedSites });
  }

  /** The stored record, a v1 one upgraded first (sealed field by field, if it verifies). */
  async function record(key: CryptoKey) {
    const stored = await trustRecordItem.read();
    if (!stored.ok) return { ok: false as const };
    if (!stored.value?.legacyMac) return { ok: true as const, value: stored.value };
    const upgraded = await upgradeLegacy(key, stored.value, await current(), now());
    if (upgraded) {
      await deps.sealEntries?.(); // entries recorded before they were sealed: sealed now, once
      await trustRecordItem.set(upgraded);
    }
    return { ok: true as const, value: upgraded ?? stored.value };
  }

  /** Seals `fields` at their current values, leaving every other field as it was; no-op while locked. */
  async function sealOnly(fields: readonly TrustField[]): Promise<boolean> {
    const key = await deps.key();
    if (!key) return false;
    const base = await record(key);
    await trustRecordItem.set(
      await sealFields(key, base.ok ? base.value : null, await current(), fields, now()),
    );
    return true;
  }

  async function check(): Promise<TrustCheck | null> {
    const key = await deps.key();
    if (!key) return null;
    const lockedSaves = await takeLockedSaves(current);
    if (lockedSaves.length > 0) await sealOnly(lockedSaves);
    const stored = await record(key);
    // An unreadable record is treated as forged (it was not written by this code): as a v1 record
    // that did not verify, every field fails as forged.
    if (!stored.ok) {
      const unreadable = { snapshot: {}, macs: {}, sealedAt: 0, legacyMac: '0'.repeat(64) };
      return checkTrust(key, unreadable, await current());
    }
    return checkTrust(key, stored.value, await current());
  }

  return {
    /** Seals every field (a new wallet, the user confirming all of them after a review). */
    seal: () => sealOnly(TRUST_FIELDS),
    sealOnly,

    /**
     * Runs Swaplane's own write of sealed values and seals the result: the fields that were intact
     * before it, and those the user confirmed. A save of, say, the slippage must not seal a service
     * URL that something else wrote meanwhile.
     */
    async afterOwnChange<T>(write: () => Promise<T>, confirmed: readonly TrustField[] = []): Promise<T> {
      const before = await check();
      const result = await write();
      if (before === null) {
        // Locked: no key to seal with. The user's own change is remembered where only Swaplane can
        // write, and sealed at the next unlocked check if it is still there.
        await rememberLockedSave(await current(), confirmed);
        return result;
      }
      const failing = before.ok ? [] : before.keys;
      const intact = TRUST_FIELDS.filter((field) => !failing.includes(field) || confirmed.includes(field));
      await sealOnly(intact);
      return result;
    },

    /** Throws TRUST_SETTINGS_CHANGED, naming what changed, unless the sealed values are the current ones. */
    async verify(): Promise<void> {
      const result = await check();
      if (!result || result.ok) return; // locked: signing itself refuses
      throw new CodedError('TRUST_SETTINGS_CHANGED', trustCheckMessage(result));
    },

    /**
     * The connected sites Swaplane sealed: while unlocked, a stored site its seal does not vouch for
     * (added or rewritten outside Swaplane) is left out, so it gets no account without a window.
     */
    async trustedSites<S>(sites: readonly S[]): Promise<S[]> {
      const result = await check();
      if (!result || result.ok || !result.keys.includes('connectedSites')) return [...sites];
      const sealed = new Set((result.vouched.connectedSites ?? []).map(canonicalJson));
      return sites.filter((site) => sealed.has(canonicalJson(sealedSite(site))));
    },

    /**
     * Puts back what the user last confirmed for each failing field (its default where no sealed value
     * verifies) and seals it: the outside change is gone.
     */
    async discard(): Promise<boolean> {
      const result = await check();
      if (!result) return false;
      if (result.ok) return true;
      await deps.restore?.(Object.fromEntries(result.keys.map((field) => [field, result.vouched[field]])));
      return sealOnly(result.keys);
    },

    async status(): Promise<TrustStatus> {
      if (!(await deps.hasWallet())) return { state: 'no-wallet', fields: [], message: null };
      const result = await check();
      if (!result) return { state: 'locked', fields: [], message: null };
      if (result.ok) return { state: 'confirmed', fields: [], message: null };
      return { state: result.reason, fields: result.fields, message: trustCheckMessage(result) };
    },
  };
}

export type TrustSettings = ReturnType<typeof createTrustSettings>;

/**
 * The wallet whose active signer checks the trust settings first. Every signature (swaps, approvals,
 * revokes, dapp requests) starts from the active signer, so nothing is signed after they changed unseen.
 */
export function withTrustCheckedSigner<W extends { activeSigner(): Promise<unknown> }>(
  wallet: W,
  trust: Pick<TrustSettings, 'verify'>,
): W {
  return {
    ...wallet,
    activeSigner: async () => {
      await trust.verify();
      return wallet.activeSigner();
    },
  };
}

/** The trust seal over a wallet, and that wallet with its signer checked (the background's wiring). */
export function trustCheckedWallet<
  W extends {
    activeSigner(): Promise<unknown>;
    trustKey(): Promise<CryptoKey | null>;
    state(): Promise<{ status: string }>;
  },
>(
  wallet: W,
  settings: () => Settings,
  now?: () => number,
  more: Pick<TrustSettingsDeps, 'restore' | 'sealEntries'> = {},
): { trust: TrustSettings; signingWallet: W } {
  const trust = createTrustSettings({
    settings,
    key: () => wallet.trustKey(),
    hasWallet: async () => (await wallet.state()).status !== 'none',
    ...(now ? { now } : {}),
    ...more,
  });
  return { trust, signingWallet: withTrustCheckedSigner(wallet, trust) };
}

/** Seals and checks single records (history entries) with the trust key; null while locked. */
export function entrySealer(key: () => Promise<CryptoKey | null>): EntrySealer {
  return {
    async sign(core) {
      const current = await key();
      return current ? fieldMac(current, 'history-entry', core) : null;
    },
    async verify(core, seal) {
      const current = await key();
      return current ? (await fieldMac(current, 'history-entry', core)) === seal : null;
    },
  };
}
