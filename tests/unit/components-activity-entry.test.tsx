// @vitest-environment happy-dom
// Activity rows open into the detail a person checks after a swap.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActivityEntry, detailRows } from '@/components/ActivityEntry';
import type { Token } from '@/lib/api/schema';
import * as TOKENS from '../support/addresses';
import { historySwapFixture } from '../support/swaps';

const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const USDC = TOKENS.lowercase.USDC;
const HASH = historySwapFixture().hash;
const NOW = 1_700_000_000_000;
const SYMBOLS: Record<string, string> = { [ETH]: 'ETH', [USDC]: 'USDC' };
const tokenOf = (_chainId: number, address: string) =>
  SYMBOLS[address.toLowerCase()] ? ({ symbol: SYMBOLS[address.toLowerCase()] } as Token) : undefined;

const swap = historySwapFixture({ createdAt: NOW - 5 * 60_000, updatedAt: NOW });

afterEach(cleanup);

describe('ActivityEntry', () => {
  it('summarises the swap on one line and opens into amounts, the fee, the hash and the explorer link', async () => {
    const copy = vi.fn(async () => undefined);
    render(<ActivityEntry entry={swap} tokenOf={tokenOf} localChain={false} now={NOW} copy={copy} />);
    const summary = screen.getByText('Swap 1 ETH → 2,991.5 USDC');
    expect(summary.closest('summary')?.textContent).toContain('Confirmed · Ethereum · 5 min ago');
    const list = screen.getByLabelText('Transaction details');
    expect(list.textContent).toContain('You paid1 ETH');
    expect(list.textContent).toContain('Quoted2,990 USDC');
    expect(list.textContent).toContain('Minimum received2,975.05 USDC');
    expect(list.textContent).toContain('Received2,991.5 USDC (+1.5 vs quote)');
    expect(list.textContent).toContain('Network fee paid0.00021 ETH');
    expect(screen.getByRole('link', { name: 'View on explorer', hidden: true }).getAttribute('href')).toBe(
      swap.explorerUrl,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Copy hash', hidden: true }));
    expect(copy).toHaveBeenCalledWith(HASH);
    await waitFor(() =>
      expect(screen.getByRole('status', { hidden: true }).textContent).toBe('Hash copied.'),
    );
  });

  it('links no explorer for a local devnet, and says a reset network no longer has the transaction', () => {
    render(<ActivityEntry entry={{ ...swap, earlierChain: true }} tokenOf={tokenOf} localChain now={NOW} />);
    expect(screen.queryByRole('link', { hidden: true })).toBeNull();
    expect(document.body.textContent).toContain('No public explorer for this network.');
    expect(document.body.textContent).toContain('Earlier run of this network · Ethereum');
    expect(document.body.textContent).toContain('the transaction is not on it now');
  });

  it('shows a shortfall against the quote with a minus sign', () => {
    render(
      <ActivityEntry
        entry={{ ...swap, received: '2980000000' }}
        tokenOf={tokenOf}
        localChain={false}
        now={NOW}
      />,
    );
    expect(screen.getByLabelText('Transaction details').textContent).toContain('(−10 vs quote)');
  });
});

describe('detailRows › an approval', () => {
  const approval = {
    ...historySwapFixture(),
    kind: 'approval' as const,
    swapId: 'swap-1',
    token: USDC,
    spender: USDC,
    amount: '10000000',
    unlimited: false,
    reset: false,
  };
  it('shows the allowance in the token’s units when its decimals are known, else says they are raw', () => {
    const symbol = () => 'USDC';
    expect(Object.fromEntries(detailRows(approval, symbol, () => 6)).Allowance).toBe('10');
    expect(Object.fromEntries(detailRows(approval, symbol)).Allowance).toBe('10,000,000 (smallest units)');
  });
});
