// The background's dapp service with the real wallet service and storage (fake browser): the origin
// comes from the sender, accounts only after the user's yes, the queue bounded, the window's close
// rejecting, events only to the frames of the origin concerned.
import { recoverMessageAddress } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import { dappHandlers } from '@/lib/background/handlers/dapp';
import { connectedSitesItem, dappRefusalsItem } from '@/lib/storage/items';

import { A, ACCOUNT, B, frameA, frameB, PASSWORD, useDappHarness } from '../support/dapp-harness';

const h = useDappHarness();

describe('the dapp service', () => {
  it('a page sees no account until the user connects it, and only its own origin is connected', async () => {
    expect(await h.dapp.request(A, frameA, 'eth_accounts', undefined)).toEqual({ result: [] });
    expect(await h.connect()).toEqual({ result: [ACCOUNT] });
    expect(h.opened).toBe(1);
    expect(await h.dapp.request(A, frameA, 'eth_accounts', undefined)).toEqual({ result: [ACCOUNT] });
    expect(await h.dapp.request(B, frameB, 'eth_accounts', undefined)).toEqual({ result: [] });
    expect(await h.dapp.request(B, frameB, 'personal_sign', ['0x68', ACCOUNT])).toMatchObject({
      error: { code: 4100 },
    });
    // Connected: eth_requestAccounts answers at once, no window.
    expect(await h.dapp.request(A, frameA, 'eth_requestAccounts', undefined)).toEqual({ result: [ACCOUNT] });
    expect(h.opened).toBe(1);
  });

  it('the background closes the window once nothing waits; a request arriving as it closes gets a new one', async () => {
    await h.connect();
    expect(h.closed).toEqual([1]);
    // The dapp asks again at once, before the browser reports the first window gone.
    const pending = h.dapp.request(A, frameA, 'personal_sign', ['0x48656c6c6f', ACCOUNT]);
    await expect.poll(() => h.opened).toBe(2);
    h.dapp.windowClosed(1); // the first window's removal arrives late: the new request still waits
    expect((await h.dapp.approvals()).current?.detail.kind).toBe('sign');
    await h.approveNext();
    expect(await pending).toMatchObject({ result: expect.stringMatching(/^0x/) });
    expect(h.closed).toEqual([1, 2]);
  });

  it('the bridge handler takes the origin from the sender, never from the message', async () => {
    await h.connect();
    const handlers = dappHandlers(h.dapp);
    const forged = { type: 'dappRequest', method: 'eth_accounts', origin: A } as never;
    expect(await handlers.dappRequest(forged, { url: `${B}/page`, tabId: 2, frameId: 0 })).toEqual({
      result: [],
    });
    expect(await handlers.dappRequest(forged, { url: `${A}/page`, origin: A, tabId: 1, frameId: 0 })).toEqual(
      {
        result: [ACCOUNT],
      },
    );
    await expect(handlers.dappRequest(forged, { url: 'file:///x' })).rejects.toThrow('Only http(s) pages');
  });

  const PERMISSIONS = [{ eth_accounts: {} }];
  it("a frame of another site asks as itself: the window names it and the page around it, and only the frame's origin is connected", async () => {
    const handlers = dappHandlers(h.dapp);
    const ask = (method: string, sender: Parameters<typeof handlers.dappRequest>[1]) =>
      handlers.dappRequest(
        { type: 'dappRequest', method, params: PERMISSIONS, key: undefined } as never,
        sender,
      );
    // Site B's frame inside site A's page (Chrome reports the frame's origin, the tab's top URL).
    const inA = { origin: B, url: `${B}/widget`, tabId: 1, frameId: 7, topUrl: `${A}/page` };
    const connecting = ask('eth_requestAccounts', inA);
    await expect.poll(async () => (await h.dapp.approvals()).current?.origin).toBe(B);
    expect((await h.dapp.approvals()).current?.embeddedIn).toBe(A);
    await h.approveNext();
    expect(await connecting).toEqual({ result: [ACCOUNT] });
    expect((await connectedSitesItem.get()).map((site) => site.origin)).toEqual([B]);
    // The page around it is not connected; B is, wherever it runs.
    expect(
      await ask('eth_accounts', { origin: A, url: `${A}/page`, tabId: 1, frameId: 0, topUrl: `${A}/page` }),
    ).toEqual({ result: [] });
    expect(
      await ask('eth_accounts', { origin: B, url: `${B}/`, tabId: 2, frameId: 0, topUrl: `${B}/` }),
    ).toEqual({ result: [ACCOUNT] });
    // A frame of the page's own origin, or a top page, is not "embedded"; a top page that cannot be named is said so.
    const own = ask('wallet_requestPermissions', { ...inA, origin: A, url: `${A}/frame` });
    await expect.poll(async () => (await h.dapp.approvals()).current?.origin).toBe(A);
    expect((await h.dapp.approvals()).current).not.toHaveProperty('embeddedIn');
    await h.dapp.decide((await h.dapp.approvals()).current?.id as string, false);
    expect(await own).toMatchObject({ error: { code: 4001 } });
    const unnamed = ask('wallet_requestPermissions', {
      ...inA,
      origin: A,
      url: `${A}/frame`,
      topUrl: 'file:///x',
    });
    await expect.poll(async () => (await h.dapp.approvals()).current?.origin).toBe(A);
    expect((await h.dapp.approvals()).current?.embeddedIn).toBeNull();
    await h.dapp.decide((await h.dapp.approvals()).current?.id as string, false);
    expect(await unnamed).toMatchObject({ error: { code: 4001 } });
  });

  it('personal_sign waits for the yes, then signs with the connected account', async () => {
    await h.connect();
    const pending = h.dapp.request(A, frameA, 'personal_sign', ['0x48656c6c6f', ACCOUNT]);
    await expect
      .poll(async () => (await h.dapp.approvals()).current?.detail)
      .toEqual({
        kind: 'sign',
        account: ACCOUNT,
        message: { kind: 'text', text: 'Hello' },
        warnings: [],
      });
    await h.approveNext();
    const answer = (await pending) as { result: `0x${string}` };
    expect(await recoverMessageAddress({ message: 'Hello', signature: answer.result })).toBe(ACCOUNT);
  });

  it('a site disconnected while its request waits (by the user, or by the page itself) gets 4100 and nothing signed', async () => {
    await h.connect();
    const byUser = h.dapp.request(A, frameA, 'personal_sign', ['0x48656c6c6f', ACCOUNT]);
    await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('sign');
    await h.dapp.disconnect(A);
    await expect(h.approveNext()).rejects.toThrow('not connected');
    expect(await byUser).toMatchObject({ error: { code: 4100 } });
    // The page revokes its own connection while its request waits.
    await h.connect();
    const byPage = h.dapp.request(A, frameA, 'personal_sign', ['0x48656c6c6f', ACCOUNT]);
    await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('sign');
    expect(await h.dapp.request(A, frameA, 'wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({
      result: null,
    });
    await expect(h.approveNext()).rejects.toThrow('not connected');
    expect(await byPage).toMatchObject({ error: { code: 4100 } });
  });

  it('a page that asks again after each "Reject" gets 4001 without a window for 30 s after the third', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      h.restart(); // a service that reads the faked clock
      await h.connect();
      for (let i = 0; i < 3; i++) {
        const asked = h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
        await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('sign');
        await h.dapp.decide((await h.dapp.approvals()).current?.id as string, false);
        expect(await asked).toMatchObject({ error: { code: 4001 } });
      }
      const opened = h.opened;
      const spam = await h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
      expect(spam).toMatchObject({ error: { code: 4001, message: expect.stringContaining('wait 30 s') } });
      expect((await h.dapp.approvals()).current).toBeNull();
      // Another site is not affected, and the page may ask again once the time has passed.
      expect(await h.dapp.request(B, frameB, 'eth_accounts', undefined)).toEqual({ result: [] });
      vi.setSystemTime(Date.now() + 30_001);
      const later = h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
      await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('sign');
      expect(h.opened).toBe(opened + 1);
      await h.approveNext();
      expect(await later).toMatchObject({ result: expect.stringMatching(/^0x/) });
    } finally {
      vi.useRealTimers();
    }
  });

  it('the cool-down survives a worker restart: it is kept in storage.session, not in memory', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      h.restart();
      await h.connect();
      for (let i = 0; i < 3; i++) {
        const asked = h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
        await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('sign');
        await h.dapp.decide((await h.dapp.approvals()).current?.id as string, false);
        expect(await asked).toMatchObject({ error: { code: 4001 } });
      }
      expect(await dappRefusalsItem.get()).toEqual([{ origin: A, at: expect.any(Array) }]);
      // The page waits for the browser to stop the worker, then asks again: still no window.
      vi.setSystemTime(Date.now() + 29_000);
      h.restart();
      const opened = h.opened;
      const spam = await h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
      expect(spam).toMatchObject({ error: { code: 4001, message: expect.stringContaining('wait 30 s') } });
      expect(h.opened).toBe(opened);
      // A refusal time in the future (the clock moved back) does not hold the page forever.
      await dappRefusalsItem.set([{ origin: A, at: [Date.now() + 1e9] }]);
      h.restart();
      const later = h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]);
      await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('sign');
      expect(h.opened).toBe(opened + 1);
      await h.dapp.decide((await h.dapp.approvals()).current?.id as string, false);
      expect(await later).toMatchObject({ error: { code: 4001 } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejecting, and closing the window, answer 4001; the queue is bounded per origin (-32005)', async () => {
    await h.connect();
    const asks = Array.from({ length: 5 }, () =>
      h.dapp.request(A, frameA, 'personal_sign', ['0x01', ACCOUNT]),
    );
    const settled = await Promise.all(asks.slice(3));
    expect(settled).toEqual([
      { error: { code: -32005, message: 'This site already has requests waiting for the user.' } },
      { error: { code: -32005, message: 'This site already has requests waiting for the user.' } },
    ]);
    await expect.poll(async () => (await h.dapp.approvals()).waiting.length).toBe(2);
    const first = (await h.dapp.approvals()).current;
    await h.dapp.decide(first?.id as string, false);
    expect(await asks[0]).toEqual({ error: { code: 4001, message: 'The user rejected the request.' } });
    h.dapp.windowClosed(999); // another window: nothing happens
    expect((await h.dapp.approvals()).waiting).toHaveLength(1);
    h.dapp.windowClosed(h.opened);
    expect(await Promise.all(asks.slice(1, 3))).toEqual([
      { error: { code: 4001, message: 'The user rejected the request.' } },
      { error: { code: 4001, message: 'The user rejected the request.' } },
    ]);
  });

  it('locked: eth_accounts is []; connecting needs the password, a wrong one keeps the request waiting', async () => {
    await h.connect();
    await h.wallet.lock();
    expect(await h.dapp.request(A, frameA, 'eth_accounts', undefined)).toEqual({ result: [] });
    const pending = h.dapp.request(A, frameA, 'eth_requestAccounts', undefined);
    await expect.poll(async () => (await h.dapp.approvals()).wallet).toBe('locked');
    await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('connect');
    await expect(h.approveNext()).rejects.toThrow('Unlock Swaplane first');
    await expect(h.approveNext('wrong password')).rejects.toThrow();
    expect((await h.dapp.approvals()).current).not.toBeNull();
    await h.approveNext(PASSWORD);
    expect(await pending).toEqual({ result: [ACCOUNT] });
  });

  it('chains are per origin: configured ones switch (chainChanged to that origin only), others 4902', async () => {
    await h.connect();
    await h.dapp.request(B, frameB, 'eth_chainId', undefined);
    h.delivered = [];
    expect(await h.dapp.request(A, frameA, 'wallet_switchEthereumChain', [{ chainId: '0x2105' }])).toEqual({
      result: null,
    });
    expect(await h.dapp.request(A, frameA, 'eth_chainId', undefined)).toEqual({ result: '0x2105' });
    expect(await h.dapp.request(B, frameB, 'eth_chainId', undefined)).toEqual({ result: '0x1' });
    expect(await h.dapp.request(A, frameA, 'net_version', undefined)).toEqual({ result: '8453' });
    expect(h.delivered).toEqual([
      {
        frame: frameA,
        event: { type: 'swaplane:dapp-event', origin: A, event: 'chainChanged', data: '0x2105' },
      },
    ]);
    expect(
      await h.dapp.request(A, frameA, 'wallet_switchEthereumChain', [{ chainId: '0x53a' }]),
    ).toMatchObject({
      error: { code: 4902 },
    });
    expect(
      await h.dapp.request(A, frameA, 'wallet_addEthereumChain', [{ chainId: '0x53a', chainName: 'x' }]),
    ).toMatchObject({ error: { code: 4902 } });
    expect((await connectedSitesItem.get())[0]?.chainId).toBe(8453);
  });

  it('disconnecting (Settings or wallet_revokePermissions) tells that origin accountsChanged []', async () => {
    await h.connect();
    expect(await h.dapp.request(A, frameA, 'wallet_getPermissions', undefined)).toMatchObject({
      result: [{ parentCapability: 'eth_accounts', caveats: [{ value: [ACCOUNT] }] }],
    });
    h.delivered = [];
    await h.dapp.disconnect(A);
    expect(h.delivered).toEqual([
      {
        frame: frameA,
        event: { type: 'swaplane:dapp-event', origin: A, event: 'accountsChanged', data: [] },
      },
    ]);
    expect(await h.dapp.request(A, frameA, 'eth_accounts', undefined)).toEqual({ result: [] });
    expect(await h.dapp.sites()).toEqual([]);
  });

  it('typed data for another chain than the site is refused before any window (-32602)', async () => {
    await h.connect();
    const data = {
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      domain: { name: 'x', chainId: 8453 },
      message: { contents: 'hi' },
    };
    const answer = await h.dapp.request(A, frameA, 'eth_signTypedData_v4', [ACCOUNT, JSON.stringify(data)]);
    expect(answer).toMatchObject({ error: { code: -32602 } });
    expect((await h.dapp.approvals()).current).toBeNull();
  });
});
