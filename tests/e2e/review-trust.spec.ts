import type { Page, TestInfo } from '@playwright/test';
import { createPublicClient, erc20Abi, http } from 'viem';
import {
  ACCOUNT,
  checkAndShoot,
  ETH,
  expect,
  openWalletPopup,
  pickToken,
  quoteEthToUsdc,
  test,
  USDC,
} from './fixtures';

/** Where a person wants the screenshots (checkAndShoot writes its own there too). */
const SCREENS = process.env.SWAPLANE_SCREENS;

const SIZES = [
  { width: 360, height: 600 },
  { width: 360, height: 480 },
];

/** "0.000169 ETH ($0.51)" -> 0.000169 */
const ethOf = (text: string | null) =>
  Number(/([\d.,]+) ETH/.exec(text ?? '')?.[1]?.replaceAll(',', '') ?? NaN);

/** The whole element is inside the viewport (the user sees it without scrolling the page). */
async function expectInView(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  const size = page.viewportSize();
  expect(box, testId).not.toBeNull();
  expect((box?.y ?? 0) + (box?.height ?? 0), `${testId} inside the viewport`).toBeLessThanOrEqual(
    size?.height ?? 0,
  );
  expect(box?.y ?? -1, `${testId} inside the viewport`).toBeGreaterThanOrEqual(0);
}

/**
 * At each popup size (the journey waits out a quote's 30 s lifetime once, so both sizes are checked
 * on the same screen by resizing it): `testId` is in view, axe is clean in light and dark.
 */
async function expectAtEverySize(page: Page, testInfo: TestInfo, testId: string, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectInView(page, testId);
    await checkAndShoot(page, testInfo, `${name}-${size.height}`);
  }
}

test('first swap on a network at 360x600 and 360x480: the router is trusted inside the review, the quote expires there, a new one is taken and confirmed on chain', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(150_000);
  const { popup, rpcUrls } = await openWalletPopup(context, extensionId);
  const chain = createPublicClient({ transport: http(rpcUrls['1']) });
  const usdcBefore = await chain.readContract({
    address: USDC,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [ACCOUNT],
  });
  await quoteEthToUsdc(popup, '0.5');
  // The swap screen's fee, once known, to compare with the review's.
  await expect(popup.getByTestId('quote-fee')).toContainText('ETH', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();

  const review = popup.getByRole('dialog', { name: 'Review swap' });
  const trust = review.getByRole('region', { name: 'Trust this swap router?' });
  await expect(trust).toBeVisible({ timeout: 20_000 });
  await expect(trust).toContainText(/Router: 0x[0-9a-fA-F]{40}/);
  // The countdown never exceeds the quote's lifetime (30 s), and only goes down. Read first, before the
  // resizes and axe checks below, which can take most of the quote's 30 s on a loaded machine.
  const countdown = review.getByTestId('review-countdown');
  await expect(countdown).toContainText(/valid for \d+s/, { timeout: 20_000 });
  const seconds: number[] = [];
  for (let i = 0; i < 4; i++) {
    const match = /valid for (\d+)s/.exec((await countdown.textContent()) ?? '');
    if (match) seconds.push(Number(match[1]));
    await popup.waitForTimeout(600);
  }
  expect(seconds.length).toBeGreaterThan(1);
  for (const [i, value] of seconds.entries()) {
    expect(value).toBeLessThanOrEqual(30);
    if (i > 0) expect(value).toBeLessThanOrEqual(seconds[i - 1] ?? 0);
  }

  const confirm = review.getByRole('button', { name: 'Confirm swap' });
  // Disabled, and it says why.
  await expect(confirm).toBeDisabled();
  await expect(review.getByTestId('review-why')).toHaveText(
    'To confirm, tick that you trust the router above.',
  );
  await expectAtEverySize(popup, testInfo, 'review-why', 'review-trust');

  // The quote expires while the user reads: the reason and "Get a new quote" are in the sheet, in view.
  await trust.getByRole('checkbox', { name: 'I trust this router with my swaps on this service' }).check();
  await expect(countdown).toHaveText('Quote expired', { timeout: 40_000 });
  await expect(review.getByRole('alert')).toContainText('This quote expired');
  await expectAtEverySize(popup, testInfo, 'review-problem', 'review-expired');
  await review.getByRole('button', { name: 'Get a new quote' }).click();

  // The new quote is reviewed again, the trust asked again (a tick belongs to one review).
  await expect(countdown).toContainText(/valid for \d+s/, { timeout: 20_000 });
  const tick = trust.getByRole('checkbox', { name: 'I trust this router with my swaps on this service' });
  await expect(tick).not.toBeChecked({ timeout: 20_000 });
  await tick.check();
  await expect(confirm).toBeEnabled();
  await confirm.click();

  // No sheet after Confirm asks anything: the swap goes through.
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 40_000 });
  await expect(popup.getByRole('button', { name: /Trust/ })).toHaveCount(0);
  const usdcAfter = await chain.readContract({
    address: USDC,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [ACCOUNT],
  });
  expect(usdcAfter).toBeGreaterThan(usdcBefore);
  if (SCREENS) await popup.screenshot({ path: `${SCREENS}/confirmed.png` });
  await popup.getByRole('button', { name: 'Done' }).click();

  // The router is trusted now: the next review asks nothing about it.
  await popup.getByLabel('Amount').fill('0.2');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  await expect(review.getByTestId('review-fee')).toContainText('ETH', { timeout: 20_000 });
  await expect(review.getByRole('button', { name: 'Confirm swap' })).toBeEnabled({ timeout: 20_000 });
  await expect(review.getByTestId('router-trust')).toHaveCount(0);
});

