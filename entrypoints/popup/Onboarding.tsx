import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { NewPasswordFields } from '@/components/NewPasswordFields';
import { PhraseBox } from '@/components/PhraseBox';
import { callBackground } from '@/lib/messaging/client';
import { passwordProblems } from '@/lib/wallet/password';
import type { WalletState } from '@/lib/wallet/state';
import { useAttempt } from './hooks/useAttempt';

type Step =
  | { kind: 'choose' }
  | { kind: 'backup'; mnemonic: string; positions: number[] }
  | { kind: 'confirm'; positions: number[]; mnemonic: string }
  | { kind: 'import' };

/** What every step shares: the password pair, the pending request and its error line. */
interface StepProps {
  passwords: {
    password: string;
    confirmation: string;
    onPassword: (v: string) => void;
    onConfirmation: (v: string) => void;
  };
  busy: boolean;
  attempt: ReturnType<typeof useAttempt>['attempt'];
  errorLine: ComponentChildren;
  setStep: (step: Step) => void;
}

function ChooseStep({ busy, attempt, errorLine, setStep }: StepProps) {
  return (
    <section class="stack">
      <h2>Welcome</h2>
      <p>Create a new wallet, or import one you already have.</p>
      <button
        type="button"
        class="primary"
        disabled={busy}
        onClick={() =>
          attempt(async () => {
            const created = await callBackground({ type: 'walletStartCreate', words: 12 });
            setStep({ kind: 'backup', mnemonic: created.mnemonic, positions: created.confirmPositions });
          })
        }
      >
        Create a new wallet
      </button>
      <button type="button" onClick={() => setStep({ kind: 'import' })}>
        Import a recovery phrase or private key
      </button>
      {errorLine}
    </section>
  );
}

function BackupStep({
  step,
  setStep,
}: {
  step: Extract<Step, { kind: 'backup' }>;
  setStep: (step: Step) => void;
}) {
  return (
    <section class="stack">
      <h2>Your recovery phrase</h2>
      <p>Write these 12 words down in order and keep them offline. Anyone with them controls your funds.</p>
      <PhraseBox
        mnemonic={step.mnemonic}
        clearLater={(digest) => callBackground({ type: 'clipboardClearLater', digest })}
      />
      <button
        type="button"
        class="primary"
        onClick={() => setStep({ kind: 'confirm', positions: step.positions, mnemonic: step.mnemonic })}
      >
        I wrote it down
      </button>
      <button type="button" onClick={() => setStep({ kind: 'choose' })}>
        Back
      </button>
    </section>
  );
}

function ConfirmStep({
  step,
  answers,
  setAnswers,
  onDone,
  ...shared
}: StepProps & {
  step: Extract<Step, { kind: 'confirm' }>;
  answers: Record<number, string>;
  setAnswers: (answers: Record<number, string>) => void;
  onDone: (state: WalletState) => void;
}) {
  const { passwords, busy, attempt, errorLine, setStep } = shared;
  return (
    <form
      class="stack"
      onSubmit={(event) => {
        event.preventDefault();
        void attempt(async () => {
          onDone(
            await callBackground({
              type: 'walletConfirmCreate',
              password: passwords.password,
              confirmation: passwords.confirmation,
              answers: step.positions.map((position) => ({ position, word: answers[position] ?? '' })),
            }),
          );
        });
      }}
    >
      <h2>Confirm your backup</h2>
      {step.positions.map((position) => (
        <div key={position}>
          <label class="field-label" for={`word-${position}`}>
            Word #{position}
          </label>
          <input
            id={`word-${position}`}
            autocomplete="off"
            spellcheck={false}
            value={answers[position] ?? ''}
            onInput={(event) => setAnswers({ ...answers, [position]: event.currentTarget.value })}
          />
        </div>
      ))}
      <NewPasswordFields {...passwords} />
      {errorLine}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create wallet'}
      </button>
      <button
        type="button"
        onClick={() => setStep({ kind: 'backup', mnemonic: step.mnemonic, positions: step.positions })}
      >
        Back
      </button>
    </form>
  );
}

