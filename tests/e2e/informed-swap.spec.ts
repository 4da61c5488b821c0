import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page, TestInfo } from '@playwright/test';
import { DAI, ETH, expect, openWalletPopup, pickToken, test, trustRouterInReview, USDC } from './fixtures';
import { atEverySize, expectNothingWiderThanViewport } from './layout';

type Pick = [query: string, address: string];
const SHORT = { width: 360, height: 480 };
const TALL = { width: 360, height: 600 };

/** The wallet's popup at `size`, with `from` and `to` picked. */
async function popupWithPair(
  context: BrowserContext,
  extensionId: string,
  size: { width: number; height: number },
  [fromQuery, fromAddress]: Pick,
  [toQuery, toAddress]: Pick,
): Promise<Page> {
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.setViewportSize(size);
  await pickToken(popup, 'from', fromQuery, fromAddress);
  await pickToken(popup, 'to', toQuery, toAddress);
  return popup;
}

/** A screenshot in light and dark; with `axe`, axe finds nothing in either. */
async function shot(page: Page, testInfo: TestInfo, name: string, axe = false) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    if (axe) {
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        `${name} (${scheme})`,
      ).toEqual([]);
    }
    const path = testInfo.outputPath(`${name}-${scheme}.png`);
    await page.screenshot({ path });
    await testInfo.attach(`${name}-${scheme}`, { path, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The element is inside the viewport as the page stands (no scrolling happened to bring it there). */
async function expectInViewport(page: Page, name: string) {
  const box = await page.getByRole('button', { name, exact: true }).boundingBox();
  const viewport = page.viewportSize();
  expect(box, name).not.toBeNull();
  expect(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height, `${name} visible`).toBe(
    true,
  );
  expect(await page.evaluate(() => window.scrollY), 'no scrolling').toBe(0);
}

test('main path at 360x480 and 360x600: fee, USD and price impact on the quote line, the review as a sheet, confirm', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(120_000);
  const popup = await popupWithPair(context, extensionId, SHORT, ['ETH', ETH], ['USDC', USDC]);
  await popup.getByLabel('Amount').fill('1');
  const quote = popup.getByRole('region', { name: 'Quote' });
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await expect(quote.getByTestId('quote-fee')).toContainText(/ETH \(\$[\d,.<]+\)/, { timeout: 20_000 });
  await expect(quote.getByTestId('quote-impact')).toContainText('%');
  await expect(popup.getByTestId('usd-in')).toContainText(/^\$[\d,]+\.\d\d$/);
  await expect(popup.getByTestId('usd-out')).toContainText(/^\$[\d,]+\.\d\d$/);
  await atEverySize(popup, async (size) => {
    await expectInViewport(popup, 'Review swap');
    await shot(popup, testInfo, `swap-${size.height}`);
  });

  await popup.getByRole('button', { name: 'Review swap' }).click();
  const sheet = popup.getByRole('dialog', { name: 'Review swap' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByText('You receive at least')).toBeVisible();
  await expect(sheet.getByTestId('review-fee')).toContainText('ETH');
  await expect(sheet.getByTestId('review-countdown')).toContainText(/Quote valid for \d+s/);
  await trustRouterInReview(popup);
  await expect(sheet.getByRole('button', { name: 'Confirm swap' })).toBeEnabled();
  await atEverySize(popup, async (size) => {
    await expectInViewport(popup, 'Confirm swap');
    await expectNothingWiderThanViewport(popup, `review at ${size.width}x${size.height}`);
    await shot(popup, testInfo, `review-${size.height}`);
  });

  await sheet.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
  await atEverySize(popup, async (size) => {
    await expectInViewport(popup, 'Done');
    await shot(popup, testInfo, `result-${size.height}`);
  });
  await popup.getByRole('button', { name: 'Done' }).click();
  // The spent quote is not left live: the amount is cleared and Review swap is disabled.
  await expect(popup.getByLabel('Amount')).toHaveValue('');
  await expect(popup.getByRole('button', { name: 'Enter an amount' })).toBeDisabled();
});

test('price impact: a large trade warns, and Confirm needs the acknowledgement', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(90_000);
  // DAI: no V3 pool, so 3,000 ETH moves its pools far (ETH -> USDC is deep enough on V3 not to).
  const popup = await popupWithPair(context, extensionId, SHORT, ['ETH', ETH], ['DAI', DAI]);
  await popup.getByLabel('Amount').fill('3000');
  await expect(popup.getByTestId('quote-impact')).toContainText(/\d+\.\d\d%/, { timeout: 20_000 });
  const impact = Number((await popup.getByTestId('quote-impact').textContent())?.replace('%', ''));
  expect(impact).toBeGreaterThanOrEqual(10);
  await expect(popup.getByTestId('impact-warning')).toContainText('High price impact');
  await popup.getByRole('button', { name: 'Review swap' }).click();
  const sheet = popup.getByRole('dialog', { name: 'Review swap' });
  const ack = sheet.getByRole('checkbox', { name: /I understand I lose about \d+%/ });
  await expect(ack).toBeVisible();
  await expect(sheet.getByRole('button', { name: 'Confirm swap' })).toBeDisabled();
  await shot(popup, testInfo, 'review-impact');
  await ack.check();
  // A fresh profile: the router's trust is the other tick this first swap needs.
  await expect(sheet.getByRole('button', { name: 'Confirm swap' })).toBeDisabled();
  await trustRouterInReview(popup);
  await expect(sheet.getByRole('button', { name: 'Confirm swap' })).toBeEnabled();
});

test('above the balance: refused before the review, with the reason inline', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(90_000);
  const popup = await popupWithPair(context, extensionId, SHORT, ['ETH', ETH], ['USDC', USDC]);
  await expect(popup.getByTestId('balance-ETH')).toContainText(/Balance: [\d,.]+ ETH/, { timeout: 20_000 });
  await popup.getByLabel('Amount').fill('20000');
  // The swap button itself says why it is disabled.
  await expect(popup.getByRole('button', { name: 'Insufficient ETH balance' })).toBeDisabled();
  await shot(popup, testInfo, 'above-balance');
  // Max keeps the network fee: the amount it sets fits, so Review becomes possible.
  await expect(popup.getByTestId('quote-fee')).toContainText('ETH', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Max' }).click();
  await expect(popup.getByRole('alert').filter({ hasText: 'Insufficient' })).toHaveCount(0);
  await expect(popup.getByText(/Max keeps [\d.]+ ETH for the network fee/)).toBeVisible();
});

test('networks: only the ones the service and RPCs serve are offered; Settings opens the options page', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { popup } = await openWalletPopup(context, extensionId);
  const network = popup.getByRole('combobox', { name: 'Network' });
  // The embedded default serves Ethereum and Base only.
  // The others are listed once, under one "Not offered by this service" group, and cannot be chosen.
  const notOffered = network.locator('optgroup[label="Not offered by this service"]');
  const bnb = notOffered.locator('option', { hasText: 'BNB Chain' });
  await expect(bnb).toBeDisabled({ timeout: 30_000 });
  await expect(bnb).toHaveAttribute('title', /Not offered by this swap service/);
  await expect(notOffered.locator('option', { hasText: 'Ethereum' })).toHaveCount(0);
  await expect(network.locator('option', { hasText: 'Base' })).toBeEnabled();
  await expect(network.locator('option', { hasText: 'Ethereum' })).toBeEnabled();
  const opened = context.waitForEvent('page');
  await popup.getByRole('button', { name: 'Settings' }).click();
  expect((await opened).url()).toContain('/options.html');
});

