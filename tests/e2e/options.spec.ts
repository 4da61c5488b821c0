import { expect, sendFromView, test, watchPageProblems } from './fixtures';

test('the options page validates and saves settings through the background', async ({
  context,
  extensionId,
}) => {
  const page = await context.newPage();
  const problems = await watchPageProblems(page);
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  const slippage = page.getByLabel('Default slippage (%)');

  await slippage.fill('60');
  await expect(page.getByRole('alert')).toContainText('above 50% is refused');
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();

  await slippage.fill('7');
  await expect(page.getByRole('alert')).toContainText('High slippage');
  await slippage.fill('0.05');
  await expect(page.getByRole('alert')).toContainText('may fail');

  await slippage.fill('1.5');
  await page.getByLabel('Service base URL').fill('not a url');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings-status')).toContainText('Service base URL:');

  await page.getByLabel('Service base URL').fill('http://127.0.0.1:9999/');
  const amount = page.getByLabel('One-click quote amount (native coin)');
  await expect(amount).toHaveValue('0.1');
  await amount.fill('0');
  await expect(page.getByRole('alert')).toContainText('above 0');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings-status')).toContainText('One-click quote amount:');
  await amount.fill('.250');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings-status')).toHaveText('Saved.');

  const saved = (await sendFromView(page, { type: 'getSettings' })) as { result: Record<string, unknown> };
  expect(saved.result).toMatchObject({
    slippage: 1.5,
    serviceBaseUrl: 'http://127.0.0.1:9999/',
    oneClickAmount: '0.25',
  });
  await expect(amount).toHaveValue('0.25');
  expect(problems).toEqual([]);
});
