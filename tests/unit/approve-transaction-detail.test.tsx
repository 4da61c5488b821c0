// @vitest-environment happy-dom
// The approval window's transaction detail as a person reads it: the coin's balance change is named
// by its symbol alone (the background sends it as the checksummed 0xEeee… address, which is no
// contract), a token's change keeps its address, and the fee and recipient are shown.
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { TransactionDetail } from '@/entrypoints/approve/TransactionDetail';
import { NATIVE_TOKEN_ADDRESS } from '@/lib/api/schema';
import { ApprovalDetailSchema } from '@/lib/dapp/approval';

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

/** A send of 0.01 ETH that (as simulated) also brings 5 USDC in; parsed as the window parses it. */
function detail() {
  const parsed = ApprovalDetailSchema.parse({
    kind: 'transaction',
    account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    chainId: 1,
    to: RECIPIENT,
    value: (10n ** 16n).toString(),
    data: '0x',
    gasLimit: '21000',
    maxFeePerGas: '1250000000',
    maxPriorityFeePerGas: '1000000000',
    maxNetworkFee: (21_000n * 1_250_000_000n).toString(),
    nativeSymbol: 'ETH',
    simulation: 'ok',
    revertReason: null,
    changes: [
      { token: NATIVE_TOKEN_ADDRESS, symbol: 'ETH', decimals: 18, amount: (-(10n ** 16n)).toString() },
      { token: USDC, symbol: 'USDC', decimals: 6, amount: '5000000' },
    ],
    approvals: [],
    call: null,
    recipientKind: 'account',
    nfts: [],
    nftApprovals: [],
    warnings: [],
  });
  if (parsed.kind !== 'transaction') throw new Error('not a transaction');
  return parsed;
}

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

describe('TransactionDetail', () => {
  it("names the coin's change by its symbol, a token's with its address", () => {
    render(<TransactionDetail detail={detail()} />);
    const changes = screen.getByRole('region', { name: 'Balance changes' });
    const rows = [...changes.querySelectorAll('li')].map((row) => row.textContent);
    expect(rows).toEqual(['−0.01 ETH', `+5 USDC (${USDC})`]);
    expect(changes.textContent).not.toMatch(/0xeeee/i);
  });

  it('shows the recipient and the most the network fee can be', () => {
    render(<TransactionDetail detail={detail()} />);
    const transaction = screen.getByRole('region', { name: 'Transaction' });
    expect(transaction.textContent).toContain(RECIPIENT);
    expect(transaction.textContent).toContain('Network feeup to 0.00002625 ETH');
    expect(screen.getByRole('region', { name: 'What is sent' }).textContent).toContain('0.01 ETH');
  });

  it("shows the site's access list: each address and how many storage slots it names", () => {
    const slot = `0x${'01'.padStart(64, '0')}`;
    const accessList = [
      { address: RECIPIENT, storageKeys: [slot, slot.replace(/1$/, '2')] },
      { address: USDC, storageKeys: [slot] },
    ];
    render(<TransactionDetail detail={{ ...detail(), accessList }} />);
    const transaction = screen.getByRole('region', { name: 'Transaction' });
    expect(transaction.textContent).toContain(
      `Access list${RECIPIENT}: 2 storage slots${USDC}: 1 storage slot`,
    );
  });
});
