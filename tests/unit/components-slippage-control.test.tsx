// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SlippageControl } from '@/components/SlippageControl';

function Harness({ initial, spy }: { initial: number; spy: (value: number) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <SlippageControl
      value={value}
      onChange={(next) => {
        spy(next);
        setValue(next);
      }}
    />
  );
}

function setup(initial = 0.5) {
  const spy = vi.fn();
  render(<Harness initial={initial} spy={spy} />);
  return { spy, input: screen.getByLabelText('Slippage (%)') as HTMLInputElement };
}

afterEach(cleanup);

describe('SlippageControl', () => {
  it('shows the value and marks the matching preset', () => {
    const { input } = setup();
    expect(input.value).toBe('0.5');
    expect(screen.getByRole('button', { name: '0.5%' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: '1%' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('applies a preset', () => {
    const { spy, input } = setup();
    fireEvent.click(screen.getByRole('button', { name: '1%' }));
    expect(spy).toHaveBeenLastCalledWith(1);
    expect(input.value).toBe('1');
    expect(screen.getByRole('button', { name: '1%' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('accepts a custom value', () => {
    const { spy } = setup();
    fireEvent.input(screen.getByLabelText('Slippage (%)'), { target: { value: '2.5' } });
    expect(spy).toHaveBeenLastCalledWith(2.5);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('warns about high and very low slippage but keeps the value', () => {
    const { spy, input } = setup();
    fireEvent.input(input, { target: { value: '7' } });
    expect(spy).toHaveBeenLastCalledWith(7);
    expect(screen.getByRole('status').textContent).toContain('High slippage');
    fireEvent.input(input, { target: { value: '0.05' } });
    expect(spy).toHaveBeenLastCalledWith(0.05);
    expect(screen.getByRole('status').textContent).toContain('Very low slippage');
  });

  it('refuses more than 50% with an alert, without resetting what was typed', () => {
    const { spy, input } = setup();
    fireEvent.input(input, { target: { value: '60' } });
    expect(spy).not.toHaveBeenCalled();
    expect(input.value).toBe('60');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('above 50%');
    expect(alert.textContent).toContain('Quotes keep using 0.5%');
    expect(screen.getByRole('button', { name: '0.5%' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('flags text that is not a number, and empty input', () => {
    const { spy, input } = setup();
    fireEvent.input(input, { target: { value: 'abc' } });
    expect(screen.getByRole('alert').textContent).toContain('Enter slippage as a number');
    fireEvent.input(input, { target: { value: '' } });
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(input.value).toBe('');
    expect(spy).not.toHaveBeenCalled();
  });

  it('follows a new value from outside', () => {
    const spy = vi.fn();
    const { rerender } = render(<SlippageControl value={0.5} onChange={spy} />);
    rerender(<SlippageControl value={3} onChange={spy} />);
    expect((screen.getByLabelText('Slippage (%)') as HTMLInputElement).value).toBe('3');
  });
});
