// Issue 25, storage tampering as an outside writer would do it: storage.local rewritten (the account
// list, a connected site, a history entry) and the worker restarted. Nothing forged is shown, given to
// a page or signed. Also: parallel wrong passwords each count, and a copied phrase leaves the clipboard.
import type { Page } from '@playwright/test';
import { BLANK_PAGE, connectPage, providerRequest, type StaticSite, serveStatic } from './dapp/support';
import {
  ACCOUNT,
  expect,
  expectNewWorker,
  markWorker,
  openWalletPopup,
  seedHistory,
  sendFromView,
  stopWorkerFromBlankTab,
  test,
  WORKER_STOP_RETRIES,
} from './fixtures';

test.describe.configure({ retries: WORKER_STOP_RETRIES });

const FORGED = '0x000000000000000000000000000000000000dEaD';
const NFT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const SPENDER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveStatic('/nonexistent', { '/index.html': BLANK_PAGE });
});
test.afterAll(async () => site.close());

/** Rewrites items of storage.local in place, as a content script could before the worker restarts. */
async function rewrite(page: Page, forged: { address: string; origin: string }): Promise<void> {
  await page.evaluate(async ({ address, origin }) => {
    type Envelope = { v: number; data: unknown };
    type Area = {
      get(key: string): Promise<Record<string, Envelope>>;
      set(items: Record<string, unknown>): Promise<void>;
    };
    const local = (globalThis as unknown as { chrome: { storage: { local: Area } } }).chrome.storage.local;
    const { keyringMeta } = await local.get('keyringMeta');
    const meta = keyringMeta?.data as { accounts: { address: string }[] };
    meta.accounts = meta.accounts.map((account) => ({ ...account, address }));
    const { connectedSites } = await local.get('connectedSites');
    const sites = ((connectedSites?.data ?? []) as { origin: string }[]).map((entry) => ({
      ...entry,
      origin,
    }));
    await local.set({ keyringMeta, connectedSites: { v: 1, data: sites } });
  }, forged);
}

test('tampered storage after a worker restart: no forged address shown, no account to a forged site, nothing revoked from a forged entry', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { popup: writer, popupUrl } = await openWalletPopup(context, extensionId);
  const app = await context.newPage();
  await app.goto(`${site.url}/index.html`);
  expect(await connectPage(app, context, extensionId)).toEqual({ result: [ACCOUNT] });

  const forgedOrigin = site.url.replace('127.0.0.1', 'localhost');
  await rewrite(writer, { address: FORGED, origin: forgedOrigin });
  await seedHistory(
    writer,
    [
      {
        kind: 'approval',
        id: 'forged:approve',
        swapId: 'forged',
        chainId: 1,
        account: ACCOUNT,
        status: 'confirmed',
        hash: `0x${'1'.repeat(64)}`,
        explorerUrl: null,
        gasPaid: null,
        failure: null,
        createdAt: 1,
        updatedAt: 1,
        token: NFT,
        spender: SPENDER,
        amount: '1',
        unlimited: false,
        reset: false,
      },
    ],
    { sealed: false },
  );
  await markWorker(context);
  await stopWorkerFromBlankTab(context, extensionId, writer);
  const popup = await context.newPage();
  await popup.goto(popupUrl);
  await expectNewWorker(context);

  // The account bar and Receive show the wallet's own address, never the one written in storage.
  await expect(popup.getByTestId('accounts-notice')).toContainText('changed outside Swaplane');
  await expect(popup.getByTestId('active-address')).toContainText(ACCOUNT);
  await popup.getByRole('button', { name: 'Receive' }).click();
  await expect(popup.getByTestId('receive-address')).toHaveText(ACCOUNT);
  await expect(popup.locator('body')).not.toContainText(/dEaD/i);

  // The rewritten connected site gets no account without the window.
  const forgedPage = await context.newPage();
  await forgedPage.goto(`${forgedOrigin}/index.html`);
  expect(await providerRequest(forgedPage, 'eth_accounts')).toEqual({ result: [] });

  // The forged history entry is not an approval Swaplane granted: nothing is signed from it.
  expect(await sendFromView(popup, { type: 'listApprovals' })).toEqual({ ok: true, result: [] });
  expect(
    await sendFromView(popup, { type: 'previewRevoke', chainId: 1, token: NFT, spender: SPENDER }),
  ).toMatchObject({ ok: false, error: { code: 'NOT_GRANTED' } });
});

