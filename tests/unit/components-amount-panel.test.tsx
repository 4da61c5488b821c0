// @vitest-environment happy-dom
// The swap screen's amount panel: a balance that could not be read is never shown as a figure (nor as
// "…" forever); the reason the background named (e.g. an RPC of another chain) is said instead.
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { AmountPanel, BalanceNotice } from '@/components/AmountPanel';
import { USDC_TOKEN } from '../support/tokens';

afterEach(cleanup);

const WRONG_CHAIN =
  'The RPC at 127.0.0.1:8545 is for Base (chain 8453), not Ethereum (chain 1). Fix the RPC URL in Settings › Advanced › RPC URLs.';

function panel(balance: bigint | undefined, balanceError: string | null) {
  return render(
    <AmountPanel
      label="You pay"
      token={USDC_TOKEN}
      balance={balance}
      balanceError={balanceError}
      usd=""
      usdTestId="usd-in"
    >
      <span>amount</span>
    </AmountPanel>,
  );
}

describe('AmountPanel balance', () => {
  it('shows the balance read, and "…" while it is being read', () => {
    panel(1_500_000n, null);
    expect(screen.getByTestId('balance-USDC').textContent).toBe('Balance: 1.5 USDC');
    cleanup();
    panel(undefined, null);
    expect(screen.getByTestId('balance-USDC').textContent).toBe('Balance: …');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a balance that could not be read: no figure in the panel, and its cause in an alert under the form', () => {
    panel(undefined, WRONG_CHAIN);
    expect(screen.getByTestId('balance-USDC').textContent).toBe('Balance: not read');
    // Inside the panel, lines of cause would push the amount and the token button down.
    expect(screen.queryByRole('alert')).toBeNull();
    cleanup();
    render(<BalanceNotice token={USDC_TOKEN} error={WRONG_CHAIN} />);
    expect(screen.getByRole('alert').textContent).toBe(`Balance could not be read: ${WRONG_CHAIN}`);
    cleanup();
    render(<BalanceNotice token={USDC_TOKEN} error={null} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
