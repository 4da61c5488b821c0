// The dapp service's queue and accounts (real wallet service, fake browser storage): a request holds
// its place before it is prepared, ticked warnings, "1 of N", a reloading page rejecting its own,
// accounts chosen per site and accountsChanged on a switch, personal_ecRecover, opaque origins.
import { type Hex, recoverMessageAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { dappHandlers } from '@/lib/background/handlers/dapp';

import { A, ACCOUNT, B, frameA, frameB, useDappHarness } from '../support/dapp-harness';

const h = useDappHarness();

async function connectChoosing(accounts: string[]) {
  const pending = h.dapp.request(A, frameA, 'eth_requestAccounts', undefined);
  await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('connect');
  const state = await h.dapp.approvals();
  await h.dapp.decide(state.current?.id as string, true, undefined, [], { accounts });
  return pending;
}

describe('the approval queue and accounts', () => {
  it('the user chooses the accounts a site sees; switching the active account tells granted sites only', async () => {
    // A new account becomes the active one.
    const added = await h.wallet.addAccount('Second');
    const second = added.accounts.find((account) => account.address !== ACCOUNT)?.address as string;
    const offered = h.dapp.request(A, frameA, 'eth_requestAccounts', undefined);
    await expect
      .poll(async () => (await h.dapp.approvals()).current?.detail)
      .toMatchObject({
        kind: 'connect',
        accounts: [
          { address: second, active: true },
          { address: ACCOUNT, active: false },
        ],
      });
    const id = (await h.dapp.approvals()).current?.id as string;
    // An address that is not the wallet's is refused; the request keeps waiting.
    await expect(
      h.dapp.decide(id, true, undefined, [], { accounts: ['0x0000000000000000000000000000000000000001'] }),
    ).rejects.toThrow('Choose at least one');
    await h.dapp.decide(id, true, undefined, [], { accounts: [second] });
    expect(await offered).toEqual({ result: [second] });
    expect(await h.dapp.request(A, frameA, 'eth_accounts', undefined)).toEqual({ result: [second] });
    await h.dapp.request(B, frameB, 'eth_chainId', undefined);
    h.delivered = [];
    await h.dapp.activeAccountChanged(second);
    expect(h.delivered).toEqual([
      {
        frame: frameA,
        event: { type: 'swaplane:dapp-event', origin: A, event: 'accountsChanged', data: [second] },
      },
    ]);
    h.delivered = [];
    // The first account is not granted to A: A hears nothing.
    await h.dapp.activeAccountChanged(ACCOUNT);
    expect(h.delivered).toEqual([]);
  });

  it('a connect that leaves the active account out makes the chosen one active; its other sites hear it', async () => {
    const added = await h.wallet.addAccount('Second');
    const second = added.accounts.find((account) => account.address !== ACCOUNT)?.address as string;
    // B is granted the second account while it is active.
    const pendingB = h.dapp.request(B, frameB, 'eth_requestAccounts', undefined);
    await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('connect');
    await h.dapp.decide((await h.dapp.approvals()).current?.id as string, true, undefined, [], {
      accounts: [second],
    });
    expect(await pendingB).toEqual({ result: [second] });
    // The first account becomes active again; A then connects with the second account only.
    await h.wallet.setActive(added.accounts.find((account) => account.address === ACCOUNT)?.id as string);
    h.delivered = [];
    expect(await connectChoosing([second])).toEqual({ result: [second] });
    const state = await h.wallet.state();
    expect(state.accounts.find((account) => account.id === state.activeId)?.address).toBe(second);
    // B, granted the account that became active, hears the switch (A hears its own connect).
    expect(h.delivered).toContainEqual({
      frame: frameB,
      event: { type: 'swaplane:dapp-event', origin: B, event: 'accountsChanged', data: [second] },
    });
    // Choosing the active account (with others) changes nothing.
    h.delivered = [];
    await h.dapp.disconnect(A);
    h.delivered = [];
    expect(await connectChoosing([ACCOUNT, second])).toEqual({ result: [second, ACCOUNT] });
    expect((await h.wallet.state()).activeId).toBe(state.activeId);
  });

  it('a request over the limit is refused before it is prepared (nothing simulated)', async () => {
    await connectChoosing([ACCOUNT]);
    const asks = Array.from({ length: 3 }, () =>
      h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]),
    );
    await expect.poll(async () => (await h.dapp.approvals()).order.length).toBe(3);
    // A transaction would need the network to be prepared; over the limit it never gets there.
    const started = Date.now();
    expect(
      await h.dapp.request(A, frameA, 'eth_sendTransaction', [{ from: ACCOUNT, to: ACCOUNT, value: '0x1' }]),
    ).toEqual({ error: { code: -32005, message: 'This site already has requests waiting for the user.' } });
    expect(Date.now() - started).toBeLessThan(500);
    h.dapp.windowClosed(h.opened);
    await Promise.all(asks);
  });

  it('"1 of N": the window can show any waiting request, in order', async () => {
    await connectChoosing([ACCOUNT]);
    const first = h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
    const second = h.dapp.request(A, frameA, 'personal_sign', ['0x02', ACCOUNT]);
    await expect.poll(async () => (await h.dapp.approvals()).order.length).toBe(2);
    const { order, current } = await h.dapp.approvals();
    expect(current?.id).toBe(order[0]);
    const moved = await h.dapp.approvals(order[1]);
    expect(moved.current?.id).toBe(order[1]);
    expect(moved.current?.detail).toMatchObject({ message: { kind: 'hex', hex: '0x02' } });
    expect(moved.waiting.map((entry) => entry.id)).toEqual([order[0]]);
    await h.dapp.decide(order[1] as string, false);
    expect(await second).toMatchObject({ error: { code: 4001 } });
    expect((await h.dapp.approvals(order[1])).current?.id).toBe(order[0]);
    await h.dapp.decide(order[0] as string, false);
    expect(await first).toMatchObject({ error: { code: 4001 } });
  });

  it('a 32-byte hex message cannot be signed until its warning is ticked', async () => {
    await connectChoosing([ACCOUNT]);
    const hash = `0x${'ab'.repeat(32)}`;
    const pending = h.dapp.request(A, frameA, 'personal_sign', [hash, ACCOUNT]);
    await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('sign');
    const id = (await h.dapp.approvals()).current?.id as string;
    await expect(h.dapp.decide(id, true)).rejects.toThrow('Tick every warning');
    await h.dapp.decide(id, true, undefined, ['HASH_SIGNATURE']);
    const { result } = (await pending) as { result: Hex };
    expect(await recoverMessageAddress({ message: { raw: hash as Hex }, signature: result })).toBe(ACCOUNT);
    // personal_ecRecover answers the signer as eth_accounts writes it.
    expect(await h.dapp.request(A, frameA, 'personal_ecRecover', [hash, result])).toEqual({
      result: ACCOUNT,
    });
    expect(await h.dapp.request(A, frameA, 'personal_ecRecover', [hash, '0x12'])).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('a page that reloads (its tab navigates) rejects its own waiting requests, not others', async () => {
    await connectChoosing([ACCOUNT]);
    const fromTab = h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
    const otherTab = h.dapp.request(A, { tabId: 9, frameId: 0 }, 'personal_sign', ['0x02', ACCOUNT]);
    await expect.poll(async () => (await h.dapp.approvals()).order.length).toBe(2);
    h.dapp.tabNavigated(frameA.tabId);
    expect(await fromTab).toEqual({ error: { code: 4001, message: 'The user rejected the request.' } });
    expect((await h.dapp.approvals()).order).toHaveLength(1);
    h.dapp.windowClosed(h.opened);
    expect(await otherTab).toMatchObject({ error: { code: 4001 } });
  });

  it('an opaque (null) origin is refused, never replaced by its URL', async () => {
    const handlers = dappHandlers(h.dapp);
    await expect(
      handlers.dappRequest({ type: 'dappRequest', method: 'eth_requestAccounts' }, {
        origin: 'null',
        url: 'https://app.example/sandboxed',
        tabId: 1,
        frameId: 3,
      } as never),
    ).rejects.toThrow('opaque origin');
    expect(h.opened).toBe(0);
  });
});
