// Issue 7: the popup's words for the routing service's errors (5xx, service down, 404, 406, an
// outdated build), each with its next step, against the built extension, the devnet and the
// reference service. Faults the reference service cannot be made to produce on demand come from
// the fault proxy (tests/support/fault-proxy.ts) put between the extension and the service.
import type { BrowserContext, Page } from '@playwright/test';
import { CHAIN_FIXTURES } from '../../devnet/fixtures';
import * as TOKENS from '../support/addresses';
import { type FaultProxy, onPath, type ProxyRequestInfo } from '../support/fault-proxy';
import {
  expect,
  expectNoRawErrors,
  openWalletPopup,
  pickToken,
  quoteSessionAnswer,
  rpcCall,
  sendFromView,
  serviceProxiedTest,
  swapAnswer,
  trustRouterInReview,
} from './fixtures';

const _ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = TOKENS.lowercase.USDC;

/** The reference service's error body (README, "Error body"). */
function errorBody(code: string, message: string): string {
  return JSON.stringify({ success: false, error: { code, message }, timestamp: new Date().toISOString() });
}
const json = 'application/json';

// A fault proxy in front of the reference service, per test.
const test = serviceProxiedTest;

/** The popup on the devnet, through the proxied service. */
const openPopup = (context: BrowserContext, extensionId: string, serviceUrl: string) =>
  openWalletPopup(context, extensionId, { serviceBaseUrl: serviceUrl });

