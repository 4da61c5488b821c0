// The seal on the trust-deciding settings (lib/wallet/trust-mac.ts, lib/background/trust-settings.ts):
// storage.local is writable by content scripts, so a service URL, RPC or router pin written there by
// anything but Swaplane must stop the next signature until the user confirms it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { BackgroundServices } from '@/lib/background/services';
import { DEFAULT_SETTINGS, type Settings } from '@/lib/settings/settings';
import { routerPinsItem, settingsItem, trustRecordItem } from '@/lib/storage/items';
import {
  canonicalJson,
  checkTrust,
  deriveTrustKey,
  sealTrust,
  type TrustSnapshot,
  trustSnapshot,
} from '@/lib/wallet/trust-mac';
import {
  ANVIL_PHRASE,
  importAnvilPhrase,
  startServices,
  TEST_PASSWORD,
  viewSender,
} from '../support/background';

const ANVIL = ANVIL_PHRASE;
const PASSWORD = TEST_PASSWORD;
const LOCAL = { ...DEFAULT_SETTINGS, serviceBaseUrl: 'http://127.0.0.1:9' };

describe('trust MAC (pure)', () => {
  const snapshot = trustSnapshot(LOCAL, {});

  it('is the same for the same values in any key order, and names each changed field', async () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 4, e: 5 }] } })).toBe(
      '{"a":{"c":[3,{"e":5,"f":4}],"d":2},"b":1}',
    );
    const key = await deriveTrustKey({ mnemonic: ANVIL, importedKeys: [] });
    const record = await sealTrust(key, snapshot, 1);
    expect(await checkTrust(key, record, { ...snapshot })).toEqual({ ok: true });
    const moved: TrustSnapshot = {
      ...snapshot,
      serviceBaseUrl: 'https://evil.example',
      routerPins: { 'https://evil.example 1': '0xbad' },
    };
    expect(await checkTrust(key, record, moved)).toMatchObject({
      ok: false,
      reason: 'changed',
      fields: ['the swap service URL', 'the trusted router contracts'],
    });
  });

  it('calls a record forged when its values were rewritten without the key, or sealed with another wallet', async () => {
    const key = await deriveTrustKey({ mnemonic: ANVIL, importedKeys: [] });
    const record = await sealTrust(key, snapshot, 1);
    const rewritten = { ...record, snapshot: { ...record.snapshot, serviceBaseUrl: 'https://evil.example' } };
    expect(
      await checkTrust(key, rewritten, { ...snapshot, serviceBaseUrl: 'https://evil.example' }),
    ).toMatchObject({
      ok: false,
      reason: 'forged',
    });
    const other = await deriveTrustKey({ mnemonic: `${ANVIL} other`, importedKeys: [] });
    expect(await checkTrust(other, record, snapshot)).toMatchObject({ ok: false, reason: 'forged' });
    expect(await checkTrust(key, null, snapshot)).toMatchObject({ ok: false, reason: 'unconfirmed' });
  });
});

describe('trust settings in the background', () => {
  let services: BackgroundServices;
  const send = viewSender(() => services);

  /** A worker (re)start: the services are built again from storage; the wallet session survives. */
  async function start(): Promise<void> {
    services?.session.dispose();
    services = await startServices();
  }

  beforeEach(async () => {
    fakeBrowser.reset();
    await settingsItem.set(LOCAL);
    await start();
    await importAnvilPhrase(send);
  });
  afterEach(() => services.session.dispose());

  it('seals the settings a new wallet starts with', async () => {
    expect(await send({ type: 'trustSettingsStatus' })).toMatchObject({
      ok: true,
      result: { state: 'confirmed' },
    });
    await expect(services.wallet.activeSigner()).resolves.toBeDefined();
  });

  it('stops every signature after an outside write of the service URL (a worker restart later), until the user confirms', async () => {
    // What a compromised content script can do: storage.local is shared with it.
    await settingsItem.set({ ...LOCAL, serviceBaseUrl: 'https://evil.example' });
    await start(); // the worker restarts and reads the rewritten settings; the wallet stays unlocked
    expect(services.settings().serviceBaseUrl).toBe('https://evil.example');
    const status = await send({ type: 'trustSettingsStatus' });
    expect(status).toMatchObject({
      ok: true,
      result: { state: 'changed', fields: ['the swap service URL'] },
    });
    await expect(services.wallet.activeSigner()).rejects.toMatchObject({ code: 'TRUST_SETTINGS_CHANGED' });
    await expect(services.wallet.activeSigner()).rejects.toThrow(/swap service URL.*Nothing was signed/);

    // A save of something else does not seal the foreign value.
    const slippage = await send({
      type: 'updateSettings',
      settings: { ...services.settings(), slippage: 1 },
    });
    expect(slippage).toMatchObject({ ok: true });
    expect(await send({ type: 'trustSettingsStatus' })).toMatchObject({ result: { state: 'changed' } });

    expect(await send({ type: 'confirmTrustSettings' })).toMatchObject({
      ok: true,
      result: { state: 'confirmed' },
    });
    await expect(services.wallet.activeSigner()).resolves.toBeDefined();
  });

  it('stops a signature after an outside write of a router pin, or of the record itself', async () => {
    await routerPinsItem.set({
      'http://127.0.0.1:9 1': { address: '0x000000000000000000000000000000000000bad1', pinnedAt: 1 },
    });
    await expect(services.wallet.activeSigner()).rejects.toThrow(/trusted router contracts/);
    await send({ type: 'confirmTrustSettings' });
    const record = await trustRecordItem.get();
    await trustRecordItem.set(record && { ...record, snapshot: { ...record.snapshot, serviceBaseUrl: 'x' } });
    await expect(services.wallet.activeSigner()).rejects.toThrow(
      /rewritten by something other than Swaplane/,
    );
  });

  it('changes the service or an RPC only unlocked and confirmed, and seals the confirmed change', async () => {
    const evil: Settings = { ...services.settings(), serviceBaseUrl: 'https://other.example' };
    expect(await send({ type: 'updateSettings', settings: evil })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED' },
    });
    const rpc: Settings = { ...services.settings(), rpcOverrides: { '1': 'https://rpc.example' } };
    await send({ type: 'walletLock' });
    expect(await send({ type: 'updateSettings', settings: rpc, confirmTrustChange: true })).toMatchObject({
      ok: false,
      error: { code: 'UNLOCK_REQUIRED' },
    });
    expect(services.settings().serviceBaseUrl).toBe('http://127.0.0.1:9');
    await send({ type: 'walletUnlock', password: PASSWORD });
    expect(await send({ type: 'updateSettings', settings: evil, confirmTrustChange: true })).toMatchObject({
      ok: true,
      result: { serviceBaseUrl: 'https://other.example' },
    });
    expect(await send({ type: 'trustSettingsStatus' })).toMatchObject({ result: { state: 'confirmed' } });
  });
});
