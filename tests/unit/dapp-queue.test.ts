// The dapp service's queue and accounts (real wallet service, fake browser storage): a request holds
// its place before it is prepared, ticked warnings, "1 of N", a reloading page rejecting its own,
// accounts chosen per site and accountsChanged on a switch, personal_ecRecover, opaque origins.
import { type Hex, recoverMessageAddress } from 'viem';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createDappService, type DappEvent, type Frame } from '@/lib/background/dapp';
import { dappHandlers } from '@/lib/background/handlers/dapp';
import { createWalletService } from '@/lib/background/wallet';
import type { DappResponse } from '@/lib/dapp/approval';
import { DEFAULT_SETTINGS } from '@/lib/settings/settings';

const ANVIL = 'test test test test test test test test test test test junk';
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PASSWORD = 'correct horse battery';
const A = 'https://app.example';
const B = 'https://evil.example';

let opened: number;
let delivered: { frame: Frame; event: DappEvent }[];
let wallet: ReturnType<typeof createWalletService>;
let closed: number[] = [];
let dapp: ReturnType<typeof createDappService>;

beforeEach(async () => {
  fakeBrowser.reset();
  opened = 0;
  closed = [];
  delivered = [];
  wallet = createWalletService({
    autoLockMinutes: () => 15,
    kdf: { iterations: 1_000, minIterations: 1_000 },
  });
  await wallet.restore();
  await wallet.importWallet({ kind: 'mnemonic', secret: ANVIL, password: PASSWORD, confirmation: PASSWORD });
  dapp = createDappService({
    settings: () => DEFAULT_SETTINGS,
    wallet,
    openWindow: async () => ++opened,
    focusWindow: async () => undefined,
    closeWindow: async (id) => {
      closed.push(id);
    },
    sendToFrame: async (frame, event) => {
      delivered.push({ frame, event });
    },
  });
});

const frameA = { tabId: 1, frameId: 0 };
const frameB = { tabId: 2, frameId: 0 };

async function approveNext(password?: string) {
  const state = await dapp.approvals();
  if (!state.current) throw new Error('nothing waits');
  return dapp.decide(state.current.id, true, password);
}

async function _connect(origin = A, frame = frameA): Promise<DappResponse> {
  const pending = dapp.request(origin, frame, 'eth_requestAccounts', undefined);
  await expect.poll(async () => (await dapp.approvals()).current?.origin).toBe(origin);
  await approveNext();
  return pending;
}

async function connectChoosing(accounts: string[]) {
  const pending = dapp.request(A, frameA, 'eth_requestAccounts', undefined);
  await expect.poll(async () => (await dapp.approvals()).current?.detail.kind).toBe('connect');
  const state = await dapp.approvals();
  await dapp.decide(state.current?.id as string, true, undefined, [], { accounts });
  return pending;
}

