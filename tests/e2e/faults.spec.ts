// Issue 9, end to end: a swap under faults, with the built extension, the devnet and the
// reference service. Fault proxies (tests/support/fault-proxy.ts) sit between the extension and
// Ethereum's RPC and between the extension and the service: the RPC goes down right after the
// swap is sent, the popup closes, the service worker is stopped; the swap must land (or be
// reported for what it is) with its history intact.
import type { BrowserContext, Page } from '@playwright/test';
import { type Fault, type FaultProxy, onPath, type ProxyRequestInfo } from '../support/fault-proxy';
import {
  ETH,
  expect,
  expectNewWorker,
  expectNoRawErrors,
  markWorker,
  openProxiedPopup,
  openWatched,
  pickToken,
  proxiedTest,
  rpcCall,
  sendFromView,
  stopWorkerFromBlankTab,
  swapAnswer,
  trustRouterInReview,
  USDC,
  WORKER_STOP_RETRIES,
} from './fixtures';

type SwapAnswer = {
  result: {
    id: string;
    status: string;
    tx: { hash: string } | null;
    outcome: { received: string | null } | null;
    failure: { code: string; anythingSent: boolean } | null;
  } | null;
};
type HistoryAnswer = { result: { kind: string; id: string; status: string; hash: string | null }[] };

const test = proxiedTest;
test.describe.configure({ retries: WORKER_STOP_RETRIES });

/**
 * The popup as openProxiedPopup gives it, with the RPC meeting `fault` from the moment the swap's raw
 * transaction went out, and an ETH -> USDC swap of `amount` sent and waiting for its receipt.
 */
async function openAndSendThenRpcDown(
  context: BrowserContext,
  extensionId: string,
  proxies: { rpcProxy: FaultProxy; serviceProxy: FaultProxy },
  fault: Fault,
  amount: string,
) {
  const opened = await openProxiedPopup(context, extensionId, proxies);
  downAfterSend(proxies.rpcProxy, fault);
  await swapEthForUsdc(opened.popup, amount);
  await expectWaitingForReceipt(opened.popup);
  return { ...opened, sent: await swapState(opened.popup) };
}

/** From the moment the swap's raw transaction went out, every later RPC request meets `fault`. */
function downAfterSend(proxy: FaultProxy, fault: Fault): void {
  let sent = false;
  proxy.add({
    match: (hit) => {
      if (hit.rpcMethods.includes('eth_sendRawTransaction')) sent = true;
      return false; // an observer only
    },
    fault,
  });
  proxy.add({ match: (hit) => sent && !hit.rpcMethods.includes('eth_sendRawTransaction'), fault });
}

/** Receipt polls the proxy saw after the swap was sent (answered or not). */
function receiptPollsAfterSend(proxy: FaultProxy): number {
  const sentAt = proxy.hits.findIndex((hit) => hit.rpcMethods.includes('eth_sendRawTransaction'));
  if (sentAt < 0) return 0;
  return proxy.hits
    .slice(sentAt + 1)
    .filter((hit: ProxyRequestInfo) => hit.rpcMethods.includes('eth_getTransactionReceipt')).length;
}

/** ETH -> USDC from the popup up to the send (trusting the router on this fresh profile). */
async function swapEthForUsdc(popup: Page, amount: string): Promise<void> {
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill(amount);
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  await trustRouterInReview(popup);
  await popup.getByRole('button', { name: 'Confirm swap' }).click();
}

/** The swap is sent and waits for its receipt: the last step active, nothing failed. */
async function expectWaitingForReceipt(popup: Page, hash?: string): Promise<void> {
  const progress = popup.getByTestId('swap-progress');
  await expect(progress).toHaveAttribute('data-status', 'sent', { timeout: 30_000 });
  await expect(progress.locator('.step-active')).toHaveText(/Wait for confirmation/);
  await expect(progress.locator('.step-failed')).toHaveCount(0);
  if (hash) await expect(progress).toContainText(hash.slice(0, 10));
  await expect(popup.getByTestId('swap-failed')).toHaveCount(0);
  await expect(popup.getByRole('button', { name: 'Review swap' })).toHaveCount(0);
}

async function swapState(page: Page): Promise<NonNullable<SwapAnswer['result']>> {
  const answer = (await swapAnswer(page)) as SwapAnswer;
  if (!answer.result) throw new Error('no swap');
  return answer.result;
}

async function historyOf(page: Page): Promise<HistoryAnswer['result']> {
  return ((await sendFromView(page, { type: 'getHistory' })) as HistoryAnswer).result;
}

/** Activity lists exactly this one swap, confirmed. */
async function expectConfirmedInActivity(popup: Page, hash: string): Promise<void> {
  await popup.getByRole('button', { name: 'Activity' }).click();
  const activity = popup.getByTestId('activity');
  await expect(activity.locator('[data-kind="swap"]')).toHaveCount(1);
  const entry = activity.locator('[data-kind="swap"][data-status="confirmed"]');
  await expect(entry).toHaveCount(1);
  // The row shows the hash shortened, the whole of it in its title.
  await expect(entry.locator('code')).toHaveAttribute('title', hash);
  await expect(entry).toContainText('Confirmed');
}

