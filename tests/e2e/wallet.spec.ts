import {
  ANVIL_MNEMONIC,
  E2E_PASSWORD,
  expect,
  importAnvilWallet,
  openWatched,
  stopWorkerFromBlankTab,
  test,
  WORKER_STOP_RETRIES,
} from './fixtures';

test.describe.configure({ retries: WORKER_STOP_RETRIES });

const PASSWORD = 'wallet e2e passphrase';
// anvil's second well-known account.
const KEY_2 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS_2 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

test('create a wallet, confirm the words, lock, refuse a wrong password, unlock, add an account', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { page: popup, problems } = await openWatched(
    context,
    `chrome-extension://${extensionId}/popup.html`,
  );

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

test('import the anvil phrase in a fresh profile; still unlocked after the worker stops', async ({
  freshPopup: { context, extensionId, popup },
}) => {
  test.setTimeout(90_000);
  await popup.getByRole('button', { name: 'Import a recovery phrase or private key' }).click();
  await popup.getByLabel('Recovery phrase (12 or 24 words)').fill(`  ${ANVIL_MNEMONIC.toUpperCase()} `);
  await popup.getByLabel('New password (at least 8 characters)').fill(PASSWORD);
  await popup.getByLabel('Confirm password').fill(PASSWORD);
  await popup.getByRole('button', { name: 'Import' }).click();
  await expect(popup.getByTestId('active-address')).toHaveText('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', {
    timeout: 20_000,
  });

  await stopWorkerFromBlankTab(context, extensionId, popup);

  const reopened = await context.newPage();
  await reopened.goto(`chrome-extension://${extensionId}/popup.html`);
  await expect(reopened.getByTestId('active-address')).toHaveText(
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  );
  await expect(reopened.getByRole('button', { name: 'Unlock' })).toHaveCount(0);
});

test('by keyboard: rename the account, import a private key, reveal the phrase and the key', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { page: popup, problems } = await openWatched(
    context,
    `chrome-extension://${extensionId}/popup.html`,
  );
  await importAnvilWallet(popup);
  await popup.reload();

  const { keyboard } = popup;
  await popup.getByRole('button', { name: 'Manage accounts' }).focus();
  await keyboard.press('Enter');
  await expect(popup.getByRole('heading', { name: 'Accounts' })).toBeVisible();

  // Rename: select the field's text, type, Enter submits the form.
  await popup.getByLabel('Account name').focus();
  await keyboard.press('ControlOrMeta+A');
  await keyboard.type('Savings');
  await keyboard.press('Enter');
  await expect(popup.getByText('Renamed to “Savings”.')).toBeVisible();
  await expect(popup.getByTestId('account-select')).toContainText('Savings');

  // Import anvil's second key; it becomes the active account.
  await popup.getByLabel('Private key (64 hex characters)').focus();
  await keyboard.type(KEY_2);
  await keyboard.press('Tab');
  await keyboard.type('Hot wallet');
  await keyboard.press('Enter');
  await expect(popup.getByTestId('active-address')).toHaveText(ADDRESS_2, { timeout: 20_000 });
  await expect(popup.getByTestId('account-select').locator('option')).toHaveCount(2);
  await expect(popup.getByTestId('account-select')).toContainText('Hot wallet');

  // Reveal: a wrong password reveals nothing; the right one reveals, hidden until Show.
  await popup.getByLabel('Password').focus();
  await keyboard.type('not my password');
  await keyboard.press('Enter');
  await expect(popup.getByRole('alert')).toContainText('Wrong password');
  await expect(popup.getByTestId('revealed')).toHaveCount(0);
  await popup.getByLabel('Password').focus();
  await keyboard.type(E2E_PASSWORD);
  await keyboard.press('Enter');
  await expect(popup.getByTestId('secret-hidden')).toBeVisible({ timeout: 20_000 });
  await expect(popup.locator('body')).not.toContainText('junk');
  await popup.getByRole('button', { name: 'Show' }).focus();
  await keyboard.press('Enter');
  await expect(popup.getByTestId('revealed-secret')).toHaveText(ANVIL_MNEMONIC);

  // Choosing the imported key drops the shown phrase; its key is revealed the same way.
  await popup.getByLabel('What to reveal').selectOption({ label: 'Private key of “Hot wallet”' });
  await expect(popup.locator('body')).not.toContainText('junk');
  await popup.getByLabel('Password').fill(E2E_PASSWORD);
  await popup.getByRole('button', { name: 'Reveal' }).press('Enter');
  await popup.getByRole('button', { name: 'Show' }).click({ timeout: 20_000 });
  await expect(popup.getByTestId('revealed-secret')).toHaveText(KEY_2);

  // Leaving the screen forgets it; coming back shows nothing revealed.
  await popup.getByRole('button', { name: 'Back to swap' }).press('Enter');
  await expect(popup.locator('body')).not.toContainText(KEY_2.slice(2, 20));
  await popup.getByRole('button', { name: 'Manage accounts' }).press('Enter');
  await expect(popup.getByRole('heading', { name: 'Accounts' })).toBeVisible();
  await expect(popup.getByTestId('revealed')).toHaveCount(0);

  // The names survive a reopen (stored by the background).
  await popup.reload();
  await expect(popup.getByTestId('account-select')).toContainText('Savings');
  await expect(popup.getByTestId('account-select')).toContainText('Hot wallet');
  expect(problems).toEqual([]);
});
