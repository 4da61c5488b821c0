import { expect, test, watchPageProblems } from './fixtures';

test('the service worker starts, the popup renders and the background answers typed messages', async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  expect(serviceWorker.url()).toBe(`chrome-extension://${extensionId}/background.js`);

  const page = await context.newPage();
  const problems = await watchPageProblems(page);
  await page.goto(`chrome-extension://${extensionId}/popup.html`);
  await expect(page.getByRole('heading', { name: 'Swaplane' })).toBeVisible();

  const answers = await page.evaluate(async () => {
    type Runtime = { sendMessage(message: unknown): Promise<unknown> };
    const runtime = (globalThis as unknown as { chrome: { runtime: Runtime } }).chrome.runtime;
    const send = (message: unknown) => runtime.sendMessage(message);
    return {
      start: await send({ type: 'popupStart' }),
      malformed: await send({ type: 'setQuoteInput', input: { chainId: -1 } }),
      unknown: await send({ type: 'signEverything' }),
    };
  });
  expect(answers.start).toMatchObject({
    ok: true,
    result: { wallet: { status: 'none' }, settings: { serviceBaseUrl: 'http://127.0.0.1:8787' }, swap: null },
  });
  expect(answers.malformed).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE' } });
  expect(answers.unknown).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE' } });

  // The options page renders under the same CSP.
  const options = await context.newPage();
  const optionsProblems = await watchPageProblems(options);
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(options.getByRole('heading', { name: 'Swaplane settings' })).toBeVisible();
  await expect(options.getByLabel('Service base URL')).toHaveValue('http://127.0.0.1:8787');

  expect(problems).toEqual([]);
  expect(optionsProblems).toEqual([]);
});