test('the swap screen shows the network fee the review shows (within 5% on the first look, before any review), and "up to" for the most', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.setViewportSize({ width: 360, height: 600 });
  const review = popup.getByRole('dialog', { name: 'Review swap' });
  /** The swap screen's fee, then the review's, for `amount`. */
  const fees = async (amount: string) => {
    // From an empty amount (no quote at all), so the fee read is this amount's, never the last one's.
    await popup.getByLabel('Amount').fill('');
    await expect(popup.getByTestId('quote-out')).toHaveCount(0);
    await popup.getByLabel('Amount').fill(amount);
    await expect(popup.getByTestId('quote-out')).toContainText(/\d/, { timeout: 20_000 });
    await expect(popup.getByTestId('quote-fee')).toContainText('ETH', { timeout: 20_000 });
    // The review's own simulation of this quote, not a remembered or estimated gas ("about").
    await expect(popup.getByTestId('quote-fee')).not.toContainText('about');
    const screenFee = ethOf(await popup.getByTestId('quote-fee').textContent());
    await popup.getByRole('button', { name: 'Review swap' }).click();
    await expect(review.getByText('Checking and simulating the transaction…')).toHaveCount(0, {
      timeout: 20_000,
    });
    const reviewFee = ethOf(await review.getByTestId('review-fee').textContent());
    await review.locator('summary').click();
    await expect(review.getByText(/^Up to [\d.]+ ETH/)).toBeVisible();
    await review.getByRole('button', { name: 'Cancel' }).click();
    return { screenFee, reviewFee, apart: Math.abs(screenFee - reviewFee) / reviewFee };
  };
  for (const [from, fromAddress, to, toAddress, amount, again] of [
    ['ETH', ETH, 'USDC', USDC, '1', '1.2'],
    ['USDC', USDC, 'ETH', ETH, '100', '120'],
  ] as const) {
    await pickToken(popup, 'from', from, fromAddress);
    await pickToken(popup, 'to', to, toAddress);
    // The first look: nothing of this route was reviewed yet, and the fee is already the review's.
    const first = await fees(amount);
    console.log(
      `${from}->${to} ${amount}: swap screen ${first.screenFee} ETH, review ${first.reviewFee} ETH`,
    );
    expect(first.apart, `${first.screenFee} vs ${first.reviewFee}`).toBeLessThanOrEqual(0.05);
    const next = await fees(again);
    console.log(`${from}->${to} ${again}: swap screen ${next.screenFee} ETH, review ${next.reviewFee} ETH`);
    expect(next.apart, `${next.screenFee} vs ${next.reviewFee}`).toBeLessThanOrEqual(0.05);
  }
});

test('while the next quote loads, "You receive" keeps the last quote dimmed, never 0.0', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.setViewportSize({ width: 360, height: 480 });
  await quoteEthToUsdc(popup, '1');
  const live = popup.getByTestId('quote-out');
  const first = await live.textContent();
  await popup.getByLabel('Amount').fill('2');
  // The debounce and the request take a moment: meanwhile the last figure stays, marked as loading.
  const pending = popup.getByTestId('quote-out-pending');
  await expect(pending).toHaveText(first ?? '');
  await expect(popup.getByRole('status', { name: /last quote, a new one is loading/ })).toBeVisible();
  if (SCREENS) await popup.screenshot({ path: `${SCREENS}/quote-loading-480.png` });
  await expect(live).not.toHaveText(first ?? '', { timeout: 20_000 });
  await expect(live).toContainText('USDC');
  await expect(popup.getByText('0.0', { exact: true })).toHaveCount(0);
});
