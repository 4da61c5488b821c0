import type { Page } from '@playwright/test';
import { checkAndShoot, ETH, expect, openWalletPopup, pickToken, sendFromView, test, USDC } from './fixtures';
import { atEverySize, POPUP_SIZES } from './layout';

/** A private key whose account the devnet never funded. */
const EMPTY_KEY = `0x${'5a'.repeat(32)}`;

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

/** The home's heading is read whole: no ellipsis, no clipped text (its accessible name alone is not enough). */
async function expectHeadingWhole(page: Page) {
  const heading = page.locator('#holdings-title');
  await expect(heading).toHaveText(/^Your tokens on Ethereum$/);
  const fit = await heading.evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      clipped:
        element.scrollWidth > element.clientWidth + 0.5 || element.scrollHeight > element.clientHeight + 0.5,
      ellipsis: style.textOverflow === 'ellipsis' && style.overflow !== 'visible',
      right: element.getBoundingClientRect().right,
    };
  });
  expect(fit, 'the heading is shown whole, inside the popup').toEqual({
    clipped: false,
    ellipsis: false,
    right: expect.any(Number),
  });
  expect(fit.right).toBeLessThanOrEqual(360);
}

test("home at 360x480 and 360x600: the funded account's holdings with USD and a total, Swap and Receive one click away", async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(90_000);
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.setViewportSize(POPUP_SIZES[0]);
  const home = popup.getByRole('region', { name: /Your tokens on Ethereum/ });
  await expect(home.getByTestId('holding-ETH')).toContainText(/[\d,]+ ETH/, { timeout: 20_000 });
  await expect(home.getByTestId('holding-ETH')).toContainText(/\$[\d,]+\.\d\d/, { timeout: 20_000 });
  await expect(home.getByTestId('holdings-total')).toContainText(/^\$[\d,]+\.\d\d\+?$/);
  // The swap button names what is missing, never a mute grey button.
  await home.getByRole('button', { name: 'Swap ETH' }).click();
  await expect(popup.getByLabel('Amount')).toBeFocused();
  await expect(popup.getByTestId('from-picker')).toContainText('ETH');
  await atEverySize(popup, async (size) => {
    await expectNoSidewaysScroll(popup);
    await checkAndShoot(popup, testInfo, `home-${size.height}`);
  });

  // A second popup paints the last known holdings in its first frame, before any answer, prices
  // read an hour ago among them, with no "as of" note yet: fresh prices usually land within the
  // grace (the background has them), and a note that went a moment later would only move the screen
  // (the note itself, past the grace: tests/unit/popup-holdings.test.tsx). Once fresh ones land,
  // no note. The first popup's pricing is over first, so it writes no newer snapshot over the edit.
  await expect(home.locator('.holding-usd', { hasText: '—' })).toHaveCount(0, { timeout: 20_000 });
  await popup.evaluate(() => {
    const key = 'swaplane.holdings.v2:1';
    const snapshot = JSON.parse(localStorage.getItem(key) ?? 'null');
    for (const row of snapshot.rows) if (row.price !== null) row.pricedAt = Date.now() - 3_600_000;
    localStorage.setItem(key, JSON.stringify(snapshot));
  });
  const again = await context.newPage();
  // What the first frame with holdings showed, recorded as it appears.
  await again.addInitScript(() => {
    const first: { usd?: string; note?: boolean } = {};
    (globalThis as unknown as { firstHoldings: typeof first }).firstHoldings = first;
    const observer = new MutationObserver(() => {
      const eth = document.querySelector('[data-testid="holding-ETH"]');
      if (!eth) return;
      first.usd = eth.querySelector('.holding-usd')?.textContent ?? '';
      first.note = document.querySelector('[data-testid="holdings-as-of"]') !== null;
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  await again.setViewportSize(POPUP_SIZES[0]);
  await again.goto(popup.url());
  await expect(again.getByTestId('holding-ETH')).toBeVisible({ timeout: 5_000 });
  const first = await again.evaluate(
    () => (globalThis as unknown as { firstHoldings: { usd?: string; note?: boolean } }).firstHoldings,
  );
  expect(first.usd, "the last popup's price in the first frame").toMatch(/\$[\d,]+\.\d\d/);
  expect(first.note, 'no note in the first frame').toBe(false);
  await expect(again.getByTestId('holdings-as-of')).toHaveCount(0, { timeout: 20_000 });
  await expect(again.getByTestId('holding-ETH')).toContainText(/\$[\d,]+\.\d\d/);
  await again.close();

  // A pair chosen: the holdings fold to their heading line (total and Show), still read whole.
  await pickToken(popup, 'to', 'USDC', USDC);
  await expect(home.getByRole('button', { name: 'Show' })).toBeVisible();
  await atEverySize(popup, async (size) => {
    await expectHeadingWhole(popup);
    await expectNoSidewaysScroll(popup);
    await checkAndShoot(popup, testInfo, `home-pair-${size.height}`);
  });

  await popup.getByRole('button', { name: 'Receive' }).click();
  await expect(popup.getByRole('button', { name: 'Copy address' })).toBeVisible();
});

test('empty wallet at 360x480 and 360x600: says how to fund it, Receive, and the swap button says why it is disabled', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(90_000);
  const { popup } = await openWalletPopup(context, extensionId);
  // A key the devnet never funded, imported and made the active account.
  const imported = (await sendFromView(popup, {
    type: 'walletImportKey',
    privateKey: EMPTY_KEY,
    name: 'Empty',
  })) as { ok: boolean; result: { accounts: { id: string; name: string }[] } };
  expect(imported.ok).toBe(true);
  const empty = imported.result.accounts.find((account) => account.name === 'Empty');
  await sendFromView(popup, { type: 'walletSetActive', id: empty?.id ?? '' });
  await popup.setViewportSize(POPUP_SIZES[0]);
  await popup.reload();
  const home = popup.getByRole('region', { name: /Your tokens on Ethereum/ });
  await expect(home.getByTestId('holdings-empty')).toContainText('To fund it, choose Receive', {
    timeout: 20_000,
  });
  await expect(popup.getByRole('button', { name: 'Receive' })).toBeVisible();
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await expect(popup.getByRole('button', { name: 'Enter an amount' })).toBeDisabled();
  await popup.getByLabel('Amount').fill('1');
  await expect(popup.getByRole('button', { name: 'Insufficient ETH balance' })).toBeDisabled({
    timeout: 20_000,
  });
  await atEverySize(popup, async (size) => {
    await expectNoSidewaysScroll(popup);
    await checkAndShoot(popup, testInfo, `empty-wallet-${size.height}`);
  });
});
