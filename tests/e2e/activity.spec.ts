// Activity after a network reset (a restarted devnet): history the chain no longer has is marked as
// from an earlier run, not shown as current; each row opens into its detail.
import { expect, openWalletPopup, test } from './fixtures';

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
// A swap recorded on an earlier run of the devnet: no chain of this run has its hash.
const GONE = `0x${'5a'.repeat(32)}`;

test('a swap from an earlier run of the devnet is marked as such, and its row opens into its detail', async ({
  context,
  extensionId,
}) => {
  const { popup } = await openWalletPopup(context, extensionId);
  await popup.evaluate(
    async ({ account, eth, usdc, hash }) => {
      type Area = { set(items: Record<string, unknown>): Promise<void> };
      const local = (globalThis as unknown as { chrome: { storage: { local: Area } } }).chrome.storage.local;
      const at = Date.now() - 3 * 60 * 60 * 1000;
      await local.set({
        swapHistory: {
          v: 1,
          data: [
            {
              kind: 'swap',
              id: 'earlier-run',
              chainId: 1,
              account,
              status: 'confirmed',
              hash,
              explorerUrl: `https://etherscan.io/tx/${hash}`,
              gasPaid: '210000000000000',
              failure: null,
              createdAt: at,
              updatedAt: at,
              inToken: eth,
              outToken: usdc,
              inDecimals: 18,
              outDecimals: 6,
              inAmount: '1000000000000000000',
              quotedOut: '2990000000',
              minReceived: '2975050000',
              received: '2991500000',
            },
          ],
        },
      });
    },
    { account: ACCOUNT, eth: ETH, usdc: USDC, hash: GONE },
  );
  await popup.reload();
  await popup.getByRole('button', { name: 'Activity' }).click();
  await expect(popup.getByTestId('earlier-chain-note')).toContainText('earlier run of a network');
  const row = popup.getByTestId('activity').locator('[data-kind="swap"]');
  await expect(row).toContainText('Earlier run of this network · Ethereum · 3 h ago');
  await row.getByText(/^Swap 1 ETH →/).click();
  const details = row.getByLabel('Transaction details');
  await expect(details).toContainText('Minimum received');
  await expect(details).toContainText('Network fee paid0.00021 ETH');
  await expect(row).toContainText(GONE);
  // The devnet's hashes mean nothing to a public explorer: no link.
  await expect(row.getByRole('link', { name: 'View on explorer' })).toHaveCount(0);
  await expect(row).toContainText('No public explorer for this network.');
});
