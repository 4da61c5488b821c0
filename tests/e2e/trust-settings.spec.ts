// Issue 15, settings integrity: storage.local is shared with content scripts, so a compromised page
// renderer could rewrite the service URL, an RPC or a router pin. Such a write stops the next
// signature with a plain message until the user confirms the values in Settings; changing the
// service or an RPC from the options page needs the wallet unlocked and a confirmation.
import {
  E2E_PASSWORD,
  ETH,
  expect,
  expectNewWorker,
  markWorker,
  openWalletPopup,
  pickToken,
  sendFromView,
  setUpWallet,
  stopWorkerFromBlankTab,
  test,
  trustRouterInReview,
  USDC,
  WORKER_STOP_RETRIES,
} from './fixtures';

test.describe.configure({ retries: WORKER_STOP_RETRIES });

const FOREIGN_ROUTER = '0x000000000000000000000000000000000000dEaD';

test('a trust setting rewritten outside Swaplane stops the review until the user confirms it in Settings', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { popup: writer, popupUrl } = await openWalletPopup(context, extensionId);
  // What a compromised content script can do: write storage.local directly (here a router pin for
  // this service and an RPC URL), then wait for the worker to restart and read them.
  const rpc = JSON.parse(process.env.SWAPLANE_E2E_RPC_URLS ?? '{}') as Record<string, string>;
  await writer.evaluate(
    async ({ router, rpcUrl }) => {
      type Envelope = { v: number; data: Record<string, unknown> };
      type Area = {
        get(key: string): Promise<Record<string, unknown>>;
        set(items: Record<string, unknown>): Promise<void>;
      };
      const local = (globalThis as unknown as { chrome: { storage: { local: Area } } }).chrome.storage.local;
      const { settings } = (await local.get('settings')) as { settings: Envelope };
      const service = new URL(String(settings.data.serviceBaseUrl)).origin;
      const rpcOverrides = { ...(settings.data.rpcOverrides as Record<string, string>), '1': `${rpcUrl}/` };
      await local.set({
        settings: { ...settings, data: { ...settings.data, rpcOverrides } },
        routerPins: { v: 2, data: { [`${service} 8453`]: { address: router, pinnedAt: 1 } } },
      });
    },
    { router: FOREIGN_ROUTER, rpcUrl: rpc['1'] ?? '' },
  );
  // The worker is stopped from a blank page with no extension page open (as the other restart tests do:
  // an extension page holding the CDP session can be closed along with the worker).
  await markWorker(context);
  await stopWorkerFromBlankTab(context, extensionId, writer);
  const popup = await context.newPage();
  await popup.goto(popupUrl);
  await expectNewWorker(context);

  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('0.1');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  const refused = popup.getByTestId('preview-error');
  await expect(refused).toContainText('changed outside Swaplane', { timeout: 20_000 });
  await expect(refused).toContainText('the RPC URLs, the trusted router contracts');
  await expect(refused).toContainText('Nothing was signed');
  await expect(popup.getByRole('button', { name: 'Confirm swap' })).toHaveCount(0);

  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  const review = options.getByRole('region', { name: 'Review changed settings' });
  await expect(review).toContainText('the RPC URLs, the trusted router contracts');
  await review.getByRole('button', { name: 'These settings are mine: confirm them' }).click();
  await expect(review).toHaveCount(0);
  expect(await sendFromView(options, { type: 'trustSettingsStatus' })).toMatchObject({
    ok: true,
    result: { state: 'confirmed' },
  });

  await popup.goto(popupUrl);
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('0.1');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  // Ethereum's router was never trusted in this profile (the pin written was Base's): one tick.
  await trustRouterInReview(popup);
  await expect(popup.getByRole('button', { name: 'Confirm swap' })).toBeEnabled({ timeout: 20_000 });
});

test('changing the swap service in Settings needs the wallet unlocked and a confirmation that says what a service can do', async ({
  context,
  extensionId,
}) => {
  const { page: setup, serviceUrl } = await setUpWallet(context, extensionId, 'popup.html');
  expect(await sendFromView(setup, { type: 'walletLock' })).toMatchObject({ ok: true });

  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.getByLabel('Service base URL').fill('http://127.0.0.1:9999/');
  await options.getByRole('button', { name: 'Save' }).click();
  const dialog = options.getByRole('dialog', { name: 'Change the swap service?' });
  await expect(dialog).toContainText('It cannot sign for you or move funds on its own');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(options.getByTestId('settings-status')).toHaveText('Not saved: the change was cancelled.');
  expect(await sendFromView(options, { type: 'getSettings' })).toMatchObject({
    result: { serviceBaseUrl: serviceUrl },
  });
  // Cancel put the field back to what is stored.
  await expect(options.getByLabel('Service base URL')).toHaveValue(serviceUrl);

  await options.getByLabel('Service base URL').fill('http://127.0.0.1:9999/');
  await options.getByRole('button', { name: 'Save' }).click();
  await dialog.getByLabel('Wallet password').fill('not the password');
  await dialog.getByRole('button', { name: 'Unlock and change' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/password/i);
  await dialog.getByLabel('Wallet password').fill(E2E_PASSWORD);
  await dialog.getByRole('button', { name: 'Unlock and change' }).click();
  await expect(options.getByTestId('settings-status')).toHaveText('Saved.');
  expect(await sendFromView(options, { type: 'getSettings' })).toMatchObject({
    result: { serviceBaseUrl: 'http://127.0.0.1:9999/' },
  });
  expect(await sendFromView(options, { type: 'trustSettingsStatus' })).toMatchObject({
    result: { state: 'confirmed' },
  });
});
