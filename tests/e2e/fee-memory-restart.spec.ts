// The swap gas the fee probe simulated is remembered in storage.session (swapGasMemoryItem): after
// Chrome stops and restarts the service worker, a swap screen whose build the service refuses shows
// that remembered figure ("about"), not the route's rough estimate.
import { onPath } from '../support/fault-proxy';
import {
  ETH,
  expect,
  expectNewWorker,
  markWorker,
  openHelperTab,
  openWalletPopup,
  pickToken,
  sendFromView,
  serviceProxiedTest,
  stopServiceWorker,
  USDC,
  WORKER_STOP_RETRIES,
} from './fixtures';

type FeeAnswer = { ok: boolean; result: { gas: string; basis: 'simulated' | 'about' } | null };
type Route = { percent: number; swaps: { pool?: string }[] }[];

const test = serviceProxiedTest;
test.describe.configure({ retries: WORKER_STOP_RETRIES });

test('the simulated swap gas survives a worker restart: the refused-build fallback shows it, "about"', async ({
  context,
  extensionId,
  serviceProxy,
}) => {
  test.setTimeout(120_000);
  const { popup, problems } = await openWalletPopup(context, extensionId, {
    serviceBaseUrl: serviceProxy.url,
  });
  const fee = async () => (await sendFromView(popup, { type: 'quoteFee', chainId: 1 })) as FeeAnswer;
  const route = async () => {
    const start = (await sendFromView(popup, { type: 'popupStart' })) as {
      result: { session: { quote: { inAmount: string; bestRoute: Route } | null } };
    };
    return start.result.session.quote;
  };

  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('0.3');
  const feeText = popup.getByTestId('quote-fee');
  await expect(feeText).toContainText('ETH', { timeout: 30_000 });
  await expect(feeText).not.toContainText('about');
  const first = await fee();
  expect(first.result?.basis).toBe('simulated');
  const firstRoute = (await route())?.bestRoute;

  // Chrome stops the worker; the service then refuses every build (so nothing can be simulated).
  await markWorker(context);
  const helper = await openHelperTab(context);
  await stopServiceWorker(context, helper, extensionId);
  await helper.close();
  serviceProxy.add({ match: onPath('/v1/build'), fault: { kind: 'status', status: 503 } });

  await popup.getByLabel('Amount').fill('0.31');
  await expect(feeText).toContainText('about', { timeout: 30_000 });
  await expectNewWorker(context);
  const quote = await route();
  expect(quote?.inAmount).toBe((31n * 10n ** 16n).toString());
  // Same pools and shares: a route of the same shape, whose remembered gas applies.
  expect(quote?.bestRoute.map((share) => share.swaps.map((swap) => swap.pool))).toEqual(
    firstRoute?.map((share) => share.swaps.map((swap) => swap.pool)),
  );
  const after = await fee();
  expect(after.result?.basis).toBe('about');
  expect(after.result?.gas, "the gas simulated before the restart, not the route's estimate").toBe(
    first.result?.gas,
  );
  expect(problems).toEqual([]);
});
