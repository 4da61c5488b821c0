// The seal over what is signed from, as an outside writer (anything that can write storage.local)
// would attack it: slippage, the calldata policy, the dapp settings, the connected sites; a
// confirmed change that must not launder another field; Discard; a v1 record upgraded on unlock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { BackgroundServices } from '@/lib/background/services';
import { entrySealer } from '@/lib/background/trust-settings';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';
import {
  connectedSitesItem,
  dappSettingsItem,
  pendingSwapsItem,
  routerPinsItem,
  settingsItem,
  swapHistoryItem,
  trustRecordItem,
} from '@/lib/storage/items';
import { sealedEntry } from '@/lib/swap/entry-seal';
import { createSwapHistory } from '@/lib/swap/history';
import { createPendingSwapStore } from '@/lib/swap/pending-store';
import { canonicalJson, deriveTrustKey } from '@/lib/wallet/trust-mac';
import { ANVIL_PHRASE, importAnvilPhrase, startServices, viewSender } from '../support/background';
import { sentTxFixture, swapStateFixture } from '../support/swaps';

const LOCAL = { ...DEFAULT_SETTINGS, serviceBaseUrl: 'http://127.0.0.1:9' };
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const APP = 'https://app.example';
const EVIL = 'https://evil.example';
const FOREIGN_ROUTER = '0x000000000000000000000000000000000000bad1';
const frame = { tabId: 1, frameId: 0 };

let services: BackgroundServices;
const send = viewSender(() => services);

async function start(): Promise<void> {
  services?.session.dispose();
  services = await startServices();
}

async function status() {
  const answer = await send({ type: 'trustSettingsStatus' });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.result as { state: string; fields: string[]; message: string | null };
}

async function connect(origin: string) {
  const pending = services.dapp.request(origin, frame, 'eth_requestAccounts', undefined);
  await expect.poll(async () => (await services.dapp.approvals()).current?.origin).toBe(origin);
  const current = (await services.dapp.approvals()).current;
  if (!current) throw new Error('nothing waits');
  await services.dapp.decide(current.id, true);
  return pending;
}

const accountsOf = (origin: string) => services.dapp.request(origin, frame, 'eth_accounts', undefined);

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const SPENDER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const NFT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const entry = (id: string, token: string) => ({
  kind: 'approval' as const,
  id,
  swapId: 's1',
  chainId: 1,
  account: ACCOUNT,
  status: 'confirmed' as const,
  hash: `0x${'1'.repeat(64)}`,
  explorerUrl: null,
  gasPaid: null,
  failure: null,
  createdAt: 1,
  updatedAt: 1,
  token,
  spender: SPENDER,
  amount: '1',
  unlimited: false,
  reset: false,
});

beforeEach(async () => {
  fakeBrowser.reset();
  await settingsItem.set(LOCAL);
  await start();
  await importAnvilPhrase(send);
});
afterEach(() => services.session.dispose());

describe('sealed settings a signature depends on', () => {
  it('stops signing after an outside write of the slippage or the calldata policy, naming it', async () => {
    await settingsItem.set({ ...LOCAL, slippage: 50 });
    await start();
    await expect(services.wallet.activeSigner()).rejects.toThrow(
      /the slippage tolerance.*Nothing was signed/,
    );
    await settingsItem.set({ ...LOCAL, onlyReadableCalldata: false });
    await start();
    await expect(services.wallet.activeSigner()).rejects.toThrow(/Only sign swap calls Swaplane can read/);
    expect((await status()).fields).toEqual(['"Only sign swap calls Swaplane can read"']);
  });

  it("seals the user's own save of the slippage, and only what that save changed", async () => {
    await settingsItem.set({ ...LOCAL, serviceBaseUrl: 'https://evil.example' });
    await start();
    expect(
      await send({ type: 'updateSettings', settings: { ...services.settings(), slippage: 1 } }),
    ).toMatchObject({
      ok: true,
    });
    // The slippage is sealed as the user's change; the foreign service URL is not.
    expect(await status()).toMatchObject({ state: 'changed', fields: ['the swap service URL'] });
  });

  it('stops signing after an outside write of the dapp settings', async () => {
    await dappSettingsItem.set({ exposeWindowEthereum: true });
    await expect(services.wallet.activeSigner()).rejects.toThrow(/the dapp provider settings/);
    // The settings page's own change is sealed.
    await services.dapp.setDappSettings({ exposeWindowEthereum: true });
    await expect(services.wallet.activeSigner()).resolves.toBeDefined();
  });
});

describe('a confirmed change seals only the fields the user confirmed', () => {
  it('confirming a new service does not seal a router pin written from outside', async () => {
    await routerPinsItem.set({ 'http://127.0.0.1:9 1': { address: FOREIGN_ROUTER, pinnedAt: 1 } });
    const changed = await send({
      type: 'updateSettings',
      settings: { ...services.settings(), serviceBaseUrl: 'https://other.example' },
      confirmTrustChange: true,
    });
    expect(changed).toMatchObject({ ok: true });
    expect(await status()).toMatchObject({ state: 'changed', fields: ['the trusted router contracts'] });
    await expect(services.wallet.activeSigner()).rejects.toThrow(/trusted router contracts/);
  });
});

