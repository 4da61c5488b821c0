// Issue 15, end to end: a hostile swap service (and a hostile RPC) in front of the real reference
// service and the devnet, against the built extension. Each attack ends with nothing signed, or
// with the user shown exactly what happens; refused swaps leave the account's balances unchanged.
import type { Page } from '@playwright/test';
import { encodeFunctionData, parseAbi } from 'viem';
import { quoteDigest } from '@/lib/swap/digest';
import { minReceivedFor, scaledSlippage } from '@/lib/swap/verify';
import { onPath, onRpc } from '../support/fault-proxy';
import {
  ACCOUNT,
  ETH,
  expect,
  openProxiedPopup,
  pickToken,
  proxiedTest,
  rpcCall,
  sendFromView,
  trustRouterInReview,
  USDC,
} from './fixtures';

const ATTACKER = '0x000000000000000000000000000000000000dEaD';

const test = proxiedTest;

/** The account's nonce and balances (ETH, USDC), read straight from anvil. */
async function accountState(rpc: string) {
  const usdcData = encodeFunctionData({
    abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
    args: [ACCOUNT],
  });
  const [nonce, eth, usdc] = await Promise.all([
    rpcCall(rpc, 'eth_getTransactionCount', [ACCOUNT, 'latest']),
    rpcCall(rpc, 'eth_getBalance', [ACCOUNT, 'latest']),
    rpcCall(rpc, 'eth_call', [{ to: USDC, data: usdcData }, 'latest']),
  ]);
  return { nonce: BigInt(nonce as string), eth: BigInt(eth as string), usdc: BigInt(usdc as string) };
}

/** The quote session and the swap, as the popup's first frame gets them. */
async function start(page: Page) {
  const answer = (await sendFromView(page, { type: 'popupStart' })) as {
    result: {
      session: { quote: { minReceived: string; outAmount: string } | null; nextRefreshAt: number | null };
      swap: {
        quote: { minReceived: string };
        outcome: { received: string } | null;
        tx: { hash: string } | null;
      } | null;
    };
  };
  return answer.result;
}

async function fillEthToUsdc(popup: Page, amount: string): Promise<void> {
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill(amount);
}

async function formEthToUsdc(popup: Page, amount: string): Promise<void> {
  await fillEthToUsdc(popup, amount);
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
}

/** Runs `during`, then checks the account's nonce and balances are what they were before it. */
async function expectAccountUntouched(rpc: string, during: () => Promise<void>): Promise<void> {
  const before = await accountState(rpc);
  await during();
  expect(await accountState(rpc)).toEqual(before);
}

/** Rewrites the `data` object of the service's JSON answers. */
const rewriteData = (edit: (data: Record<string, unknown>) => void) => (body: string) => {
  const json = JSON.parse(body) as { data?: Record<string, unknown> };
  if (json.data) edit(json.data);
  return JSON.stringify(json);
};

test('lying decimals: a token list that gives USDC 18 decimals is refused, naming both values', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  serviceProxy.add({
    match: onPath('/v1/tokens/ethereum/full'),
    fault: {
      kind: 'rewrite',
      transform: (body) =>
        JSON.stringify(
          (JSON.parse(body) as { address: string; decimals: number }[]).map((token) =>
            token.address.toLowerCase() === USDC ? { ...token, decimals: 18 } : token,
          ),
        ),
    },
  });
  const { popup, rpc } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
  await expectAccountUntouched(rpc, async () => {
    await expect(popup.getByTestId('list-error')).toContainText('USDC has 18 decimals; the chain says 6', {
      timeout: 20_000,
    });
  });
});

test('lying decimals in a quote: the quote is refused, nothing is shown with the wrong decimals', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  serviceProxy.add({
    match: onPath('/v1/quote'),
    fault: { kind: 'rewrite', transform: rewriteData((data) => Object.assign(data, { outDecimals: 15 })) },
  });
  const { popup, rpc } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
  await expectAccountUntouched(rpc, async () => {
    await fillEthToUsdc(popup, '1');
    await expect(popup.getByTestId('quote-error')).toContainText('has 15 decimals; the chain says 6', {
      timeout: 20_000,
    });
  });
});

