import { checkAndShoot, expect, openWalletPopup, quoteEthToUsdc, TRUST_ROUTER_TICK, test } from './fixtures';

// The review's body scrolls; at 360x480 the router trust's tick used to sit just under its fold,
// with Confirm disabled for a reason the user could not see to act on.
test('at 360x480 the router-trust tick is in view with Confirm, no scrolling, light and dark, axe clean', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(90_000);
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.setViewportSize({ width: 360, height: 480 });
  await quoteEthToUsdc(popup, '0.5');
  await popup.getByRole('button', { name: 'Review swap' }).click();

  const review = popup.getByRole('dialog', { name: 'Review swap' });
  const tick = review.getByRole('checkbox', { name: TRUST_ROUTER_TICK });
  const confirm = review.getByRole('button', { name: 'Confirm swap' });
  await expect(tick).toBeVisible({ timeout: 20_000 });
  for (const scheme of ['light', 'dark'] as const) {
    await popup.emulateMedia({ colorScheme: scheme });
    // Wholly visible: not clipped by the scrolling body, not under the foot, not below the window.
    await expect(tick).toBeInViewport({ ratio: 1 });
    await expect(review.getByRole('heading', { name: 'Trust this swap router?' })).toBeInViewport();
    await expect(confirm).toBeInViewport({ ratio: 1 });
    await expect(confirm).toBeDisabled();
    await expect(review.getByTestId('review-why')).toBeInViewport({ ratio: 1 });
  }
  await checkAndShoot(popup, testInfo, 'review-fold-480');
  // The foot's way to the tick Confirm waits for.
  await review.getByRole('button', { name: 'Go to the tick' }).click();
  await expect(tick).toBeFocused();
  await popup.keyboard.press('Space');
  await expect(tick).toBeChecked();
  await expect(confirm).toBeEnabled();
  await expect(review.getByRole('button', { name: 'Go to the tick' })).toHaveCount(0);
});
