import AxeBuilder from '@axe-core/playwright';
import { ACCOUNT, ANVIL_MNEMONIC, expect, sendFromView, setUpWallet, test } from './fixtures';
import { atEverySize, POPUP_SIZES } from './layout';

const NEW_PASSWORD = 'a brand new passphrase 42';

test('forgot password at 360x480 and 360x600: a clear warning, then the wallet restored from its phrase under a new password', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { page } = await setUpWallet(context, extensionId, 'popup.html');
  expect(await sendFromView(page, { type: 'walletLock' })).toMatchObject({ ok: true });
  await page.setViewportSize(POPUP_SIZES[0]);
  await page.reload();
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Restore from your recovery phrase' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('This replaces the wallet on this browser');
  await atEverySize(page, async (size) => {
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.map((v) => v.id),
      `at 360x${size.height}`,
    ).toEqual([]);
    const screens = process.env.SWAPLANE_SCREENS;
    if (screens) await page.screenshot({ path: `${screens}/forgot-password-${size.height}.png` });
  });

  // The onboarding's own password pair: its strength line, and its problems all at once, before
  // anything is sent.
  await page.getByLabel('Recovery phrase (12 or 24 words)').fill('test test test');
  await page.getByLabel('New password (at least 8 characters)').fill('short');
  await expect(page.getByText(/^Strength \d\/4: /)).toBeVisible();
  await page.getByLabel('Confirm new password').fill('other');
  await page.getByRole('button', { name: 'Replace and restore the wallet' }).click();
  await expect(page.getByRole('alert')).toContainText('The two passwords do not match.');
  await expect(page.getByRole('alert').locator('p')).toHaveCount(2);
  await expect(page.getByLabel('Confirm new password')).toHaveAttribute('aria-invalid', 'true');

  // A wrong phrase replaces nothing and says what is wrong.
  await page.getByLabel('New password (at least 8 characters)').fill(NEW_PASSWORD);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Replace and restore the wallet' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  // Editing clears the error; the right phrase restores.
  await page.getByLabel('Recovery phrase (12 or 24 words)').fill(ANVIL_MNEMONIC);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Replace and restore the wallet' }).click();
  await expect(page.getByTestId('active-address')).toHaveText(ACCOUNT, { timeout: 20_000 });

  // The new password is the one that unlocks now.
  await page.getByRole('button', { name: 'Lock' }).click();
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await expect(page.getByTestId('active-address')).toHaveText(ACCOUNT);
});
