import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page, TestInfo } from '@playwright/test';
import { historySwapFixture } from '../support/swaps';
import {
  E2E_PASSWORD,
  ETH,
  expect,
  importAnvilWallet,
  pickToken,
  seedHistory,
  test,
  USDC,
  useEmbeddedDefault,
} from './fixtures';

const SCHEMES = ['light', 'dark'] as const;

/** Axe finds nothing, the popup fits 360 px without horizontal scroll, and a screenshot is kept. */
async function audit(page: Page, testInfo: TestInfo, name: string, maxWidth = 360): Promise<void> {
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} -> ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
    expect(summary, `axe violations on ${name} (${colorScheme})`).toEqual([]);
    // Guards against axe silently not running (e.g. blocked by the extension page's CSP).
    expect(results.passes.length).toBeGreaterThan(5);
    // Checks axe could not decide (often contrast over layered backgrounds) are kept for review.
    if (results.incomplete.length > 0) {
      testInfo.annotations.push({
        type: 'axe-incomplete',
        description: `${name} (${colorScheme}): ${results.incomplete
          .map(
            (item) =>
              `${item.id} x${item.nodes.length} [${item.nodes
                .slice(0, 2)
                .map((node) => `${node.target.join(' ')}: ${node.any[0]?.message ?? ''}`)
                .join(' | ')}]`,
          )
          .join(', ')}`,
      });
    }
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${name} (${colorScheme}) scrolls horizontally`).toBeLessThanOrEqual(maxWidth);
    const path = testInfo.outputPath(`${name}-${colorScheme}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${colorScheme}`, { path, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** WCAG relative luminance contrast of two computed `rgb(...)` colours (opaque). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
      const channel = Number(value) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** A popup page on the embedded default with anvil's wallet imported. */
async function walletPage(context: BrowserContext, extensionId: string): Promise<Page> {
  const page = await context.newPage();
  await openPopup(page, extensionId);
  await useEmbeddedDefault(page);
  await importAnvilWallet(page);
  return page;
}

async function openPopup(page: Page, extensionId: string): Promise<void> {
  await page.setViewportSize({ width: 360, height: 600 });
  await page.goto(`chrome-extension://${extensionId}/popup.html`);
}

/** A popup page with anvil's wallet imported (the built-in service settings), reloaded onto the wallet. */
async function importedPage(context: BrowserContext, extensionId: string): Promise<Page> {
  const page = await context.newPage();
  await openPopup(page, extensionId);
  await importAnvilWallet(page);
  await page.reload();
  return page;
}

/** A wrong password sent with `button`: the alert says so, and the screen with it passes the audit. */
async function auditWrongPassword(page: Page, testInfo: TestInfo, button: string, name: string) {
  await page.getByLabel('Password').fill('not my password');
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByRole('alert')).toContainText('Wrong password');
  await audit(page, testInfo, name);
}

test('onboarding screens have no axe violations and fit 360x600', async ({
  context,
  extensionId,
}, testInfo) => {
  const page = await context.newPage();
  await openPopup(page, extensionId);
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await audit(page, testInfo, 'onboarding');
  await page
    .getByRole('button', { name: /import/i })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Import a wallet' })).toBeVisible();
  await audit(page, testInfo, 'onboarding-import');
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Create a new wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Your recovery phrase' })).toBeVisible();
  await audit(page, testInfo, 'onboarding-backup');
});

test('the unlock screen has no axe violations, also with a wrong password', async ({
  context,
  extensionId,
}, testInfo) => {
  const page = await importedPage(context, extensionId);
  await page.getByRole('button', { name: 'Lock' }).click();
  await expect(page.getByRole('heading', { name: 'Unlock' })).toBeVisible();
  await audit(page, testInfo, 'unlock');
  await auditWrongPassword(page, testInfo, 'Unlock', 'unlock-error');
});

