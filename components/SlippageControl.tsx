import { useEffect, useState } from 'preact/hooks';
import { checkSlippage } from '@/lib/swap/slippage';

export interface SlippageControlProps {
  /** The slippage in use (percent); only valid values are ever reported through onChange. */
  value: number;
  onChange: (value: number) => void;
}

export const SLIPPAGE_PRESETS = [0.1, 0.5, 1] as const;

export function SlippageControl({ value, onChange }: SlippageControlProps) {
  // What the user typed stays on screen even when it is refused: no silent reset.
  const [text, setText] = useState(String(value));
  // A new value from outside (session restore, a preset) replaces the text; the user's own
  // invalid text does not change `value`, so this never overwrites it.
  useEffect(() => {
    setText((current) => (Number(current) === value && current.trim() !== '' ? current : String(value)));
  }, [value]);

  const typed = text.trim() === '' ? Number.NaN : Number(text);
  const check = checkSlippage(typed);

  const update = (next: string) => {
    setText(next);
    const parsed = next.trim() === '' ? Number.NaN : Number(next);
    if (checkSlippage(parsed).level !== 'error') onChange(parsed);
  };

  return (
    <fieldset class="slippage">
      <legend class="field-label">Slippage tolerance</legend>
      <div class="slippage-row">
        {SLIPPAGE_PRESETS.map((preset) => (
          <button
            key={preset}
            type="button"
            class="preset"
            aria-pressed={check.level !== 'error' && typed === preset}
            onClick={() => update(String(preset))}
          >
            {preset}%
          </button>
        ))}
        <span class="slippage-custom">
          <label class="sr-only" for="slippage-custom">
            Slippage (%)
          </label>
          <input
            id="slippage-custom"
            type="text"
            inputMode="decimal"
            autocomplete="off"
            value={text}
            aria-invalid={check.level === 'error'}
            aria-describedby={check.level === 'ok' ? undefined : 'slippage-message'}
            onInput={(event) => update(event.currentTarget.value)}
          />
          <span aria-hidden="true">%</span>
        </span>
      </div>
      {check.level === 'error' && (
        <p id="slippage-message" class="error" role="alert">
          {check.message} Quotes keep using {value}% until this is fixed.
        </p>
      )}
      {check.level === 'warning' && (
        <p id="slippage-message" class="warning" role="status">
          {check.message}
        </p>
      )}
    </fieldset>
  );
}
