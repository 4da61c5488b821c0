// The seal on the settings that decide whom Swaplane trusts (lib/wallet/trust-mac.ts): sealed when a
// wallet is created and after every change Swaplane itself makes while unlocked; checked before
// anything is signed; re-confirmed by the user, unlocked, after a change from outside.
import type { Settings } from '@/lib/settings/settings';
import { routerPinsItem, trustRecordItem } from '@/lib/storage/items';
import {
  checkTrust,
  sealTrust,
  type TrustCheck,
  type TrustStatus,
  trustCheckMessage,
  trustSnapshot,
} from '@/lib/wallet/trust-mac';
import { CodedError } from './errors';

export interface TrustSettingsDeps {
  settings: () => Settings;
  /** The MAC key while the wallet is unlocked, else null. */
  key: () => Promise<CryptoKey | null>;
  hasWallet: () => Promise<boolean>;
  now?: () => number;
}

export function createTrustSettings(deps: TrustSettingsDeps) {
  const now = deps.now ?? Date.now;

  async function current() {
    return trustSnapshot(deps.settings(), await routerPinsItem.get());
  }

  /** Seals the current values (Swaplane's own change, or the user's confirmation); no-op while locked. */
  async function seal(): Promise<boolean> {
    const key = await deps.key();
    if (!key) return false;
    await trustRecordItem.set(await sealTrust(key, await current(), now()));
    return true;
  }

  async function check(): Promise<TrustCheck | null> {
    const key = await deps.key();
    if (!key) return null;
    const stored = await trustRecordItem.read();
    // An unreadable record is treated as forged: it was not written by this code.
    if (!stored.ok) return { ok: false, reason: 'forged', fields: ['every trust setting'] };
    return checkTrust(key, stored.value, await current());
  }

  return {
    seal,

    /**
     * Runs Swaplane's own write of trust-deciding values and seals the result, but only when the
     * values were intact before it (or the user confirmed this change): a save of, say, the slippage
     * must not seal a service URL that something else wrote meanwhile.
     */
    async afterOwnChange<T>(write: () => Promise<T>, confirmed: boolean): Promise<T> {
      const before = await check();
      const result = await write();
      if (confirmed || before?.ok) await seal();
      return result;
    },

    /** Throws TRUST_SETTINGS_CHANGED, naming what changed, unless the sealed values are the current ones. */
    async verify(): Promise<void> {
      const result = await check();
      if (!result || result.ok) return; // locked: signing itself refuses
      throw new CodedError('TRUST_SETTINGS_CHANGED', trustCheckMessage(result));
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
>(wallet: W, settings: () => Settings, now?: () => number): { trust: TrustSettings; signingWallet: W } {
  const trust = createTrustSettings({
    settings,
    key: () => wallet.trustKey(),
    hasWallet: async () => (await wallet.state()).status !== 'none',
    ...(now ? { now } : {}),
  });
  return { trust, signingWallet: withTrustCheckedSigner(wallet, trust) };
}