function ImportStep({
  importKind,
  setImportKind,
  secret,
  setSecret,
  onDone,
  ...shared
}: StepProps & {
  importKind: 'mnemonic' | 'privateKey';
  setImportKind: (kind: 'mnemonic' | 'privateKey') => void;
  secret: string;
  setSecret: (secret: string) => void;
  onDone: (state: WalletState) => void;
}) {
  const { passwords, busy, attempt, errorLine, setStep } = shared;
  const { password, confirmation } = passwords;
  return (
    <form
      class="stack"
      onSubmit={(event) => {
        event.preventDefault();
        void attempt(async () => {
          onDone(
            await callBackground({ type: 'walletImport', kind: importKind, secret, password, confirmation }),
          );
        });
      }}
    >
      <h2>Import a wallet</h2>
      <fieldset class="choice">
        <legend class="field-label">What do you have?</legend>
        <label>
          <input
            type="radio"
            name="import-kind"
            checked={importKind === 'mnemonic'}
            onChange={() => setImportKind('mnemonic')}
          />{' '}
          Recovery phrase
        </label>
        <label>
          <input
            type="radio"
            name="import-kind"
            checked={importKind === 'privateKey'}
            onChange={() => setImportKind('privateKey')}
          />{' '}
          Private key
        </label>
      </fieldset>
      <label class="field-label" for="import-secret">
        {importKind === 'mnemonic' ? 'Recovery phrase (12 or 24 words)' : 'Private key (64 hex characters)'}
      </label>
      <textarea
        id="import-secret"
        rows={3}
        autocomplete="off"
        spellcheck={false}
        value={secret}
        onInput={(event) => setSecret(event.currentTarget.value)}
      />
      <NewPasswordFields {...passwords} />
      {errorLine}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Importing…' : 'Import'}
      </button>
      <button type="button" onClick={() => setStep({ kind: 'choose' })}>
        Back
      </button>
    </form>
  );
}

/** Create (choose, back up, confirm) or import a wallet; the password pair is kept across steps. */
export function Onboarding({ onDone }: { onDone: (state: WalletState) => void }) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [answers, setAnswers] = useState<Record<number, string>>({});
  const [importKind, setImportKind] = useState<'mnemonic' | 'privateKey'>('mnemonic');
  const [secret, setSecret] = useState('');
  const { busy, error, setError, attempt: send } = useAttempt();
  // Problems of the password pair, all at once; they and the last error clear as the input changes.
  const [problems, setProblems] = useState<string[]>([]);
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setError(null);
      setProblems([]);
    };
  const attempt = async (work: () => Promise<void>) => {
    const found = step.kind === 'choose' ? [] : passwordProblems(password, confirmation);
    setProblems(found);
    if (found.length === 0) await send(work);
  };
  const lines = problems.length > 0 ? problems : error ? [error] : [];

  const shared: StepProps = {
    passwords: {
      password,
      confirmation,
      onPassword: edited(setPassword),
      onConfirmation: edited(setConfirmation),
    },
    busy,
    attempt,
    errorLine: lines.length > 0 && (
      <div class="error" role="alert" data-testid="onboarding-error">
        {lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    ),
    setStep,
  };
  if (step.kind === 'choose') return <ChooseStep {...shared} />;
  if (step.kind === 'backup') return <BackupStep step={step} setStep={setStep} />;
  if (step.kind === 'confirm')
    return (
      <ConfirmStep
        {...shared}
        step={step}
        answers={answers}
        setAnswers={edited(setAnswers)}
        onDone={onDone}
      />
    );
  return (
    <ImportStep
      {...shared}
      importKind={importKind}
      setImportKind={setImportKind}
      secret={secret}
      setSecret={edited(setSecret)}
      onDone={onDone}
    />
  );
}
