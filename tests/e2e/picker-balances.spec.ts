// Token search results keep the balances the shortlist shows (held matches first), and one asset's
// logo is the same on Ethereum and Base. At 360x480 and 360x600, axe clean in light and dark.
import type { Page } from '@playwright/test';
import { CHAIN_FIXTURES } from '../../devnet/fixtures';
import { checkAndShoot, expect, openWalletPopup, test, USDC } from './fixtures';
import { atEverySize, POPUP_SIZES } from './layout';

/** The SVG a token row's logo shows, fetched from the page (the same bytes the image drew). */
async function logoOf(page: Page, address: string): Promise<string> {
  const row = page.locator(`button[data-token="${address.toLowerCase()}"]`);
  const src = await row.locator('img.logo').getAttribute('src');
  expect(src).toBeTruthy();
  return page.evaluate(async (url) => (await fetch(url as string)).text(), src);
}

test("token search at 360x480 and 360x600: results show the balance held, held first; USDC's logo is one on Ethereum and Base", async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(120_000);
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.setViewportSize(POPUP_SIZES[0]);
  await popup.getByTestId('from-picker').click();
  // The shortlist (nothing typed) has the balances once they are read.
  const shortlist = popup.getByRole('list', { name: 'Your From tokens' });
  await expect(shortlist.locator(`button[data-held-token="${USDC}"]`)).toContainText(/[\d,.]+ · \$/, {
    timeout: 30_000,
  });
  // Typed: the matching rows keep their balance, and the held ones come first.
  await popup.getByLabel(/Search from token/i).fill('usd');
  const usdcRow = popup.locator(`button[data-token="${USDC}"]`);
  await expect(usdcRow.locator('.token-balance')).toContainText(/^[\d,.]+ \$[\d,.]+$/);
  const rows = popup.locator('button[data-token]');
  const first = await rows.first().locator('.token-balance').count();
  expect(first, 'the first match is one the account holds').toBe(1);
  await atEverySize(popup, (size) => checkAndShoot(popup, testInfo, `picker-search-${size.height}`));
  const ethereumLogo = await logoOf(popup, USDC);
  await popup.keyboard.press('Escape');

  // Base: USDC at another address, drawn the same.
  await popup.getByRole('combobox', { name: 'Network' }).selectOption({ label: 'Base' });
  await popup.getByTestId('from-picker').click();
  await popup.getByLabel(/Search from token/i).fill('usdc');
  const baseUsdc = CHAIN_FIXTURES.base.tokens.find((token) => token.symbol === 'USDC')?.address ?? '';
  expect(baseUsdc.toLowerCase()).not.toBe(USDC);
  await expect(popup.locator(`button[data-token="${baseUsdc.toLowerCase()}"]`)).toBeVisible({
    timeout: 30_000,
  });
  expect(await logoOf(popup, baseUsdc)).toBe(ethereumLogo);
});
