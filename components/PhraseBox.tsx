import { useState } from 'preact/hooks';

export interface PhraseBoxProps {
  mnemonic: string;
  /** Injected in tests; the clipboard otherwise. */
  copy?: (text: string) => Promise<void>;
}

/** The recovery phrase, masked until the user asks to see it, with Copy. */
export function PhraseBox({ mnemonic, copy }: PhraseBoxProps) {
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div class="secret-box">
      <ol class={shown ? 'phrase' : 'phrase masked'} data-testid="recovery-phrase" aria-hidden={!shown}>
        {mnemonic.split(' ').map((word, i) => (
          <li key={`${i}-${word}`}>{word}</li>
        ))}
      </ol>
      {!shown && <p class="muted">Hidden. Show it only where no one can see your screen.</p>}
      <div class="row">
        <button type="button" aria-pressed={shown} onClick={() => setShown(!shown)}>
          {shown ? 'Hide the phrase' : 'Show the phrase'}
        </button>
        <button
          type="button"
          onClick={() =>
            (copy ?? ((text: string) => navigator.clipboard.writeText(text)))(mnemonic).then(
              () => setCopied('Copied. Paste it only somewhere offline, then clear the clipboard.'),
              () => setCopied('Could not copy: write the words down instead.'),
            )
          }
        >
          Copy
        </button>
      </div>
      {copied && <p role="status">{copied}</p>}
    </div>
  );
}