test('the swap screen with a quote, the token picker and review have no axe violations', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(120_000);
  const page = await walletPage(context, extensionId);
  await page.reload();
  await expect(page.getByTestId('from-picker')).toBeVisible();
  await audit(page, testInfo, 'swap-empty');

  await page.getByTestId('from-picker').click();
  await expect(page.locator('button[data-token]').first()).toBeVisible();
  await audit(page, testInfo, 'token-picker');
  await page.getByLabel(/Search from token/i).fill('ETH');
  await page.locator(`button[data-token="${ETH}"]`).click();

  await pickToken(page, 'to', 'USDC', USDC);
  await page.getByLabel('Amount').fill('1');
  await expect(page.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  // The quote line expands into its details (minimum received, route, most the fee can be).
  await page.locator('.quote-details summary').click();
  await expect(page.getByTestId('route-diagram')).toBeVisible();
  await audit(page, testInfo, 'swap-quote');

  // Inline errors: a bad amount and a refused slippage.
  await page.getByLabel('Amount').fill('1.2.3');
  await page.locator('.slippage-details summary').click();
  await page.getByLabel('Slippage (%)').fill('60');
  await expect(page.getByRole('alert').first()).toBeVisible();
  await audit(page, testInfo, 'swap-errors');
  await page.getByLabel('Slippage (%)').fill('0.5');
  await page.getByLabel('Amount').fill('1');
  await expect(page.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });

  await page.getByRole('button', { name: 'Review swap' }).click();
  await expect(page.getByTestId('review')).toBeVisible();
  await audit(page, testInfo, 'review');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Activity' }).click();
  await audit(page, testInfo, 'activity');
});

test('the account screen has no axe violations, before and after a reveal', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(90_000);
  const page = await importedPage(context, extensionId);
  await page.getByRole('button', { name: 'Manage accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
  await audit(page, testInfo, 'accounts');
  await auditWrongPassword(page, testInfo, 'Reveal', 'accounts-error');
  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Reveal' }).click();
  // Hidden by default: the screenshots of this state never show the phrase.
  await expect(page.getByTestId('secret-hidden')).toBeVisible({ timeout: 20_000 });
  await audit(page, testInfo, 'accounts-revealed-hidden');
});

test('a split-route quote in light and dark; the flip glyph has 3:1 contrast in both', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(120_000);
  const page = await walletPage(context, extensionId);
  await page.reload();
  await pickToken(page, 'from', 'ETH', ETH);
  await pickToken(page, 'to', 'USDC', USDC);
  // WETH/USDC has two pools on the devnet: a large trade is split between them.
  await page.getByLabel('Amount').fill('500');
  await expect(page.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await page.locator('.quote-details summary').click();
  const diagram = page.getByTestId('route-diagram').getByRole('img');
  await expect(diagram).toHaveAttribute('aria-label', /%.*;.*%/);
  await audit(page, testInfo, 'swap-quote-split');

  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    const colours = await page.evaluate(() => {
      const button = document.querySelector('button.flip') as HTMLElement;
      const glyph = button.querySelector('svg path') as SVGPathElement;
      return {
        glyph: getComputedStyle(glyph).stroke,
        button: getComputedStyle(button).backgroundColor,
        page: getComputedStyle(document.body).backgroundColor,
      };
    });
    // WCAG 1.4.11: the glyph against what it sits on (the button), and the button against the page.
    expect(contrast(colours.glyph, colours.button), `${colorScheme}: glyph on button`).toBeGreaterThanOrEqual(
      3,
    );
    expect(contrast(colours.glyph, colours.page), `${colorScheme}: glyph on page`).toBeGreaterThanOrEqual(3);
    testInfo.annotations.push({
      type: 'flip-contrast',
      description: `${colorScheme}: ${contrast(colours.glyph, colours.button).toFixed(2)}:1 on the button`,
    });
  }
});

test('receive, an opened activity row, an earlier-chain note and the settings page have no axe violations', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(120_000);
  const page = await walletPage(context, extensionId);
  // One swap of an earlier devnet run in the history: its row, opened, and the note above the list.
  const gone = `0x${'5a'.repeat(32)}`;
  await seedHistory(page, [
    historySwapFixture({ hash: gone, createdAt: Date.now() - 60_000, updatedAt: Date.now() }),
  ]);
  await page.reload();
  await page.getByRole('button', { name: 'Receive' }).click();
  await expect(page.getByRole('button', { name: 'Copy address' })).toBeVisible();
  await audit(page, testInfo, 'receive');

  await page.reload();
  await page.getByRole('button', { name: 'Activity' }).click();
  const row = page.getByTestId('activity').locator('[data-kind="swap"]');
  await row.getByText(/^Swap 1 ETH →/).click();
  await expect(row.getByLabel('Transaction details')).toBeVisible();
  await expect(page.getByTestId('earlier-chain-note')).toBeVisible();
  await audit(page, testInfo, 'activity-detail');

  const options = await context.newPage();
  await options.setViewportSize({ width: 800, height: 900 });
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(options.getByLabel('Service base URL')).toBeVisible();
  await audit(options, testInfo, 'options', 800);
  await options.getByLabel('Service base URL').fill('http://127.0.0.1:9999/');
  await options.getByRole('button', { name: 'Save' }).click();
  await expect(options.getByRole('dialog', { name: 'Change the swap service?' })).toBeVisible();
  await audit(options, testInfo, 'options-confirm-change', 800);
});
