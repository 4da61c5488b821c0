// The dapp's transactions in the Firefox smoke, each reviewed in the approval window and mined on
// the devnet: a send of ETH, and an ERC-20 transfer whose simulated token change must read (and
// fit) in a popup-sized window.
import type { Browser, Page } from 'puppeteer-core';
import { createPublicClient, encodeFunctionData, erc20Abi, type Hex, http } from 'viem';
import { USDC } from '../support/addresses.ts';
import { askAndApprove } from './dapp-requests.ts';
import { expectPopupFits, expectRegionTextFits, expectWindowFits } from './layout.ts';
import { approval, STEP_TIMEOUT_MS, waitForRegion, waitForText } from './screen.ts';

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SENT_WEI = 10n ** 16n; // 0.01 ETH
const SENT_USDC = 12_500_000n; // 12.5 USDC (6 decimals)

/** A send of 0.01 ETH reviewed and confirmed; its hash mined on the devnet with what was shown. */
export async function sendFromDapp(browser: Browser, page: Page, account: string, rpcUrl: string) {
  const sent = await askAndApprove(
    browser,
    page,
    {
      name: 'send',
      method: 'eth_sendTransaction',
      params: [{ from: account, to: RECIPIENT, value: `0x${SENT_WEI.toString(16)}` }],
    },
    async (prompt) => {
      await waitForText(prompt, approval.transactionHeading);
      await waitForRegion(prompt, 'What is sent', '0.01 ETH');
      await waitForRegion(prompt, 'Transaction', RECIPIENT);
      await waitForRegion(prompt, 'Transaction', /Network fee\s*up to 0\.\d+ ETH/);
      // The change comes from the node's simulation (eth_simulateV1 tracing the transfer), not
      // from the value alone: the window says "Not simulated" when it only has the value.
      const changes = await waitForRegion(prompt, 'Balance changes', '−0.01 ETH');
      if (changes.includes('Not simulated')) throw new Error(`the send was not simulated: ${changes}`);
      await expectWindowFits(prompt, 'approval window (transaction)', approval.confirmButton);
      // The longest window, also at the popup's sizes: a narrower window must not cut it off.
      await expectPopupFits(prompt, 'approval window (transaction)', approval.confirmButton);
      await approval.confirm(prompt);
    },
  );
  const hash = (sent as { result?: Hex }).result;
  if (!hash || !/^0x[0-9a-f]{64}$/.test(hash))
    throw new Error(`eth_sendTransaction answered ${JSON.stringify(sent)}`);
  const chain = createPublicClient({ transport: http(rpcUrl) });
  const receipt = await chain.waitForTransactionReceipt({
    hash,
    timeout: STEP_TIMEOUT_MS,
    pollingInterval: 250,
  });
  const tx = await chain.getTransaction({ hash });
  if (
    receipt.status !== 'success' ||
    tx.from.toLowerCase() !== account.toLowerCase() ||
    tx.to?.toLowerCase() !== RECIPIENT.toLowerCase() ||
    tx.value !== SENT_WEI
  )
    throw new Error(
      `the mined transaction is not what was shown: ${receipt.status} ${tx.from} -> ${tx.to} ${tx.value}`,
    );
}

/**
 * A dapp's ERC-20 transfer (12.5 of the devnet's USDC, which the smoke's swaps bought): the window
 * names the call, shows the simulated "−12.5 USDC" with the token's checksummed address, and that text stays
 * inside a 360px window at both popup heights (a 42-character address must break, not run off).
 * Confirmed, the recipient's balance grows by exactly that.
 */
export async function sendTokenFromDapp(browser: Browser, page: Page, account: string, rpcUrl: string) {
  const chain = createPublicClient({ transport: http(rpcUrl) });
  const recipientBalance = () =>
    chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [RECIPIENT] });
  const before = await recipientBalance();
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [RECIPIENT, SENT_USDC] });
  const sent = await askAndApprove(
    browser,
    page,
    { name: 'sendToken', method: 'eth_sendTransaction', params: [{ from: account, to: USDC, data }] },
    async (prompt) => {
      await waitForText(prompt, approval.transactionHeading);
      await waitForRegion(prompt, 'What is sent', 'transfer');
      const changes = await waitForRegion(prompt, 'Balance changes', `−12.5 USDC (${USDC})`);
      if (changes.includes('Not simulated')) throw new Error(`the transfer was not simulated: ${changes}`);
      await expectRegionTextFits(prompt, 'Balance changes');
      await expectPopupFits(prompt, 'approval window (token transfer)', approval.confirmButton);
      await approval.confirm(prompt);
    },
  );
  const hash = (sent as { result?: Hex }).result;
  if (!hash || !/^0x[0-9a-f]{64}$/.test(hash))
    throw new Error(`eth_sendTransaction (token) answered ${JSON.stringify(sent)}`);
  const receipt = await chain.waitForTransactionReceipt({
    hash,
    timeout: STEP_TIMEOUT_MS,
    pollingInterval: 250,
  });
  const received = (await recipientBalance()) - before;
  if (receipt.status !== 'success' || received !== SENT_USDC)
    throw new Error(
      `the mined transfer is not what was shown: ${receipt.status}, the recipient got ${received}`,
    );
}
