// Issue 25's attacks on what Swaplane signs, against the built extension and read from the screen as a
// user would: a hostile RPC on revoke, a forged pending swap in storage.local read back after a worker
// restart, and a double click on "Confirm swap". Each ends with nothing signed, or with the fee capped
// and shown before signing, or a specific refusal.
import type { Page } from '@playwright/test';
import { FEE_HISTORY_BLOCKS } from '@/lib/rpc/fees';
import { lyingFeeRules } from '../support/fault-proxy';
import {
  ACCOUNT,
  DAI,
  ETH,
  expect,
  expectNewWorker,
  markWorker,
  openProxiedPopup,
  openWalletPopup,
  pickToken,
  proxiedTest,
  rpcCall,
  stopWorkerFromBlankTab,
  test,
  trustRouterInReview,
  USDC,
  WORKER_STOP_RETRIES,
} from './fixtures';

test.describe.configure({ retries: WORKER_STOP_RETRIES });

const GWEI = 10n ** 9n;
const hex = (value: bigint) => `0x${value.toString(16)}`;

async function nonceOf(rpc: string, tag: 'latest' | 'pending' = 'latest'): Promise<bigint> {
  return BigInt((await rpcCall(rpc, 'eth_getTransactionCount', [ACCOUNT, tag])) as string);
}

/** ETH -> USDC of `amount` in the form, reviewed: the review's Confirm button, enabled. */
async function reviewEthToUsdc(popup: Page, amount: string) {
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill(amount);
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  // A fresh profile trusts the router on first use: a tick inside the review.
  await trustRouterInReview(popup);
  const confirm = popup
    .getByRole('dialog', { name: 'Review swap' })
    .getByRole('button', { name: 'Confirm swap' });
  await expect(confirm).toBeEnabled({ timeout: 20_000 });
  return confirm;
}

test('a double click on "Confirm swap" runs one swap: one transaction mined, one history entry, one result', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { popup, rpcUrls } = await openWalletPopup(context, extensionId);
  const rpc = rpcUrls['1'] ?? '';
  const confirm = await reviewEthToUsdc(popup, '0.02');
  const nonceBefore = await nonceOf(rpc);
  await confirm.dblclick();
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 60_000 });
  await expect(popup.getByTestId('swap-confirmed')).toHaveCount(1);
  await expect(popup.getByText('Swap confirmed.')).toHaveCount(1);
  // A second swap would have been signed by now (the first is mined): none was.
  expect(await nonceOf(rpc, 'pending')).toBe(nonceBefore + 1n);
  await popup.getByRole('button', { name: 'Done' }).click();
  await popup.getByRole('button', { name: 'Activity' }).click();
  await expect(popup.getByTestId('activity').locator('[data-kind="swap"]')).toHaveCount(1);
});

test('a forged pending swap read back after a worker restart: Speed up and Cancel refuse, naming why, and sign nothing', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(150_000);
  const { popup, popupUrl, rpcUrls } = await openWalletPopup(context, extensionId);
  const rpc = rpcUrls['1'] ?? '';
  try {
    const confirm = await reviewEthToUsdc(popup, '0.02');
    await rpcCall(rpc, 'evm_setAutomine', [false]); // the network holds the swap pending
    await confirm.click();
    await expect(popup.getByTestId('pending-actions')).toContainText('Pending', { timeout: 20_000 });

    // An outside writer raises the stored fee fields (what a Cancel would inherit) and drops the seal.
    await popup.evaluate(async () => {
      type Area = {
        get(key: string): Promise<Record<string, { v: number; data: Record<string, unknown>[] }>>;
        set(items: Record<string, unknown>): Promise<void>;
      };
      const local = (globalThis as unknown as { chrome: { storage: { local: Area } } }).chrome.storage.local;
      const { pendingSwaps } = await local.get('pendingSwaps');
      const forged = (pendingSwaps?.data ?? []).map(({ seal: _seal, ...swap }) => ({
        ...swap,
        tx: { ...(swap.tx as object), maxFeePerGas: '1000000000000000', gasLimit: '5000000' },
      }));
      await local.set({ pendingSwaps: { v: pendingSwaps?.v ?? 1, data: forged } });
    });
    const pendingBefore = await nonceOf(rpc, 'pending');
    await markWorker(context);
    await stopWorkerFromBlankTab(context, extensionId, popup);
    const reopened = await context.newPage();
    await reopened.goto(popupUrl);
    await expectNewWorker(context);

    const pending = reopened.getByTestId('pending-actions');
    await expect(pending).toContainText('Pending', { timeout: 20_000 });
    for (const [i, action] of ['Speed up', 'Cancel transaction'].entries()) {
      await pending.getByRole('button', { name: action }).click();
      const refusal = pending.getByRole('alert').nth(i);
      await expect(refusal).toContainText('was not recorded by Swaplane', { timeout: 20_000 });
      await expect(refusal).toContainText('Nothing was signed');
      await expect(pending.getByRole('button', { name: /^Confirm / })).toHaveCount(0);
    }
    // Nothing new reached the network: only the swap itself waits at its nonce.
    expect(await nonceOf(rpc, 'pending')).toBe(pendingBefore);
  } finally {
    await rpcCall(rpc, 'evm_setAutomine', [true]);
  }
});

