// Issue 16, after the send: a swap the network has not mined yet can be sped up (the same swap with
// higher fees) or cancelled (a 0-value transfer to yourself at the same nonce). The devnet holds the
// transaction pending with automine off, as a congested network would.
import { encodeFunctionData, parseAbi } from 'viem';
import {
  expect,
  openWalletPopup,
  pickToken,
  rpcCall,
  swapAnswer,
  test,
  trustRouterInReview,
} from './fixtures';

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

async function usdcOf(rpc: string): Promise<bigint> {
  const data = encodeFunctionData({
    abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
    args: [ACCOUNT],
  });
  return BigInt((await rpcCall(rpc, 'eth_call', [{ to: USDC, data }, 'latest'])) as string);
}

test('a pending swap is sped up and confirms; the next one is cancelled and swaps nothing', async ({
  context,
  extensionId,
}, testInfo) => {
  test.setTimeout(150_000);
  const { popup, rpcUrls } = await openWalletPopup(context, extensionId);
  const rpc = rpcUrls['1'] ?? '';
  await popup.setViewportSize({ width: 360, height: 600 });
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);

  const reviewAndSend = async (consent: boolean) => {
    await popup.getByLabel('Amount').fill('0.05');
    await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
    await popup.getByRole('button', { name: 'Review swap' }).click();
    const confirm = popup
      .getByRole('dialog', { name: 'Review swap' })
      .getByRole('button', { name: 'Confirm swap' });
    if (consent) await trustRouterInReview(popup);
    await expect(confirm).toBeEnabled({ timeout: 20_000 });
    await rpcCall(rpc, 'evm_setAutomine', [false]); // from here the network does not mine
    await confirm.click();
    const pending = popup.getByTestId('pending-actions');
    await expect(pending).toContainText('Pending', { timeout: 20_000 });
    return pending;
  };

  try {
    const pending = await reviewAndSend(true);
    const original = ((await swapAnswer(popup)) as { result: { tx: { hash: string } } }).result.tx.hash;
    await pending.getByRole('button', { name: 'Speed up' }).click();
    // The new fee is on screen before the replacement is signed.
    await expect(pending.getByTestId('fee-review-fee')).toContainText('Network fee: about');
    await pending.getByRole('button', { name: 'Confirm speed up' }).click();
    await expect(pending).toContainText('Sped up');
    await testInfo.attach('pending-sped-up', { body: await popup.screenshot(), contentType: 'image/png' });
    await rpcCall(rpc, 'evm_setAutomine', [true]);
    await rpcCall(rpc, 'evm_mine', []);
    await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
    const sped = (await swapAnswer(popup)) as { result: { tx: { hash: string }; replacements: unknown[] } };
    expect(sped.result.replacements).toHaveLength(1);
    expect(sped.result.tx.hash).not.toBe(original);
    await popup.getByRole('button', { name: 'Done' }).click();

    const usdcBefore = await usdcOf(rpc);
    const second = await reviewAndSend(false);
    await second.getByRole('button', { name: 'Cancel transaction' }).click();
    await expect(second.getByTestId('fee-review-fee')).toContainText('Network fee: about');
    await second.getByRole('button', { name: 'Confirm cancel' }).click();
    await expect(second).toContainText('Cancel sent');
    await rpcCall(rpc, 'evm_setAutomine', [true]);
    await rpcCall(rpc, 'evm_mine', []);
    const failed = popup.getByTestId('swap-failed');
    await expect(failed).toContainText('Swap cancelled', { timeout: 30_000 });
    await expect(failed).toContainText('no tokens were swapped');
    expect(await usdcOf(rpc)).toBe(usdcBefore);
    await failed.getByRole('button', { name: 'Back to the quote' }).click();
    await popup.getByRole('button', { name: 'Activity' }).click();
    const rows = popup.getByTestId('activity').locator('[data-kind="swap"]');
    await expect(rows.first()).toContainText('Cancelled');
    await expect(rows.nth(1)).toContainText('Confirmed');

    // The picker now offers the tokens just swapped, and the ones held, before the full list.
    await popup.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Swap' }).click();
    await popup.getByTestId('from-picker').click();
    await expect(popup.getByRole('group', { name: 'Recent From tokens' })).toContainText('USDC', {
      timeout: 20_000,
    });
    const held = popup.getByRole('list', { name: 'Your From tokens' });
    await expect(held).toContainText('ETH');
    await expect(held).toContainText('USDC');
    await held.locator(`[data-held-token="${USDC}"]`).click();
    await expect(popup.getByTestId('from-picker')).toContainText('USDC');
  } finally {
    await rpcCall(rpc, 'evm_setAutomine', [true]);
  }
});
