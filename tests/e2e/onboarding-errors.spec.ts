import { expect, test } from './fixtures';
import { atEverySize, POPUP_SIZES } from './layout';

test('onboarding at 360x480 and 360x600: every problem at once, and each clears as the input changes', async ({
  freshPopup: { popup },
}) => {
  test.setTimeout(90_000);
  await popup.setViewportSize(POPUP_SIZES[0]);
  await popup.getByRole('button', { name: 'Import a recovery phrase or private key' }).click();
  await popup.getByLabel('Recovery phrase (12 or 24 words)').fill('test test test');
  await popup.getByLabel('New password (at least 8 characters)').fill('password');
  await popup.getByLabel('Confirm password').fill('passwor');
  await popup.getByRole('button', { name: 'Import' }).click();
  const errors = popup.getByTestId('onboarding-error');
  await atEverySize(popup, async (size) => {
    await expect(errors).toContainText('one of the most common passwords');
    await expect(errors).toContainText('The two passwords do not match.');
    const screens = process.env.SWAPLANE_SCREENS;
    if (screens) await popup.screenshot({ path: `${screens}/onboarding-${size.height}.png` });
  });
  // Typing a strong password clears the stale lines at once.
  await popup.getByLabel('New password (at least 8 characters)').fill('quiet harbour lantern 7');
  await expect(errors).toHaveCount(0);
  await expect(popup.getByText(/Strength \d\/4/)).toBeVisible();
});
