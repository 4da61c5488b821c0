// Waiting approvals outlive the worker (storage.session): a new dapp service over the same storage
// shows the same request, and its answer reaches the page once the page's bridge asks for it again
// (dappResume); a page that never comes back gets nothing signed; a page that reloads still rejects
// its own; what is stored is parsed (a forged view is dropped, never shown).
import { type Hex, recoverMessageAddress, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { dappQueueItem } from '@/lib/storage/items';
import { A, ACCOUNT, frameA, useDappHarness } from '../support/dapp-harness';

const h = useDappHarness();
const KEY = 'k1';
const message = toHex('Sign in to app.example');

/** A personal_sign from A's page (bridge key KEY), shown in the window. */
async function waitingSignature() {
  await h.connect();
  const first = h.dapp.request(A, frameA, 'personal_sign', [message, ACCOUNT], KEY);
  await expect.poll(async () => (await h.dapp.approvals()).current?.detail.kind).toBe('sign');
  return { first, id: (await h.dapp.approvals()).current?.id as string };
}

describe('waiting approvals across a worker restart', () => {
  it('are stored in storage.session, shown again by the next worker, and answered to the page that resumes', async () => {
    const { id } = await waitingSignature();
    await expect.poll(async () => (await dappQueueItem.get()).requests.map((r) => r.id)).toEqual([id]);
    const stored = await fakeBrowser.storage.session.get('dappQueue');
    expect(stored.dappQueue).toBeDefined();
    expect(await fakeBrowser.storage.local.get('dappQueue')).toEqual({});

    h.restart();
    const state = await h.dapp.approvals();
    expect(state.current).toMatchObject({ id, origin: A, detail: { kind: 'sign', account: ACCOUNT } });
    // The page's bridge asks again (its first message died with the worker), then the user signs.
    const resumed = h.dapp.resume(A, frameA, KEY);
    await h.dapp.decide(id, true);
    const answer = await resumed;
    expect('result' in answer).toBe(true);
    const signature = (answer as { result: Hex }).result;
    expect(await recoverMessageAddress({ message: { raw: message }, signature })).toBe(ACCOUNT);
    expect((await dappQueueItem.get()).requests).toEqual([]);
  });

  it('a page that never came back gets nothing signed: the approval is refused with PAGE_GONE', async () => {
    const { id } = await waitingSignature();
    h.restart();
    await expect(h.dapp.decide(id, true)).rejects.toMatchObject({ code: 'PAGE_GONE' });
    expect((await h.dapp.approvals()).current).toBeNull();
    // Were it to resume late, it hears why (no signature).
    const late = await h.dapp.resume(A, frameA, KEY);
    expect(late).toMatchObject({
      error: { code: 4900, message: expect.stringMatching(/nothing was signed/) },
    });
  });

  it('only the frame that asked can resume it, and an unknown key is told to send again', async () => {
    const { id } = await waitingSignature();
    h.restart();
    const other = await h.dapp.resume(A, { tabId: 9, frameId: 0 }, KEY);
    expect(other).toMatchObject({ error: { code: 4900 } });
    expect((await h.dapp.approvals()).current?.id).toBe(id);
    expect(await h.dapp.resume('https://evil.example', frameA, KEY)).toMatchObject({ error: { code: 4900 } });
  });

  it('a page that reloads after the restart still rejects its own (4001)', async () => {
    await waitingSignature();
    h.restart();
    const resumed = h.dapp.resume(A, frameA, KEY);
    await h.dapp.tabNavigated(frameA.tabId);
    expect(await resumed).toMatchObject({ error: { code: 4001 } });
    expect((await h.dapp.approvals()).current).toBeNull();
  });

  it('closing the window the last worker opened rejects what it showed (4001)', async () => {
    await waitingSignature();
    const windowId = h.opened;
    h.restart();
    const resumed = h.dapp.resume(A, frameA, KEY);
    await h.dapp.windowClosed(windowId);
    expect(await resumed).toMatchObject({ error: { code: 4001 } });
  });

  it('a forged stored view is dropped, and a forged record is not read at all', async () => {
    await waitingSignature();
    const stored = await dappQueueItem.get();
    const [request] = stored.requests;
    if (!request) throw new Error('nothing stored');
    await dappQueueItem.set({
      ...stored,
      requests: [{ ...request, view: { ...request.view, detail: 'x' } }],
    });
    h.restart();
    expect((await h.dapp.approvals()).current).toBeNull();
    await fakeBrowser.storage.session.set({ dappQueue: { v: 1, data: { windowId: 'x', requests: [] } } });
    h.restart();
    expect((await h.dapp.approvals()).current).toBeNull();
  });
});
