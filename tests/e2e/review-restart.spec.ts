// A swap review opened before Chrome stopped the service worker still confirms after the worker
// restarts: the prepared swap is kept in storage.session and read back once (lib/background/swaps-review.ts).
import {
  ETH,
  expect,
  expectNewWorker,
  markWorker,
  openHelperTab,
  openWalletPopup,
  pickToken,
  stopServiceWorker,
  swapAnswer,
  test,
  trustRouterInReview,
  USDC,
  WORKER_STOP_RETRIES,
} from './fixtures';

test.describe.configure({ retries: WORKER_STOP_RETRIES });

test('a review opened before the worker stopped confirms after it restarts, once', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { popup } = await openWalletPopup(context, extensionId);
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('0.5');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  const sheet = popup.getByRole('dialog', { name: 'Review swap' });
  await trustRouterInReview(popup); // the first swap with this router: a tick inside the review
  await expect(sheet.getByRole('button', { name: 'Confirm swap' })).toBeEnabled({ timeout: 20_000 });

  // Chrome stops the worker while the review is open (the popup stays).
  await markWorker(context);
  const helper = await openHelperTab(context);
  await stopServiceWorker(context, helper, extensionId);
  await helper.close();

  await sheet.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
  await expectNewWorker(context); // a new worker signed it
  const swap = (await swapAnswer(popup)) as { result: { status: string; requotes: number } };
  expect(swap.result).toMatchObject({ status: 'confirmed', requotes: 0 });
});