proxiedTest(
  'a hostile RPC on revoke: the review shows a fee within the ceiling, and the mined revoke pays no more',
  async ({ context, extensionId, rpcProxy, serviceProxy }) => {
    proxiedTest.setTimeout(150_000);
    const { popup, rpc } = await openProxiedPopup(context, extensionId, { rpcProxy, serviceProxy });
    // An unlimited USDC approval granted by a swap, so that Activity offers to revoke it.
    await pickToken(popup, 'from', 'USDC', USDC);
    await pickToken(popup, 'to', 'DAI', DAI);
    await popup.getByLabel('Amount').fill('10');
    await expect(popup.getByTestId('quote-out')).toContainText('DAI', { timeout: 20_000 });
    await popup.getByRole('button', { name: 'Review swap' }).click();
    const sheet = popup.getByRole('dialog', { name: 'Review swap' });
    await sheet.getByLabel('Unlimited').check();
    await trustRouterInReview(popup);
    await sheet.getByRole('button', { name: 'Confirm swap' }).click();
    await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
    await popup.getByRole('button', { name: 'Done' }).click();

    // From here the RPC lies: 1,000 gwei priority, a fee history that backs it, 1,812,563 gas.
    for (const rule of lyingFeeRules(1_000n * GWEI, 1_812_563n)) rpcProxy.add(rule);
    await popup.getByRole('button', { name: 'Activity' }).click();
    const row = popup.getByRole('region', { name: 'Token approvals' }).locator(`li[data-token="${USDC}"]`);
    await expect(row).toContainText('may spend: unlimited', { timeout: 20_000 });
    await row.getByRole('button', { name: 'Revoke USDC' }).click();
    const review = row.getByRole('region', { name: 'Review: Revoke USDC' });
    const fee = review.getByTestId('fee-review-fee');
    await expect(fee).toContainText(/Network fee: about .* ETH, at most .* ETH/, { timeout: 20_000 });
    await expect(review.getByText('Swaplane lowered the fee to its cap')).toBeVisible();
    const shownMax = Number(/at most ([0-9.]+) ETH/.exec((await fee.textContent()) ?? '')?.[1]);
    const nonceBefore = await nonceOf(rpc);
    await review.getByRole('button', { name: 'Confirm revoke' }).click();
    await expect(row.getByRole('status')).toHaveText('Revoked.', { timeout: 30_000 });
    expect(await nonceOf(rpc)).toBe(nonceBefore + 1n);
    const block = (await rpcCall(rpc, 'eth_getBlockByNumber', ['latest', true])) as {
      transactions: { from: string; gas: string; maxPriorityFeePerGas: string; maxFeePerGas: string }[];
    };
    const revoke = block.transactions.find((tx) => tx.from.toLowerCase() === ACCOUNT.toLowerCase());
    if (!revoke) throw new Error('the revoke was not mined in the latest block');
    // Ethereum's default ceiling: 50 gwei priority, 500 gwei max fee; a revoke gets at most 120,000 gas.
    expect(BigInt(revoke.maxPriorityFeePerGas)).toBeLessThanOrEqual(50n * GWEI);
    expect(BigInt(revoke.maxFeePerGas)).toBeLessThanOrEqual(500n * GWEI);
    expect(BigInt(revoke.gas)).toBeLessThanOrEqual(120_000n);
    // What it may pay on chain is what the review showed as "at most" (up to the display's rounding).
    const maxCostEth = Number(BigInt(revoke.gas) * BigInt(revoke.maxFeePerGas)) / 1e18;
    expect(maxCostEth).toBeLessThanOrEqual(shownMax * 1.01);
    // The revoke paid a priority fee at the ceiling: empty blocks push it out of the fee history the
    // next tests on this devnet estimate from (else their small swaps read a fee over 10% and warn).
    await rpcCall(rpc, 'anvil_mine', [hex(BigInt(FEE_HISTORY_BLOCKS + 1))]);
  },
);
