// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AmountField, amountErrorOf } from '@/components/AmountField';
import { parseAmount } from '@/lib/amounts';

afterEach(cleanup);

const messageOf = (text: string, decimals: number) => {
  const parsed = parseAmount(text, decimals);
  if (parsed.ok) throw new Error('expected a parse error');
  return parsed.error.message;
};

describe('amountErrorOf', () => {
  it('is null for empty or valid input, or without a token', () => {
    expect(amountErrorOf('', 6)).toBeNull();
    expect(amountErrorOf('  ', 6)).toBeNull();
    expect(amountErrorOf('1.5', 6)).toBeNull();
    expect(amountErrorOf('1.2.3', null)).toBeNull();
  });

  it('gives parseAmount’s message for bad input', () => {
    expect(amountErrorOf('1.2.3', 6)).toBe(messageOf('1.2.3', 6));
    expect(amountErrorOf('0.1234567', 6)).toBe(messageOf('0.1234567', 6));
    expect(amountErrorOf('-1', 18)).toBe(messageOf('-1', 18));
    expect(amountErrorOf('1e5', 18)).toBe(messageOf('1e5', 18));
  });
});

describe('AmountField', () => {
  it('renders the inline error as an alert tied to the input', () => {
    const error = amountErrorOf('0.1234567', 6);
    render(<AmountField value="0.1234567" error={error} onInput={() => {}} />);
    const input = screen.getByLabelText('Amount');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('amount-error');
    expect(screen.getByRole('alert').textContent).toBe(error);
  });

  it('has no error state for valid input and reports typing', () => {
    const onInput = vi.fn();
    render(
      <AmountField value="" error={null} onInput={onInput}>
        <span>Balance: 1 ETH</span>
      </AmountField>,
    );
    const input = screen.getByLabelText('Amount');
    expect(input.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Balance: 1 ETH')).toBeTruthy();
    fireEvent.input(input, { target: { value: '2' } });
    expect(onInput).toHaveBeenCalledWith('2');
  });
});
