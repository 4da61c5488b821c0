import { PasswordInput } from '@/components/PasswordInput';
import { estimateStrength } from '@/lib/wallet/password';

export interface NewPasswordFieldsProps {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  /** Prefix of the two fields' ids (two forms on one page must not share them). */
  idPrefix?: string;
  /** The second field's label ("Confirm password" unless the screen says what is replaced). */
  confirmLabel?: string;
  /** The pair is the reason the last submit failed (marks both fields invalid). */
  invalid?: boolean;
}

/**
 * A new password typed twice, with its strength read out as it is typed: the one pair that
 * onboarding, "Forgot password?" and Change password all use, so their rules and words never drift.
 */
export function NewPasswordFields({
  password,
  confirmation,
  onPassword,
  onConfirmation,
  idPrefix = '',
  confirmLabel = 'Confirm password',
  invalid,
}: NewPasswordFieldsProps) {
  const strength = password ? estimateStrength(password) : null;
  const ids = {
    password: `${idPrefix}new-password`,
    strength: `${idPrefix}password-strength`,
    confirmation: `${idPrefix}confirm-password`,
  };
  return (
    <>
      <label class="field-label" for={ids.password}>
        New password (at least 8 characters)
      </label>
      <PasswordInput
        id={ids.password}
        autocomplete="new-password"
        value={password}
        describedBy={ids.strength}
        invalid={invalid}
        onInput={onPassword}
      />
      <p id={ids.strength} class="muted" aria-live="polite">
        {strength ? `Strength ${strength.score}/4: ${strength.hint}` : ''}
      </p>
      <label class="field-label" for={ids.confirmation}>
        {confirmLabel}
      </label>
      <PasswordInput
        id={ids.confirmation}
        autocomplete="new-password"
        value={confirmation}
        invalid={invalid}
        onInput={onConfirmation}
      />
    </>
  );
}
