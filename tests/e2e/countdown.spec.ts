import { ETH, expect, openWalletPopup, pickToken, test, USDC } from './fixtures';

/** The quote session refreshes every 15 s (lib/swap/session.ts): no countdown may read more. */
const REFRESH_S = 15;

test('the quote countdown starts from the real time and only counts down, even when the popup sat open first', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(90_000);
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.setViewportSize({ width: 360, height: 600 });
  // Sat open before the first quote: the countdown once started from the popup's opening time and
  // read 15 s plus the time sat open until its first tick; 3 s puts that first reading at 17-18 s.
  await popup.waitForTimeout(3_000);
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('1');
  const countdown = popup.getByTestId('quote-countdown');
  await expect(countdown).toContainText(/New quote in \d+s/, { timeout: 20_000 });
  const seconds: number[] = [];
  for (let i = 0; i < 6; i++) {
    const text = (await countdown.textContent()) ?? '';
    const match = /New quote in (\d+)s/.exec(text);
    if (match) seconds.push(Number(match[1]));
    await popup.waitForTimeout(700);
  }
  expect(seconds.length).toBeGreaterThan(3);
  for (const [i, value] of seconds.entries()) {
    expect(value, `sample ${i} of ${seconds.join(', ')}`).toBeLessThanOrEqual(REFRESH_S);
    // Down by at most the time between samples, or back up to the full interval for a new quote.
    if (i > 0 && value > (seconds[i - 1] ?? 0)) expect(value).toBeGreaterThanOrEqual(REFRESH_S - 2);
  }
});