test('RPC down right after the send (reset, then 502), then back: tracking resumes, the swap confirms', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  test.setTimeout(150_000);
  const { popup, problems, rpc, sent } = await openAndSendThenRpcDown(
    context,
    extensionId,
    { rpcProxy, serviceProxy },
    { kind: 'reset' },
    '0.2',
  );
  const hash = sent.tx?.hash ?? '';
  // The node mined it at once (automine): only the unreachable RPC keeps the wallet from knowing.
  expect(await rpcCall(rpc, 'eth_getTransactionReceipt', [hash])).not.toBeNull();
  // Tracking keeps asking, at its own pace, and does not give up or cry failure.
  await expect.poll(() => receiptPollsAfterSend(rpcProxy), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  await expectWaitingForReceipt(popup, hash);
  // History already holds the sent swap, pending.
  expect((await historyOf(popup)).filter((entry) => entry.kind === 'swap')).toMatchObject([
    { status: 'pending', hash },
  ]);

  // The node answers again, but with 502s (an unhealthy load balancer): still waiting.
  rpcProxy.clear();
  rpcProxy.add({ fault: { kind: 'status', status: 502, body: '<html>Bad Gateway</html>' } });
  const pollsBefore = receiptPollsAfterSend(rpcProxy);
  await expect
    .poll(() => receiptPollsAfterSend(rpcProxy), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(pollsBefore + 3);
  await expectWaitingForReceipt(popup, hash);
  await expectNoRawErrors(popup);

  // Back up: the next poll finds the receipt.
  rpcProxy.clear();
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
  const done = await swapState(popup);
  expect(done.status).toBe('confirmed');
  expect(BigInt(done.outcome?.received ?? '0')).toBeGreaterThan(0n);
  await popup.getByRole('button', { name: 'Done' }).click();
  await expectConfirmedInActivity(popup, hash);
  expect(problems).toEqual([]);
});

test('popup closed mid-swap (RPC hanging) and reopened: it shows the swap waiting, then confirmed', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  test.setTimeout(150_000);
  const { popup, popupUrl, problems, sent } = await openAndSendThenRpcDown(
    context,
    extensionId,
    { rpcProxy, serviceProxy },
    { kind: 'hang' },
    '0.3',
  );
  const hash = sent.tx?.hash ?? '';
  expect(problems).toEqual([]);
  await popup.close();

  const { page: reopened, problems: reopenedProblems } = await openWatched(context, popupUrl);
  await expectWaitingForReceipt(reopened, hash);
  await reopened.screenshot({ path: test.info().outputPath('swap-waiting-after-reopen.png') });

  // The RPC answers again: a hung poll times out (bounded), the next one finds the receipt.
  rpcProxy.clear();
  await expect(reopened.getByTestId('swap-confirmed')).toBeVisible({ timeout: 60_000 });
  await reopened.getByRole('button', { name: 'Done' }).click();
  await expectConfirmedInActivity(reopened, hash);
  expect(reopenedProblems).toEqual([]);
});

test('service worker stopped after the send (RPC down): the new worker resumes tracking, one history entry', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  test.setTimeout(150_000);
  const { popup, popupUrl, problems, sent } = await openAndSendThenRpcDown(
    context,
    extensionId,
    { rpcProxy, serviceProxy },
    { kind: 'reset' },
    '0.15',
  );
  const { id, tx } = sent;
  const hash = tx?.hash ?? '';
  await markWorker(context);

  // The browser stops the worker while the user is away (popup closed).
  await stopWorkerFromBlankTab(context, extensionId, popup);

  // Opening the popup wakes a new worker, which resumes the swap from storage and shows it at once.
  const { page: reopened, problems: reopenedProblems } = await openWatched(context, popupUrl);
  await expectNewWorker(context);
  await expectWaitingForReceipt(reopened, hash);
  expect((await swapState(reopened)).id).toBe(id);
  // The new worker is the one polling now.
  const pollsBefore = receiptPollsAfterSend(rpcProxy);
  await expect
    .poll(() => receiptPollsAfterSend(rpcProxy), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(pollsBefore + 2);

  rpcProxy.clear();
  await expect(reopened.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
  // One entry for the swap, updated in place from pending to confirmed: nothing lost, nothing doubled.
  expect((await historyOf(reopened)).filter((entry) => entry.kind === 'swap')).toMatchObject([
    { id, status: 'confirmed', hash },
  ]);
  await reopened.getByRole('button', { name: 'Done' }).click();
  await expectConfirmedInActivity(reopened, hash);
  expect(problems).toEqual([]);
  expect(reopenedProblems).toEqual([]);
});

test('service hanging on quotes: the wait is bounded, then a "not responding" message, no spinner', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  test.setTimeout(120_000);
  const { popup, problems } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
  serviceProxy.add({ match: onPath('/v1/quote'), fault: { kind: 'hang' } });
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('1');
  await expect(popup.getByTestId('quote-status')).toHaveText('Fetching the best price…');
  // The client's whole-call budget (25 s, retries included) bounds the spinner.
  const error = popup.getByTestId('quote-error');
  await expect(error).toContainText('Swap service is not responding', { timeout: 60_000 });
  await expect(error).toContainText('Try again in a moment.');
  await expect(popup.getByTestId('quote-status')).toHaveCount(0);
  await expect(popup.getByTestId('quote-card')).toHaveAttribute('aria-busy', 'false');
  await expectNoRawErrors(popup);

  serviceProxy.clear();
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  expect(problems).toEqual([]);
});