describe('saves made while locked (no key to seal them then)', () => {
  const unlock = () => send({ type: 'walletUnlock', password: 'correct horse battery' });

  it("the user's own locked save of the slippage and the dapp settings signs after unlock, even after a worker restart", async () => {
    await send({ type: 'walletLock' });
    expect(
      await send({ type: 'updateSettings', settings: { ...services.settings(), slippage: 2 } }),
    ).toMatchObject({ ok: true });
    await services.dapp.setDappSettings({ exposeWindowEthereum: true });
    await start(); // the worker restarts while locked
    await unlock();
    await expect(services.wallet.activeSigner()).resolves.toBeDefined();
    expect(await status()).toMatchObject({ state: 'confirmed' });
    expect(services.settings().slippage).toBe(2);
  });

  it('an outside write while locked is still refused, also of a field the user saved locked', async () => {
    await send({ type: 'walletLock' });
    expect(
      await send({ type: 'updateSettings', settings: { ...services.settings(), slippage: 2 } }),
    ).toMatchObject({ ok: true });
    // Written from outside after the user's save: the value the user saved is no longer there.
    await settingsItem.set({ ...services.settings(), slippage: 50 });
    await dappSettingsItem.set({ exposeWindowEthereum: true });
    await start();
    await unlock();
    await expect(services.wallet.activeSigner()).rejects.toThrow(
      /the slippage tolerance.*the dapp provider settings|the dapp provider settings.*the slippage tolerance/,
    );
  });

  it("a page's locked chain switch does not vouch for a site added from outside", async () => {
    await connect(APP);
    await send({ type: 'walletLock' });
    const sites = await connectedSitesItem.get();
    await connectedSitesItem.set([...sites, { ...(sites[0] as (typeof sites)[number]), origin: EVIL }]);
    await services.dapp.request(APP, frame, 'wallet_switchEthereumChain', [{ chainId: '0x2105' }]);
    await unlock();
    expect(await accountsOf(EVIL)).toEqual({ result: [] });
    await expect(services.wallet.activeSigner()).rejects.toThrow(/the connected sites/);
  });
});

describe('connected sites', () => {
  it('a site added or rewritten from outside gets no account, even after a worker restart', async () => {
    expect(await connect(APP)).toEqual({ result: [ACCOUNT] });
    expect(await accountsOf(APP)).toEqual({ result: [ACCOUNT] });
    const [site] = await connectedSitesItem.get();
    if (!site) throw new Error('not connected');
    // An outside writer rewrites the connected origin, and adds a site of its own.
    await connectedSitesItem.set([
      { ...site, origin: EVIL },
      { ...site, origin: 'https://other.example' },
    ]);
    await start();
    expect(await accountsOf(EVIL)).toEqual({ result: [] });
    expect(await accountsOf('https://other.example')).toEqual({ result: [] });
    expect(await status()).toMatchObject({ state: 'changed', fields: ['the connected sites'] });
    await expect(services.wallet.activeSigner()).rejects.toThrow(/the connected sites/);
  });

  it("a page's chain switch, even while locked, is not a change of the sealed sites", async () => {
    await connect(APP);
    await send({ type: 'walletLock' });
    expect(
      await services.dapp.request(APP, frame, 'wallet_switchEthereumChain', [{ chainId: '0x89' }]),
    ).toEqual({
      result: null,
    });
    await send({ type: 'walletUnlock', password: 'correct horse battery' });
    expect(await status()).toMatchObject({ state: 'confirmed' });
    expect(await accountsOf(APP)).toEqual({ result: [ACCOUNT] });
  });
});

describe('reviewing an outside change', () => {
  it('Discard puts back the values the user confirmed and seals them', async () => {
    await connect(APP);
    const [site] = await connectedSitesItem.get();
    if (!site) throw new Error('not connected');
    await settingsItem.set({ ...LOCAL, serviceBaseUrl: 'https://evil.example', slippage: 49 });
    await connectedSitesItem.set([{ ...site, origin: EVIL }]);
    await start();
    expect((await status()).fields).toEqual([
      'the swap service URL',
      'the slippage tolerance',
      'the connected sites',
    ]);
    expect(await send({ type: 'discardTrustChanges' })).toMatchObject({
      ok: true,
      result: { state: 'confirmed' },
    });
    expect(services.settings()).toMatchObject({
      serviceBaseUrl: LOCAL.serviceBaseUrl,
      slippage: LOCAL.slippage,
    });
    expect((await settingsItem.get()).serviceBaseUrl).toBe(LOCAL.serviceBaseUrl);
    expect((await connectedSitesItem.get()).map((s) => s.origin)).toEqual([APP]);
    expect(await accountsOf(APP)).toEqual({ result: [ACCOUNT] });
  });

  it('needs the wallet unlocked to discard', async () => {
    await send({ type: 'walletLock' });
    expect(await send({ type: 'discardTrustChanges' })).toMatchObject({
      ok: false,
      error: { code: 'LOCKED' },
    });
  });
});