test('quote changed under an open review: the review stays frozen, Confirm signs the reviewed quote, a view cannot sign another', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  const { popup, rpc } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
  await formEthToUsdc(popup, '1');
  await popup.getByRole('button', { name: 'Review swap' }).click();
  await trustRouterInReview(popup);
  await expect(popup.getByRole('button', { name: 'Confirm swap' })).toBeEnabled({ timeout: 30_000 });
  const held = (await start(popup)).session;
  const reviewed = held.quote;
  if (!reviewed) throw new Error('no quote under review');
  expect(held.nextRefreshAt).toBeNull(); // no automatic refresh while the review is open

  // The service now answers ~23% less; a refresh happens behind the open review.
  serviceProxy.add({
    match: onPath('/v1/quote'),
    fault: {
      kind: 'rewrite',
      transform: rewriteData((data) => {
        const out = (BigInt(data.outAmount as string) * 77n) / 100n;
        const slippage = scaledSlippage(data.slippage as number);
        data.outAmount = out.toString();
        data.minReceived = minReceivedFor(out, slippage?.low ?? 0n).toString();
      }),
    },
  });
  await sendFromView(popup, { type: 'refreshQuote' });
  await expect
    .poll(async () => (await start(popup)).session.quote?.minReceived, {
      timeout: 20_000,
    })
    .not.toBe(reviewed.minReceived);
  const worse = (await start(popup)).session.quote as never;
  const before = await accountState(rpc);

  // A view path that skips the review, or names a quote nobody reviewed, signs nothing.
  const skip = (await sendFromView(popup, { type: 'startSwap', approvalMode: 'exact' })) as {
    error?: { code: string };
  };
  expect(skip.error?.code).toBe('REVIEW_REQUIRED');
  const other = (await sendFromView(popup, {
    type: 'startSwap',
    approvalMode: 'exact',
    quoteDigest: quoteDigest(worse),
  })) as { error?: { code: string } };
  expect(other.error?.code).toBe('QUOTE_CHANGED');
  expect(await accountState(rpc)).toEqual(before);

  // The open review still shows, and Confirm signs, the quote the user reviewed.
  await popup.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(popup.getByTestId('swap-progress')).toHaveAttribute('data-status', 'confirmed', {
    timeout: 60_000,
  });
  const swap = (await start(popup)).swap;
  expect(swap?.quote.minReceived).toBe(reviewed.minReceived);
  expect(BigInt(swap?.outcome?.received ?? '0')).toBeGreaterThanOrEqual(BigInt(reviewed.minReceived));
});

test('unknown calldata paying another address: refused before signing, the review says why', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  const stealing = encodeFunctionData({
    abi: parseAbi(['function swapTo(address recipient) payable']),
    args: [ATTACKER],
  });
  serviceProxy.add({
    match: onPath('/v1/build'),
    fault: {
      kind: 'rewrite',
      transform: rewriteData((data) => Object.assign(data, { transaction: stealing })),
    },
  });
  const { popup, rpc } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
  await expectAccountUntouched(rpc, async () => {
    await formEthToUsdc(popup, '1');
    await popup.getByRole('button', { name: 'Review swap' }).click();
    await expect(popup.getByRole('alert')).toContainText('Swap call cannot be read', { timeout: 30_000 });
    // Nothing to confirm: the reason sits beside "Get a new quote", where Confirm was.
    await expect(popup.getByRole('button', { name: 'Confirm swap' })).toHaveCount(0);
    await expect(popup.getByRole('button', { name: 'Get a new quote' })).toBeEnabled();
  });
  expect(rpcProxy.hits.some((hit) => hit.rpcMethods.includes('eth_sendRawTransaction'))).toBe(false);
});

test('an RPC inflating fees: the priority fee is capped against the fee history, and the review says so', async ({
  context,
  extensionId,
  rpcProxy,
  serviceProxy,
}) => {
  rpcProxy.add({
    match: onRpc('eth_maxPriorityFeePerGas'),
    fault: {
      kind: 'rewrite',
      transform: (body) => JSON.stringify({ ...JSON.parse(body), result: '0xe8d4a51000' }), // 1,000 gwei
    },
  });
  const { popup, rpc } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
  await formEthToUsdc(popup, '0.5');
  await popup.getByRole('button', { name: 'Review swap' }).click();
  await expect(popup.getByText('Swaplane capped it')).toBeVisible({ timeout: 30_000 });
  // A fresh profile: the router is trusted on first use, inside the review.
  await trustRouterInReview(popup);
  await popup.getByRole('button', { name: 'Confirm swap' }).click();
  const progress = popup.getByTestId('swap-progress');
  await expect(progress).toHaveAttribute('data-status', 'confirmed', { timeout: 60_000 });
  const hash = (await start(popup)).swap?.tx?.hash;
  const tx = (await rpcCall(rpc, 'eth_getTransactionByHash', [hash])) as {
    maxPriorityFeePerGas: string;
  };
  expect(BigInt(tx.maxPriorityFeePerGas)).toBeLessThanOrEqual(10n * 10n ** 9n);
});
