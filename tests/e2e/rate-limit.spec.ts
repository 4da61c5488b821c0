// The service's rate limit end to end, with the built extension: a quote answered 429 with
// Retry-After (the reference service's body and header, from the fault proxy in front of the real
// service) is waited out as told, with "The swap service is busy, retrying in N s" on the card, then
// the quote shows; a 429 the client does not wait out (a second in a row, or a wait past its 20 s
// bound) gives the busy message with the service's wait, and no request loop.
import type { Page } from '@playwright/test';
import type { FaultProxy, ProxyRequestInfo } from '../support/fault-proxy';
import {
  ETH,
  expect,
  expectNoRawErrors,
  openWalletPopup,
  pickToken,
  serviceProxiedTest,
  USDC,
} from './fixtures';

const test = serviceProxiedTest;

/** How long nothing may ask again after a 429 not waited out: a loop asks within milliseconds, the next refresh is 15 s away. */
const QUIET_MS = 2_000;

/** A 429 as the reference service sends it (service/request-bounds.ts). */
function rateLimited(retryAfterSeconds: number) {
  return {
    kind: 'status' as const,
    status: 429,
    contentType: 'application/json',
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: JSON.stringify({
      success: false,
      error: {
        code: 'RATE_LIMITED',
        message: `too many quote requests from this client; retry in ${retryAfterSeconds} s`,
      },
      timestamp: new Date().toISOString(),
    }),
  };
}

/**
 * The swap's own quote: 1.5 ETH -> USDC (the home screen's and the card's USD prices ask reference
 * quotes of their own, of other amounts, through the same service).
 */
const AMOUNT = '1.5';
function isSwapQuote(hit: ProxyRequestInfo): boolean {
  if (hit.path !== '/v1/quote') return false;
  try {
    const body = JSON.parse(hit.body) as { inToken?: string; inAmount?: string };
    return body.inToken?.toLowerCase() === ETH && body.inAmount === '1500000000000000000';
  } catch {
    return false;
  }
}

/** When each swap quote request reached the proxy (an observer rule: it never answers). */
function quoteTimes(proxy: FaultProxy): number[] {
  const times: number[] = [];
  proxy.add({
    match: (hit) => {
      if (isSwapQuote(hit)) times.push(Date.now());
      return false;
    },
    fault: { kind: 'hang' },
  });
  return times;
}

async function askEthToUsdc(popup: Page): Promise<void> {
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill(AMOUNT);
}

test('a 429 on a quote: the card says the service is busy and when it retries, waits as told, then shows the quote', async ({
  context,
  extensionId,
  serviceProxy,
}) => {
  const { popup, problems } = await openWalletPopup(context, extensionId, {
    serviceBaseUrl: serviceProxy.url,
  });
  const times = quoteTimes(serviceProxy);
  serviceProxy.add({ match: isSwapQuote, fault: rateLimited(3), times: 1 });
  await askEthToUsdc(popup);

  await expect(popup.getByTestId('quote-busy')).toHaveText(/^The swap service is busy, retrying in [1-3] s$/);
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await expect(popup.getByTestId('quote-busy')).toHaveCount(0);
  await expect(popup.getByTestId('quote-error')).toHaveCount(0);
  // One 429, one wait of the 3 s asked for, one quote.
  expect(times).toHaveLength(2);
  expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(2_900);
  await expectNoRawErrors(popup);
  expect(problems).toEqual([]);
});

test('a second 429, or one asking past the 20 s bound: the busy message with the wait, no loop', async ({
  context,
  extensionId,
  serviceProxy,
}) => {
  const { popup, problems } = await openWalletPopup(context, extensionId, {
    serviceBaseUrl: serviceProxy.url,
  });
  const times = quoteTimes(serviceProxy);
  serviceProxy.add({ match: isSwapQuote, fault: rateLimited(2) });
  await askEthToUsdc(popup);

  // The first 429 is waited out; the second in a row is not.
  await expect(popup.getByTestId('quote-busy')).toHaveText(/^The swap service is busy, retrying in [12] s$/);
  const error = popup.getByTestId('quote-error');
  await expect(error).toContainText('The swap service is busy', { timeout: 15_000 });
  await expect(error).toContainText('It asked Swaplane to wait 2 s before asking again.');
  await expect(error).toContainText('Try again in 2 s.');
  await expect(popup.getByTestId('quote-card')).toHaveAttribute('aria-busy', 'false');
  // Nothing asks again on its own (the next refresh waits its usual interval).
  await popup.waitForTimeout(QUIET_MS);
  expect(times).toHaveLength(2);

  // A wait past the bound is not waited at all: one request, the message at once.
  serviceProxy.clear();
  const later = quoteTimes(serviceProxy);
  serviceProxy.add({ match: isSwapQuote, fault: rateLimited(120) });
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(error).toContainText('It asked Swaplane to wait 120 s before asking again.');
  await expect(popup.getByTestId('quote-busy')).toHaveCount(0);
  await popup.waitForTimeout(QUIET_MS);
  expect(later).toHaveLength(1);
  await expectNoRawErrors(popup);
  expect(problems).toEqual([]);
});