describe('the approval queue and accounts', () => {
  it('the user chooses the accounts a site sees; switching the active account tells granted sites only', async () => {
    // A new account becomes the active one.
    const added = await wallet.addAccount('Second');
    const second = added.accounts.find((account) => account.address !== ACCOUNT)?.address as string;
    const offered = dapp.request(A, frameA, 'eth_requestAccounts', undefined);
    await expect
      .poll(async () => (await dapp.approvals()).current?.detail)
      .toMatchObject({
        kind: 'connect',
        accounts: [
          { address: second, active: true },
          { address: ACCOUNT, active: false },
        ],
      });
    const id = (await dapp.approvals()).current?.id as string;
    // An address that is not the wallet's is refused; the request keeps waiting.
    await expect(
      dapp.decide(id, true, undefined, [], { accounts: ['0x0000000000000000000000000000000000000001'] }),
    ).rejects.toThrow('Choose at least one');
    await dapp.decide(id, true, undefined, [], { accounts: [second] });
    expect(await offered).toEqual({ result: [second] });
    expect(await dapp.request(A, frameA, 'eth_accounts', undefined)).toEqual({ result: [second] });
    await dapp.request(B, frameB, 'eth_chainId', undefined);
    delivered = [];
    await dapp.activeAccountChanged(second);
    expect(delivered).toEqual([
      {
        frame: frameA,
        event: { type: 'swaplane:dapp-event', origin: A, event: 'accountsChanged', data: [second] },
      },
    ]);
    delivered = [];
    // The first account is not granted to A: A hears nothing.
    await dapp.activeAccountChanged(ACCOUNT);
    expect(delivered).toEqual([]);
  });

  it('a request over the limit is refused before it is prepared (nothing simulated)', async () => {
    await connectChoosing([ACCOUNT]);
    const asks = Array.from({ length: 3 }, () => dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]));
    await expect.poll(async () => (await dapp.approvals()).order.length).toBe(3);
    // A transaction would need the network to be prepared; over the limit it never gets there.
    const started = Date.now();
    expect(
      await dapp.request(A, frameA, 'eth_sendTransaction', [{ from: ACCOUNT, to: ACCOUNT, value: '0x1' }]),
    ).toEqual({ error: { code: -32005, message: 'This site already has requests waiting for the user.' } });
    expect(Date.now() - started).toBeLessThan(500);
    dapp.windowClosed(opened);
    await Promise.all(asks);
  });

  it('"1 of N": the window can show any waiting request, in order', async () => {
    await connectChoosing([ACCOUNT]);
    const first = dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
    const second = dapp.request(A, frameA, 'personal_sign', ['0x02', ACCOUNT]);
    await expect.poll(async () => (await dapp.approvals()).order.length).toBe(2);
    const { order, current } = await dapp.approvals();
    expect(current?.id).toBe(order[0]);
    const moved = await dapp.approvals(order[1]);
    expect(moved.current?.id).toBe(order[1]);
    expect(moved.current?.detail).toMatchObject({ message: { kind: 'hex', hex: '0x02' } });
    expect(moved.waiting.map((entry) => entry.id)).toEqual([order[0]]);
    await dapp.decide(order[1] as string, false);
    expect(await second).toMatchObject({ error: { code: 4001 } });
    expect((await dapp.approvals(order[1])).current?.id).toBe(order[0]);
    await dapp.decide(order[0] as string, false);
    expect(await first).toMatchObject({ error: { code: 4001 } });
  });

  it('a 32-byte hex message cannot be signed until its warning is ticked', async () => {
    await connectChoosing([ACCOUNT]);
    const hash = `0x${'ab'.repeat(32)}`;
    const pending = dapp.request(A, frameA, 'personal_sign', [hash, ACCOUNT]);
    await expect.poll(async () => (await dapp.approvals()).current?.detail.kind).toBe('sign');
    const id = (await dapp.approvals()).current?.id as string;
    await expect(dapp.decide(id, true)).rejects.toThrow('Tick every warning');
    await dapp.decide(id, true, undefined, ['HASH_SIGNATURE']);
    const { result } = (await pending) as { result: Hex };
    expect(await recoverMessageAddress({ message: { raw: hash as Hex }, signature: result })).toBe(ACCOUNT);
    // personal_ecRecover answers the signer as eth_accounts writes it.
    expect(await dapp.request(A, frameA, 'personal_ecRecover', [hash, result])).toEqual({ result: ACCOUNT });
    expect(await dapp.request(A, frameA, 'personal_ecRecover', [hash, '0x12'])).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('a page that reloads (its tab navigates) rejects its own waiting requests, not others', async () => {
    await connectChoosing([ACCOUNT]);
    const fromTab = dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
    const otherTab = dapp.request(A, { tabId: 9, frameId: 0 }, 'personal_sign', ['0x02', ACCOUNT]);
    await expect.poll(async () => (await dapp.approvals()).order.length).toBe(2);
    dapp.tabNavigated(frameA.tabId);
    expect(await fromTab).toEqual({ error: { code: 4001, message: 'The user rejected the request.' } });
    expect((await dapp.approvals()).order).toHaveLength(1);
    dapp.windowClosed(opened);
    expect(await otherTab).toMatchObject({ error: { code: 4001 } });
  });

  it('an opaque (null) origin is refused, never replaced by its URL', async () => {
    const handlers = dappHandlers(dapp);
    await expect(
      handlers.dappRequest({ type: 'dappRequest', method: 'eth_requestAccounts' }, {
        origin: 'null',
        url: 'https://app.example/sandboxed',
        tabId: 1,
        frameId: 3,
      } as never),
    ).rejects.toThrow('opaque origin');
    expect(opened).toBe(0);
  });
});
