import { useEffect, useRef, useState } from 'preact/hooks';

export interface PasswordInputProps {
  id: string;
  value: string;
  onInput: (value: string) => void;
  autocomplete: 'new-password' | 'current-password';
  /** Focus the field when it appears (the one thing to type on the screen). */
  focusOnMount?: boolean;
  invalid?: boolean;
  describedBy?: string | undefined;
}

/** A password field with a Show/Hide toggle (the label stays the field's own). */
export function PasswordInput(props: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (props.focusOnMount) input.current?.focus();
  }, []);
  // The type is set on the element: toggling keeps the same input (and its focus and caret).
  useEffect(() => {
    if (input.current) input.current.type = shown ? 'text' : 'password';
  }, [shown]);
  return (
    <span class="password-input">
      <input
        ref={input}
        id={props.id}
        type="password"
        autocomplete={props.autocomplete}
        spellcheck={false}
        value={props.value}
        aria-invalid={props.invalid ?? undefined}
        aria-describedby={props.describedBy}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      <button
        type="button"
        class="link"
        aria-pressed={shown}
        aria-controls={props.id}
        onClick={() => setShown(!shown)}
      >
        {shown ? 'Hide' : 'Show'}
      </button>
    </span>
  );
}
