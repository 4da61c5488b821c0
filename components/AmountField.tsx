import type { ComponentChildren } from 'preact';
import { parseAmount } from '@/lib/amounts';
import { amountFontPx } from '@/lib/amounts/fit';

/** The inline error for what was typed, or null; empty input is not an error yet. */
export function amountErrorOf(text: string, decimals: number | null): string | null {
  if (decimals === null || text.trim() === '') return null;
  const parsed = parseAmount(text, decimals);
  return parsed.ok ? null : parsed.error.message;
}

export interface AmountFieldProps {
  value: string;
  error: string | null;
  onInput: (value: string) => void;
  /** Balance line and Max button, under the input. */
  children?: ComponentChildren;
}

export function AmountField({ value, error, onInput, children }: AmountFieldProps) {
  return (
    <div class="amount">
      <label for="amount" class="sr-only">
        Amount
      </label>
      <input
        id="amount"
        inputMode="decimal"
        autocomplete="off"
        placeholder="0.0"
        value={value}
        title={value.length > 16 ? value : undefined}
        style={{ fontSize: `${amountFontPx(value)}px` }}
        aria-invalid={error !== null}
        aria-describedby={error ? 'amount-error' : undefined}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
      {error && (
        <p id="amount-error" class="error" role="alert">
          {error}
        </p>
      )}
      {children && <div class="amount-meta">{children}</div>}
    </div>
  );
}
