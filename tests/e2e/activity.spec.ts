// Activity after a network reset (a restarted devnet): history the chain no longer has is marked as
// from an earlier run, not shown as current; each row opens into its detail.
import { historySwapFixture } from '../support/swaps';
import { expect, openWalletPopup, seedHistory, test } from './fixtures';

// A swap recorded on an earlier run of the devnet: no chain of this run has its hash.
const GONE = `0x${'5a'.repeat(32)}`;

test('a swap from an earlier run of the devnet is marked as such, and its row opens into its detail', async ({
  context,
  extensionId,
}) => {
  const { popup } = await openWalletPopup(context, extensionId);
  const at = Date.now() - 3 * 60 * 60 * 1000;
  const entry = historySwapFixture({ id: 'earlier-run', hash: GONE, createdAt: at, updatedAt: at });
  await seedHistory(popup, [entry]);
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
