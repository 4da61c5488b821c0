import {
  ETH,
  expect,
  expectNewWorker,
  markWorker,
  openWalletPopup,
  openWatched,
  pickToken,
  quoteSessionAnswer,
  stopWorkerFromBlankTab,
  test,
  USDC,
  WORKER_STOP_RETRIES,
} from './fixtures';

test.describe.configure({ retries: WORKER_STOP_RETRIES });

type SessionAnswer = { ok: boolean; result: { status: string; revision: number; receivedAt: number | null } };

test('the quote session outlives the popup and a stopped service worker', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { popup, popupUrl, problems } = await openWalletPopup(context, extensionId);
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('1.5');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await expect(popup.getByTestId('quote-countdown')).toContainText(/New quote in \d+s/);
  const before = (await quoteSessionAnswer(popup)) as SessionAnswer;
  expect(before.result.status).toBe('ready');
  await markWorker(context);
  expect(problems).toEqual([]);

  // Close the popup, then stop the worker while nobody watches.
  await stopWorkerFromBlankTab(context, extensionId, popup);

  const { page: reopened, problems: reopenedProblems } = await openWatched(context, popupUrl);
  // The same session, at once: no spinner, the same input and a quote.
  await expect(reopened.getByLabel('Amount')).toHaveValue('1.5');
  await expect(reopened.getByTestId('from-picker')).toContainText('ETH');
  await expect(reopened.getByTestId('to-picker')).toContainText('USDC');
  await expect(reopened.getByTestId('quote-out')).toContainText('USDC', { timeout: 10_000 });
  const after = (await quoteSessionAnswer(reopened)) as SessionAnswer;
  expect(after.result.revision).toBe(before.result.revision);
  await expectNewWorker(context); // a new worker answered

  // And it refreshes while the popup is open.
  await expect
    .poll(async () => ((await quoteSessionAnswer(reopened)) as SessionAnswer).result.receivedAt, {
      timeout: 30_000,
    })
    .toBeGreaterThan(before.result.receivedAt ?? 0);
  await expect(reopened.getByTestId('quote-out')).toContainText('USDC');
  expect(reopenedProblems).toEqual([]);

  // Opened again: the first ready frame already shows the session's tokens and amount (from the
  // popupStart answer), before the whole token list has reached the popup; the pickers get it after.
  const third = await context.newPage();
  await third.addInitScript(() => {
    const mark = performance.mark.bind(performance);
    const seen: Record<string, unknown> = {};
    (globalThis as unknown as { seenAtReady: typeof seen }).seenAtReady = seen;
    performance.mark = (name: string, options?: PerformanceMarkOptions) => {
      if (name === 'swaplane:popup-ready') {
        seen.from = document.querySelector('[data-testid="from-picker"]')?.textContent;
        seen.to = document.querySelector('[data-testid="to-picker"]')?.textContent;
        seen.amount = (document.getElementById('amount') as HTMLInputElement | null)?.value;
        seen.listIn = performance.getEntriesByName('swaplane:popup-token-list').length > 0;
      }
      return mark(name, options);
    };
  });
  await third.goto(popupUrl);
  await third.waitForFunction(() => performance.getEntriesByName('swaplane:popup-token-list').length > 0);
  const atReady = await third.evaluate(() => (globalThis as unknown as { seenAtReady: unknown }).seenAtReady);
  expect(atReady).toMatchObject({
    from: expect.stringContaining('ETH'),
    to: expect.stringContaining('USDC'),
    amount: '1.5',
    listIn: false,
  });
  await expect(third.getByLabel('Amount')).toHaveValue('1.5');
  await third.getByTestId('to-picker').click();
  await third.getByLabel(/Search to token/i).fill('DAI');
  await expect(third.locator('button.token-row').first()).toContainText('DAI');
});