test('approvals: an unlimited approval is listed with its on-chain value and revoked', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(120_000);
  const popup = await popupWithPair(context, extensionId, TALL, ['USDC', USDC], ['DAI', DAI]);
  await popup.getByLabel('Amount').fill('10');
  await expect(popup.getByTestId('quote-out')).toContainText('DAI', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  const sheet = popup.getByRole('dialog', { name: 'Review swap' });
  await sheet.getByLabel('Unlimited').check();
  await trustRouterInReview(popup);
  await sheet.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
  await popup.getByRole('button', { name: 'Done' }).click();

  await popup.getByRole('button', { name: 'Activity' }).click();
  const approvals = popup.getByRole('region', { name: 'Token approvals' });
  const row = approvals.locator(`li[data-token="${USDC}"]`);
  await expect(row).toContainText('may spend: unlimited', { timeout: 20_000 });
  await shot(popup, testInfo, 'approvals', true);
  await row.getByRole('button', { name: 'Revoke USDC' }).click();
  // The revoke's own review: its network fee on screen before anything is signed.
  const review = row.getByRole('region', { name: 'Review: Revoke USDC' });
  await expect(review.getByTestId('fee-review-fee')).toContainText(
    /Network fee: about .* ETH, at most .* ETH/,
  );
  await review.getByRole('button', { name: 'Confirm revoke' }).click();
  await expect(row.getByRole('status')).toHaveText('Revoked.', { timeout: 30_000 });
  await expect(row).toContainText('may spend: none left');
  await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
});