describe('history entries (revoke reads them)', () => {
  it('an entry written from outside is neither listed nor revoked; one Swaplane sealed is', async () => {
    const sealed = entry('s1:approve', TOKEN);
    const sealer = entrySealer(() => services.wallet.trustKey());
    await swapHistoryItem.set([await sealedEntry(sealed, undefined, sealer)]);
    // The outside writer adds an entry (no seal, or one copied from the real entry).
    const stored = await swapHistoryItem.get();
    const forged = { ...entry('x:approve', NFT), seal: stored[0]?.seal };
    await swapHistoryItem.set([forged, ...stored]);
    await start();
    const listed = await send({ type: 'getHistory' });
    expect(listed).toMatchObject({ ok: true });
    expect((listed as { result: { id: string }[] }).result.map((e) => e.id)).toEqual(['s1:approve']);
    expect(await send({ type: 'previewRevoke', chainId: 1, token: NFT, spender: SPENDER })).toMatchObject({
      ok: false,
      error: { code: 'NOT_GRANTED' },
    });
  });

  it("keeps an entry's seal through its status updates, even while locked", async () => {
    const history = createSwapHistory({ sealer: entrySealer(() => services.wallet.trustKey()) });
    await history.record({ ...entry('s1:approve', TOKEN), status: 'pending' });
    await send({ type: 'walletLock' });
    await history.record(entry('s1:approve', TOKEN));
    expect(await history.verified()).toEqual([]); // locked: nothing can be checked
    await send({ type: 'walletUnlock', password: 'correct horse battery' });
    expect((await history.verified()).map((e) => e.status)).toEqual(['confirmed']);
  });
});

describe('existing users (v1 record, one MAC over five fields)', () => {
  async function v1Record(serviceBaseUrl: string) {
    const key = await deriveTrustKey({ mnemonic: ANVIL_PHRASE, importedKeys: [] });
    const snapshot = {
      serviceBaseUrl,
      rpcOverrides: {},
      chainNameOverrides: {},
      explorerHosts: {},
      routerPins: {},
    };
    const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(canonicalJson(snapshot)));
    const hex = [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
    return { snapshot, mac: hex, sealedAt: 1 };
  }

  it('seals each field on the first unlocked check, the new ones at their current values', async () => {
    await settingsItem.set({ ...LOCAL, rpcOverrides: {} });
    await swapHistoryItem.set([entry('s1:approve', TOKEN)]);
    await fakeBrowser.storage.local.set({
      trustRecord: { v: 1, data: await v1Record(LOCAL.serviceBaseUrl) },
    });
    await start();
    expect(await status()).toMatchObject({ state: 'confirmed' });
    const record = await trustRecordItem.get();
    expect(record?.legacyMac).toBeUndefined();
    expect(Object.keys(record?.macs ?? {})).toHaveLength(11);
    // The history recorded before entries were sealed is sealed now, once: it stays listed.
    expect(((await send({ type: 'getHistory' })) as { result: unknown[] }).result).toHaveLength(1);
  });

  it('keeps a v1 record that does not verify forged', async () => {
    await settingsItem.set({ ...LOCAL, rpcOverrides: {} });
    const forged = { ...(await v1Record(LOCAL.serviceBaseUrl)), mac: 'ab'.repeat(32) };
    await fakeBrowser.storage.local.set({ trustRecord: { v: 1, data: forged } });
    await start();
    expect(await status()).toMatchObject({ state: 'forged' });
    await expect(services.wallet.activeSigner()).rejects.toThrow(
      /rewritten by something other than Swaplane/,
    );
  });
});

describe('pending swaps (speed up and cancel sign from them)', () => {
  const sealer = () => entrySealer(() => services.wallet.trustKey());

  it('seals what was signed, keeps the seal through tracking (even locked), and refuses a forged record', async () => {
    const store = createPendingSwapStore(undefined, sealer());
    const sent = swapStateFixture({ status: 'sent', tx: sentTxFixture() });
    await store.save(sent);
    expect(await store.verify(sent)).toBe(true);
    await send({ type: 'walletLock' });
    await store.save({ ...sent, status: 'confirmed', updatedAt: 99 });
    expect(await store.verify(sent)).toBeNull(); // locked: nothing can be checked
    await send({ type: 'walletUnlock', password: 'correct horse battery' });
    expect(await store.verify(sent)).toBe(true);

    // An outside writer raises the fee fields (what a Cancel would inherit), keeping the seal.
    const [stored] = await pendingSwapsItem.get();
    if (!stored?.tx) throw new Error('not stored');
    const forged = { ...stored, tx: { ...stored.tx, maxFeePerGas: '1000000000000000' } };
    await pendingSwapsItem.set([forged]);
    expect(await store.verify(forged)).toBe(false);
    // A record with no seal at all is not Swaplane's either.
    const { seal: _seal, ...unsealed } = forged;
    await pendingSwapsItem.set([unsealed]);
    expect(await store.verify(unsealed)).toBe(false);
  });
});
