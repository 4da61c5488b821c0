import { expect, test, watchPageProblems } from './fixtures';

test('the service worker starts and the popup gets an answer from the background', async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  expect(serviceWorker.url()).toBe(`chrome-extension://${extensionId}/background.js`);

  const page = await context.newPage();
  const problems = await watchPageProblems(page);
  await page.goto(`chrome-extension://${extensionId}/popup.html`);
  await expect(page.getByRole('heading', { name: 'Swaplane' })).toBeVisible();
  await expect(page.getByTestId('background-status')).toHaveText(/Background ready \(v\d+\.\d+\.\d+\)/);

  // The options page renders under the same CSP.
  const options = await context.newPage();
  const optionsProblems = await watchPageProblems(options);
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(options.getByRole('heading', { name: 'Swaplane settings' })).toBeVisible();

  expect(problems).toEqual([]);
  expect(optionsProblems).toEqual([]);
});
