import {
  ANVIL_MNEMONIC,
  expect,
  extensionIdOf,
  launchWithExtension,
  serviceWorkerOf,
  stopServiceWorker,
  test,
  watchPageProblems,
} from './fixtures';

const PASSWORD = 'wallet e2e passphrase';

test('create a wallet, confirm the words, lock, refuse a wrong password, unlock, add an account', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const popup = await context.newPage();
  const problems = await watchPageProblems(popup);
  await popup.goto(`chrome-extension://${extensionId}/popup.html`);

  await popup.getByRole('button', { name: 'Create a new wallet' }).click();
  const words = (await popup.getByTestId('recovery-phrase').locator('li').allTextContents()).map((word) =>
    word.trim(),
  );
  expect(words).toHaveLength(12);
  await popup.getByRole('button', { name: 'I wrote it down' }).click();

  const asked = await popup.getByLabel(/^Word #\d+$/).all();
  expect(asked).toHaveLength(3);
  // A wrong word is refused and no wallet exists yet.
  for (const field of asked) await field.fill('zoo');
  await popup.getByLabel('New password (at least 8 characters)').fill(PASSWORD);
  await popup.getByLabel('Confirm password').fill(PASSWORD);
  await popup.getByRole('button', { name: 'Create wallet' }).click();
  await expect(popup.getByTestId('onboarding-error')).toContainText('do not match your recovery phrase');
  for (const field of asked) {
    const label = (await field.getAttribute('id')) ?? '';
    const position = Number(label.replace('word-', ''));
    await field.fill(words[position - 1] as string);
  }
  await popup.getByRole('button', { name: 'Create wallet' }).click();
  await expect(popup.getByTestId('account-select')).toBeVisible({ timeout: 20_000 });

  await popup.getByRole('button', { name: 'Lock' }).click();
  await popup.getByLabel('Password').fill('not my password');
  await popup.getByRole('button', { name: 'Unlock' }).click();
  await expect(popup.getByRole('alert')).toContainText('Wrong password');
  await popup.getByLabel('Password').fill(PASSWORD);
  await popup.getByRole('button', { name: 'Unlock' }).click();
  await expect(popup.getByTestId('account-select')).toBeVisible({ timeout: 20_000 });

  await popup.getByRole('button', { name: 'Add account' }).click();
  await expect(popup.getByTestId('account-select').locator('option')).toHaveCount(2);
  await expect(popup.getByTestId('account-select')).toContainText('Account 2');
  expect(problems).toEqual([]);
});

test('import the anvil phrase in a fresh profile; still unlocked after the worker stops', async () => {
  test.setTimeout(90_000);
  const fresh = await launchWithExtension();
  try {
    const { context } = fresh;
    const extensionId = extensionIdOf(await serviceWorkerOf(context));
    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${extensionId}/popup.html`);
    await popup.getByRole('button', { name: 'Import a recovery phrase or private key' }).click();
    await popup.getByLabel('Recovery phrase (12 or 24 words)').fill(`  ${ANVIL_MNEMONIC.toUpperCase()} `);
    await popup.getByLabel('New password (at least 8 characters)').fill(PASSWORD);
    await popup.getByLabel('Confirm password').fill(PASSWORD);
    await popup.getByRole('button', { name: 'Import' }).click();
    await expect(popup.getByTestId('active-address')).toHaveText(
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      {
        timeout: 20_000,
      },
    );

    const helper = await context.newPage();
    await helper.goto('about:blank');
    await popup.close();
    await stopServiceWorker(context, helper, extensionId);

    const reopened = await context.newPage();
    await reopened.goto(`chrome-extension://${extensionId}/popup.html`);
    await expect(reopened.getByTestId('active-address')).toHaveText(
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    );
    await expect(reopened.getByRole('button', { name: 'Unlock' })).toHaveCount(0);
  } finally {
    await fresh.close();
  }
});