test("Swaplane's content script cannot read or write storage.local (Chromium: trusted contexts only)", async ({
  context,
  extensionId,
}) => {
  const { popup } = await openWalletPopup(context, extensionId);
  const app = await context.newPage();
  // The extension's isolated world on the page: where its dapp bridge content script runs.
  const cdp = await context.newCDPSession(app);
  const worlds: { id: number; origin: string; type?: string }[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context: created }) => {
    worlds.push({ id: created.id, origin: created.origin, type: created.auxData?.type });
  });
  await cdp.send('Runtime.enable');
  await app.goto(`${site.url}/index.html`);
  const extensionWorld = () =>
    worlds.find((world) => world.type === 'isolated' && world.origin === `chrome-extension://${extensionId}`);
  await expect.poll(() => extensionWorld()?.id, { timeout: 10_000 }).toBeDefined();
  const inContentScript = async (expression: string) => {
    const { result } = await cdp.send('Runtime.evaluate', {
      expression,
      contextId: extensionWorld()?.id,
      awaitPromise: true,
      returnByValue: true,
    });
    return result.value as string;
  };
  const attempt = (call: string) =>
    `(async () => { try { await ${call}; return 'allowed'; } catch (error) { return String(error.message); } })()`;
  expect(await inContentScript(attempt("chrome.storage.local.get('keyringMeta')"))).toMatch(
    /Access to storage is not allowed from this context/,
  );
  expect(await inContentScript(attempt('chrome.storage.local.set({ probe: 1 })'))).toMatch(
    /Access to storage is not allowed from this context/,
  );
  // Swaplane's own pages still can.
  const fromPopup = await popup.evaluate(async () => {
    type Area = { get(key: string): Promise<Record<string, unknown>> };
    const local = (globalThis as unknown as { chrome: { storage: { local: Area } } }).chrome.storage.local;
    return 'keyringMeta' in (await local.get('keyringMeta'));
  });
  expect(fromPopup).toBe(true);
  await cdp.detach();
});

test('parallel wrong passwords are each counted before the key derivation runs', async ({
  context,
  extensionId,
}) => {
  const { popup } = await openWalletPopup(context, extensionId);
  await sendFromView(popup, { type: 'walletLock' });
  const answers = (await popup.evaluate(async () => {
    type Runtime = { sendMessage(message: unknown): Promise<{ ok: boolean; error?: { code: string } }> };
    const runtime = (globalThis as unknown as { chrome: { runtime: Runtime } }).chrome.runtime;
    const attempts = Array.from({ length: 5 }, () =>
      runtime.sendMessage({ type: 'walletUnlock', password: 'not the password' }),
    );
    return (await Promise.all(attempts)).map((answer) => answer.error?.code);
  })) as string[];
  // Three free attempts ran one after another, each counted; the next two met the backoff.
  expect(answers.filter((code) => code === 'UNLOCK_BACKOFF')).toHaveLength(2);
  const stored = (await popup.evaluate(async () => {
    type Area = { get(key: string): Promise<Record<string, { data: { failures: number } }>> };
    const local = (globalThis as unknown as { chrome: { storage: { local: Area } } }).chrome.storage.local;
    return (await local.get('unlockBackoff')).unlockBackoff?.data.failures;
  })) as number;
  expect(stored).toBe(3);
});

test('a copied recovery phrase is cleared from the clipboard 30 seconds later, even after the popup closed', async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);
  await popup.getByRole('button', { name: 'Create a new wallet' }).click();
  const copiedAt = Date.now();
  await popup.getByRole('button', { name: 'Copy' }).click();
  await expect(popup.getByRole('status')).toContainText('clears it from the clipboard in 30 seconds');
  const reader = await context.newPage(); // stays open to read the clipboard
  await reader.goto(`chrome-extension://${extensionId}/options.html`);
  const clipboard = () => reader.evaluate(() => navigator.clipboard.readText());
  expect((await clipboard()).split(' ')).toHaveLength(12);
  // The worker holds the clear: an alarm 30 s after the copy.
  type Alarm = { name: string; scheduledTime: number } | undefined;
  const alarm = () =>
    serviceWorker.evaluate(
      () =>
        (
          globalThis as unknown as { chrome: { alarms: { get(name: string): Promise<Alarm> } } }
        ).chrome.alarms.get('clear-clipboard') as Promise<Alarm>,
    );
  await expect.poll(async () => (await alarm())?.scheduledTime ?? 0).toBeGreaterThan(copiedAt + 29_000);
  expect((await alarm())?.scheduledTime).toBeLessThan(Date.now() + 31_000);
  await popup.close();
  // Instead of waiting 30 real seconds, the alarm is moved to now (an unpacked extension's alarms may).
  await serviceWorker.evaluate(() => {
    type Alarms = { create(name: string, info: { when: number }): Promise<void> };
    return (globalThis as unknown as { chrome: { alarms: Alarms } }).chrome.alarms.create('clear-clipboard', {
      when: Date.now(),
    });
  });
  await expect.poll(clipboard, { timeout: 15_000 }).toBe('');
});