/** The quote card settled on an error: the message, and no spinner or "refreshing" left behind. */
async function expectQuoteError(popup: Page, title: string, lines: string[]): Promise<void> {
  const error = popup.getByTestId('quote-error');
  // Generous: a 5xx is retried with backoff before the popup hears of it, on a loaded machine.
  await expect(error).toContainText(title, { timeout: 40_000 });
  for (const line of lines) await expect(error).toContainText(line);
  await expect(error.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(popup.getByTestId('quote-card')).toHaveAttribute('aria-busy', 'false');
  await expect(popup.getByTestId('quote-status')).toHaveCount(0);
  await expect(popup.getByText('Refreshing…')).toHaveCount(0);
  await expect(popup.getByTestId('quote-out')).toHaveCount(0);
  await expect(popup.getByRole('button', { name: 'No quote to review' })).toBeDisabled();
  await expectNoRawErrors(popup);
}

const quoteHits = (proxy: FaultProxy) => proxy.hits.filter((hit) => hit.path === '/v1/quote');
const buildHits = (proxy: FaultProxy) => proxy.hits.filter((hit) => hit.path === '/v1/build');
const bodyOf = (hit: ProxyRequestInfo) => JSON.parse(hit.body) as Record<string, unknown>;

test('5xx and a service that is down: specific messages, retried, no spinner; recovers on Try again', async ({
  context,
  extensionId,
  serviceProxy,
}) => {
  test.setTimeout(120_000);
  const { popup, problems } = await openPopup(context, extensionId, serviceProxy.url);
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);

  // 1. The service answers 503 to every quote.
  serviceProxy.add({
    match: onPath('/v1/quote'),
    fault: {
      kind: 'status',
      status: 503,
      body: errorBody('SERVICE_UNAVAILABLE', 'internal trouble'),
      contentType: json,
    },
  });
  await popup.getByLabel('Amount').fill('1');
  await expectQuoteError(popup, 'Swap service is unavailable', [
    'The service is having trouble right now.',
    'Try again in a few minutes.',
  ]);
  // A quote is safe to retry: the client tried more than once before giving up.
  expect(quoteHits(serviceProxy).length).toBeGreaterThanOrEqual(2);
  await popup.screenshot({ path: test.info().outputPath('quote-5xx.png') });

  // 2. The service is unreachable (connections dropped): a different message, pointing at Settings.
  serviceProxy.clear();
  serviceProxy.add({ match: onPath('/v1/quote'), fault: { kind: 'reset' } });
  await popup.getByTestId('quote-error').getByRole('button', { name: 'Try again' }).click();
  await expectQuoteError(popup, 'Cannot reach the swap service', [
    'Nothing answered at its address: the service is not running, refused the connection, or its name does not resolve.',
    'Check the swap service URL in Settings › Advanced, then try again.',
  ]);

  // 3. Back up: Try again gets a real quote.
  serviceProxy.clear();
  await popup.getByTestId('quote-error').getByRole('button', { name: 'Try again' }).click();
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await expect(popup.getByTestId('quote-error')).toHaveCount(0);
  await expect(popup.getByRole('button', { name: 'Review swap' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('404: no route (the reference service itself) and unsupported tokens, each with its next step', async ({
  context,
  extensionId,
  serviceProxy,
}) => {
  test.setTimeout(90_000);
  const { popup, problems } = await openPopup(context, extensionId, serviceProxy.url);

  // 1. A whitelisted long-tail token in no pool: the reference service answers 404 NO_ROUTE.
  const unpooled = CHAIN_FIXTURES.ethereum.longTail.find((token) => token.pools.length === 0);
  if (!unpooled) throw new Error('the devnet has no unpooled long-tail token');
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', unpooled.symbol, unpooled.address);
  await popup.getByLabel('Amount').fill('1');
  await expectQuoteError(popup, 'No route for this pair', [
    'The swap service found no liquidity path between these tokens.',
    'Try another token pair or a smaller amount.',
  ]);
  // A 4xx is an answer, not an outage: asked once, not retried. (Quotes into USDC are the USD
  // prices shown beside amounts, not the session's quote.)
  expect(
    quoteHits(serviceProxy)
      .map((hit) => String(bodyOf(hit).outToken).toLowerCase())
      .filter((out) => out !== USDC),
  ).toEqual([unpooled.address.toLowerCase()]);

  // 2. A service that does not trade the pair (404 UNSUPPORTED_TOKENS).
  serviceProxy.add({
    match: onPath('/v1/quote'),
    fault: {
      kind: 'status',
      status: 404,
      body: errorBody('UNSUPPORTED_TOKENS', 'not whitelisted'),
      contentType: json,
    },
  });
  await pickToken(popup, 'to', 'USDC', USDC);
  await expectQuoteError(popup, 'Token not supported', [
    'The swap service cannot trade one of these tokens.',
    'Pick a different token, or check the token address.',
  ]);
  await popup.screenshot({ path: test.info().outputPath('quote-404.png') });
  expect(problems).toEqual([]);
});

test('406: a slippage the service refuses says so, keeps the typed value, and a preset fixes it', async ({
  context,
  extensionId,
  serviceProxy,
}) => {
  test.setTimeout(90_000);
  const { popup, problems } = await openPopup(context, extensionId, serviceProxy.url);
  // A service with a stricter policy than the reference one: at most 1% slippage.
  serviceProxy.add({
    match: (hit) => hit.path === '/v1/quote' && Number(bodyOf(hit).slippage) > 1,
    fault: {
      kind: 'status',
      status: 406,
      body: errorBody('SLIPPAGE_OUT_OF_RANGE', 'slippage must be within [0.01, 1]'),
      contentType: json,
    },
  });
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('1');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });

  await popup.locator('.slippage-details summary').click();
  await popup.getByLabel('Slippage (%)').fill('3');
  await expectQuoteError(popup, 'Slippage out of range', [
    'The swap service refused this slippage setting.',
    'Choose a slippage the service accepts.',
  ]);
  await expect(popup.getByLabel('Slippage (%)')).toHaveValue('3'); // no silent reset
  expect(quoteHits(serviceProxy).filter((hit) => bodyOf(hit).slippage === 3)).toHaveLength(1);
  await popup.screenshot({ path: test.info().outputPath('quote-406.png') });

  await popup.getByRole('button', { name: '0.5%' }).click();
  await expect(popup.locator('.slippage-details summary')).toHaveText('Slippage tolerance 0.5%');
  await expect(popup.getByTestId('quote-min')).toContainText('USDC', { timeout: 20_000 });
  await expect(popup.getByTestId('quote-error')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the chain moves past the quote during the review: the reviewed build is signed as it was reviewed, no second build, and the swap confirms', async ({
  context,
  extensionId,
  serviceProxy,
}) => {
  test.setTimeout(120_000);
  const { popup, problems, rpcUrls } = await openPopup(context, extensionId, serviceProxy.url);
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('0.25');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  // The first swap in a fresh profile asks to trust the router: while the user reads, the chain moves on.
  await trustRouterInReview(popup);
  await sendFromView(popup, { type: 'markTyping' }); // hold the session's own refresh meanwhile
  const session = (await quoteSessionAnswer(popup)) as {
    result: { quote: { blockNumber: number } };
  };
  const quotedAt = session.result.quote.blockNumber;
  // The reference service calls an Ethereum quote outdated 20 blocks after its block.
  await rpcCall(rpcUrls['1'] ?? '', 'anvil_mine', ['0x19']);
  const buildsBefore = buildHits(serviceProxy).length;
  await popup.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 40_000 });

  // Confirm signs the build the review showed (still simulated at Confirm to pay at least its
  // minimum): the service is not asked to build again, whatever it now thinks of the quote.
  expect(buildHits(serviceProxy).slice(buildsBefore)).toEqual([]);
  const swap = (await swapAnswer(popup)) as {
    result: { status: string; requotes: number; quote: { blockNumber: number } };
  };
  expect(swap.result.status).toBe('confirmed');
  expect(swap.result.requotes).toBe(0);
  expect(swap.result.quote.blockNumber).toBe(quotedAt);
  expect(problems).toEqual([]);
});

test('token list 5xx on the first open: a message with its next step, and Try again loads the list', async ({
  context,
  extensionId,
  serviceProxy,
}) => {
  test.setTimeout(90_000);
  serviceProxy.add({
    match: onPath('/v1/tokens/'),
    fault: { kind: 'status', status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' },
  });
  const { popup, problems } = await openPopup(context, extensionId, serviceProxy.url);
  const error = popup.getByTestId('list-error');
  await expect(error).toContainText('Swap service is unavailable', { timeout: 40_000 });
  await expect(error).toContainText('Try again in a few minutes.');
  await expectNoRawErrors(popup);
  const listHits = () => serviceProxy.hits.filter(onPath('/v1/tokens/')).length;
  expect(listHits()).toBeGreaterThanOrEqual(2); // a GET is safe to retry, and was

  serviceProxy.clear();
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(error).toHaveCount(0, { timeout: 20_000 });
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('1');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  expect(problems).toEqual([]);
});
