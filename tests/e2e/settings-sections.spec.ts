import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, sendFromView, setUpWallet, test } from './fixtures';
import type { PopupSize } from './layout';

/** The calldata policy's checkbox is named by its label, on one line with it. */
async function expectPolicyBesideItsLabel(options: Page) {
  const policy = options.getByRole('checkbox', { name: 'Only sign swap calls Swaplane can read' });
  await expect(policy).toBeChecked();
  const [box, text] = await Promise.all([
    policy.boundingBox(),
    options.getByText('Only sign swap calls Swaplane can read', { exact: true }).boundingBox(),
  ]);
  expect(box && text && Math.abs(box.y + box.height / 2 - (text.y + text.height / 2)) < 8).toBe(true);
}

/** Save is far below the page's top: the confirmation opens in view, as a modal, axe clean. */
async function saveOpensTheDialogInView(options: Page, size: PopupSize, url: string) {
  await options.setViewportSize(size);
  await expectPolicyBesideItsLabel(options);
  await options.getByLabel('Service base URL').fill(url);
  await options.getByRole('button', { name: 'Save' }).click();
  const dialog = options.getByRole('dialog', { name: 'Change the swap service?' });
  await expect(dialog).toBeVisible();
  await expect(dialog, `at 360x${size.height}`).toBeInViewport();
  const { violations } = await new AxeBuilder({ page: options }).analyze();
  expect(
    violations.map((v) => v.id),
    `at 360x${size.height}`,
  ).toEqual([]);
  const screens = process.env.SWAPLANE_SCREENS;
  if (screens) await options.screenshot({ path: `${screens}/settings-confirm-${size.height}.png` });
  return dialog;
}

test('settings at 360x600 and 360x480: sections, the change dialog in view, Cancel and Escape restore the field, pasted URLs become hosts', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(90_000);
  const { page: setup, serviceUrl } = await setUpWallet(context, extensionId, 'popup.html');
  await setup.close();
  const options = await context.newPage();
  await options.setViewportSize({ width: 360, height: 600 });
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  for (const name of ['General', 'Security', 'Sites', 'Advanced'])
    await expect(options.getByRole('heading', { name, exact: true })).toBeVisible();
  const field = options.getByLabel('Service base URL');

  // At 360x600, Cancel restores the field and changes nothing.
  const dialog = await saveOpensTheDialogInView(
    options,
    { width: 360, height: 600 },
    'http://127.0.0.1:9999/',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(field).toHaveValue(serviceUrl);
  expect(await sendFromView(options, { type: 'getSettings' })).toMatchObject({
    result: { serviceBaseUrl: serviceUrl },
  });

  // At 360x480, Escape cancels too.
  await saveOpensTheDialogInView(options, { width: 360, height: 480 }, 'http://127.0.0.1:9998/');
  await options.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(field).toHaveValue(serviceUrl);
  expect(await sendFromView(options, { type: 'getSettings' })).toMatchObject({
    result: { serviceBaseUrl: serviceUrl },
  });

  // An explorer address pasted from the browser's bar becomes its host.
  const host = options.getByLabel('Explorer host', { exact: true });
  await host.focus();
  await host.evaluate((input: HTMLInputElement) => {
    input.value = 'https://etherscan.io/';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
  });
  await expect(host).toHaveValue('etherscan.io');
  await options.getByRole('button', { name: 'Add explorer' }).click();
  await expect(options.getByTestId('explorer-hosts-status')).toContainText('built in');
  await options.screenshot({ path: testInfo.outputPath('settings.png') });
});
