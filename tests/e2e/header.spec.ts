import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openWalletPopup, test } from './fixtures';
import { atEverySize } from './layout';

/** Where an element sits: fully inside the 360 px popup, not clipped by its own box. */
async function boxOf(page: Page, selector: string) {
  return page.locator(selector).evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return {
      left: rect.left,
      right: rect.right,
      clipped: element.scrollWidth > element.clientWidth + 1,
    };
  });
}

test('header at 360x480 and 360x600: Receive, Add account, Accounts, Lock and Settings read as words; the account name is whole', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(90_000);
  const { popup } = await openWalletPopup(context, extensionId);
  const header = popup.locator('header');
  await atEverySize(popup, async (size) => {
    // Each control shows its name as text a person reads (not only an icon with a tooltip).
    for (const [name, text] of [
      ['Receive', 'Receive'],
      ['Add account', 'Add'],
      ['Manage accounts', 'Accounts'],
      ['Lock', 'Lock'],
    ] as const) {
      const control = header.getByRole('button', { name, exact: true });
      await expect(control).toBeVisible();
      await expect(control).toHaveText(text);
      const box = await control.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= size.width, `${name} inside the popup`).toBe(true);
    }
    const settings = popup.getByRole('button', { name: 'Settings', exact: true });
    await expect(settings).toHaveText('Settings');
    // The account select shows the whole name and the short address, not "Account 1 (0x".
    const select = header.getByRole('combobox', { name: 'Account' });
    await expect(select.locator('option:checked')).toHaveText(/^Account 1 · 0xf39F…2266$/);
    const selectBox = await boxOf(popup, '[data-testid="account-select"]');
    expect(selectBox.right).toBeLessThanOrEqual(size.width);
    const textFits = await popup.locator('[data-testid="account-select"]').evaluate((element) => {
      const select = element as HTMLSelectElement;
      const style = getComputedStyle(select);
      const canvas = document.createElement('canvas').getContext('2d');
      if (!canvas) return false;
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.selectedOptions[0]?.textContent ?? '';
      // Room for the text beside the select's own arrow and padding.
      return canvas.measureText(text).width + 32 <= select.clientWidth;
    });
    expect(textFits, 'the selected account reads whole').toBe(true);
    expect(await popup.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    for (const scheme of ['light', 'dark'] as const) {
      await popup.emulateMedia({ colorScheme: scheme });
      const { violations } = await new AxeBuilder({ page: popup }).analyze();
      expect(
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        scheme,
      ).toEqual([]);
      await popup.screenshot({ path: testInfo.outputPath(`header-${size.height}-${scheme}.png`) });
      if (process.env.SWAPLANE_SCREENS)
        await popup.screenshot({
          path: `${process.env.SWAPLANE_SCREENS}/header-${size.height}-${scheme}.png`,
        });
    }
  });
  // The labelled controls do what they say.
  await header.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(popup.getByRole('button', { name: 'Copy address' })).toBeVisible();
});
