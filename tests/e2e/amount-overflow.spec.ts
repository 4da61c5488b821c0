import type { Page } from '@playwright/test';
import { ETH, expect, openWalletPopup, pickToken, test, USDC } from './fixtures';
import { atEverySize, POPUP_SIZES } from './layout';

/**
 * At 360x480 and 360x600, nothing sticks out of the 360 px popup: no sideways scroll, every panel's
 * Max and token button inside.
 */
async function expectFits(page: Page) {
  await atEverySize(page, async (size) => {
    const at = `at 360x${size.height}`;
    expect(await page.evaluate(() => document.documentElement.scrollWidth), at).toBeLessThanOrEqual(360);
    for (const name of ['Max']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box && box.x + box.width <= 360, `${name} inside the popup ${at}`).toBe(true);
    }
  });
}

test('a 13-million-token amount at 360x480 and 360x600: the field shrinks its font, nothing overflows, the full value stays in the field', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.setViewportSize(POPUP_SIZES[0]);
  await pickToken(popup, 'from', 'USDC', USDC);
  await pickToken(popup, 'to', 'ETH', ETH);
  const field = popup.getByLabel('Amount');
  const normal = await field.evaluate((input) => Number.parseFloat(getComputedStyle(input).fontSize));
  await field.fill('13747515.29');
  await expectFits(popup);
  const smaller = await field.evaluate((input) => Number.parseFloat(getComputedStyle(input).fontSize));
  expect(smaller).toBeLessThan(normal);
  // Longer still: the font has a floor, then the field truncates; the value itself is whole.
  await field.fill('1374751529123.456789');
  await expectFits(popup);
  await expect(field).toHaveValue('1374751529123.456789');
  await expect(popup.getByRole('button', { name: 'Insufficient USDC balance' })).toBeDisabled();

  // The other way: ETH into 13 million-odd USDC on the "You receive" side.
  await popup.getByRole('button', { name: 'Swap the from and to tokens' }).click();
  await field.fill('4600');
  await expect(popup.getByTestId('quote-out')).toContainText(/\d{2},\d{3},\d{3}/, { timeout: 20_000 });
  await expectFits(popup);
  await atEverySize(popup, async (size) => {
    const outBox = await popup.getByTestId('quote-out').boundingBox();
    expect(outBox && outBox.x + outBox.width <= 360, `quote-out at 360x${size.height}`).toBe(true);
    const screens = process.env.SWAPLANE_SCREENS;
    if (screens) await popup.screenshot({ path: `${screens}/amount-13m-${size.height}.png` });
  });
});
