import { createPublicClient, erc20Abi, http } from 'viem';
import { formatAmount } from '@/lib/amounts';
import {
  ACCOUNT,
  DAI,
  ETH,
  expect,
  openWalletPopup,
  pickToken,
  swapAnswer,
  test,
  trustRouterInReview,
  USDC,
} from './fixtures';

type SwapAnswer = {
  result: { status: string; outcome: { received: string | null; gasPaid: string } | null } | null;
};

test('swap ETH -> USDC and USDC -> DAI from the popup; history and balances follow', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { popup, problems, rpcUrls } = await openWalletPopup(context, extensionId);
  const chain = createPublicClient({ transport: http(rpcUrls['1']) });
  const balance = (token: `0x${string}`) =>
    chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [ACCOUNT] });

  // 1. ETH -> USDC: the first swap on this chain asks to trust the router.
  const usdcBefore = await balance(USDC);
  await pickToken(popup, 'from', 'ETH', ETH);
  await pickToken(popup, 'to', 'USDC', USDC);
  await popup.getByLabel('Amount').fill('1');
  await expect(popup.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
  await expect(popup.getByTestId('balance-USDC')).toContainText(formatAmount(usdcBefore, 6));
  await expect(popup.getByTestId('local-badge')).toHaveText('Local');
  await popup.getByRole('button', { name: 'Review swap' }).click();
  await trustRouterInReview(popup);
  await popup.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
  const first = (await swapAnswer(popup)) as SwapAnswer;
  const receivedUsdc = BigInt(first.result?.outcome?.received ?? '0');
  expect(receivedUsdc).toBeGreaterThan(0n);
  expect((await balance(USDC)) - usdcBefore).toBe(receivedUsdc);
  await expect(popup.getByTestId('swap-confirmed')).toContainText(formatAmount(receivedUsdc, 6));
  await expect(popup.getByTestId('balance-USDC')).toContainText(formatAmount(usdcBefore + receivedUsdc, 6));
  await popup.getByRole('button', { name: 'Done' }).click();

  // 2. USDC -> DAI: needs an exact approval first (the router is trusted now).
  const daiBefore = await balance(DAI);
  await pickToken(popup, 'from', 'USDC', USDC);
  await pickToken(popup, 'to', 'DAI', DAI);
  await popup.getByLabel('Amount').fill('100');
  await expect(popup.getByTestId('quote-out')).toContainText('DAI', { timeout: 20_000 });
  await popup.getByRole('button', { name: 'Review swap' }).click();
  await expect(popup.getByLabel('Exact amount')).toBeChecked();
  await popup.getByRole('button', { name: 'Confirm swap' }).click();
  await expect(popup.getByTestId('swap-confirmed')).toBeVisible({ timeout: 30_000 });
  await expect(popup.getByTestId('swap-progress')).toContainText('Approve the token');
  const second = (await swapAnswer(popup)) as SwapAnswer;
  const receivedDai = BigInt(second.result?.outcome?.received ?? '0');
  expect((await balance(DAI)) - daiBefore).toBe(receivedDai);
  expect(await balance(USDC)).toBe(usdcBefore + receivedUsdc - 100_000_000n);
  await popup.getByRole('button', { name: 'Done' }).click();

  // 3. Activity lists both swaps and the approval, confirmed.
  await popup.getByRole('button', { name: 'Activity' }).click();
  const activity = popup.getByTestId('activity');
  await expect(activity.locator('[data-kind="swap"][data-status="confirmed"]')).toHaveCount(2);
  await expect(activity.locator('[data-kind="approval"][data-status="confirmed"]')).toHaveCount(1);
  await expect(activity).toContainText('Swap 1 ETH →');
  await expect(activity).toContainText('Swap 100 USDC →');
  expect(problems).toEqual([]);
});
