import { expect, grantSiteAccess, sendFromView, test, watchPageProblems } from './fixtures';

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

test('remote service and RPC origins are asked for in one permission request from the Save click', async ({
  context,
  extensionId,
}) => {
  // Granted by the user beforehand (see grantSiteAccess): the options page's real request then
  // resolves without a dialog; a second, separately awaited request would have lost the gesture.
  await grantSiteAccess(context, extensionId, 'https://service.example.org/*');
  await grantSiteAccess(context, extensionId, 'https://rpc.example.org/*');
  const page = await context.newPage();
  const problems = await watchPageProblems(page);
  // Records the permission calls the page makes (before the page's own code loads).
  await page.addInitScript(() => {
    type Permissions = Record<'request' | 'contains', (request: { origins: string[] }) => Promise<boolean>>;
    const permissions = (globalThis as unknown as { chrome: { permissions: Permissions } }).chrome
      .permissions;
    const calls: string[] = [];
    (globalThis as unknown as { __permissionCalls: string[] }).__permissionCalls = calls;
    for (const name of ['request', 'contains'] as const) {
      const original = permissions[name].bind(permissions);
      permissions[name] = (request) => {
        calls.push(`${name} ${request.origins.join(' ')}`);
        return original(request);
      };
    }
  });
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  await page.getByLabel('Service base URL').fill('https://service.example.org/');
  await page.getByLabel('Ethereum RPC URL').fill('https://rpc.example.org/');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings-status')).toHaveText('Saved.');
  expect(await page.evaluate('globalThis.__permissionCalls')).toEqual([
    'request https://service.example.org/* https://rpc.example.org/*',
  ]);
  const saved = (await sendFromView(page, { type: 'getSettings' })) as { result: Record<string, unknown> };
  expect(saved.result).toMatchObject({
    serviceBaseUrl: 'https://service.example.org/',
    rpcOverrides: expect.objectContaining({ '1': 'https://rpc.example.org/' }),
  });
  expect(problems).toEqual([]);
});
