import { useState } from 'preact/hooks';
import { type ClipboardAccess, clipboardDigest, copyThenClear } from '@/lib/wallet/clipboard-clear';

export interface PhraseBoxProps {
  mnemonic: string;
  /** Injected in tests; the clipboard otherwise. */
  clipboard?: ClipboardAccess;
  /** How long the phrase may stay on the clipboard (tests shorten it). */
  clearAfterMs?: number;
  /**
   * Has the background clear the clipboard later even if this window closes first (it gets only the
   * phrase's SHA-256). This window clears it too while it stays open, to say so.
   */
  clearLater?: (digest: string) => Promise<unknown>;
}

/** The recovery phrase, masked until the user asks to see it, with Copy. */
export function PhraseBox({ mnemonic, clipboard, clearAfterMs, clearLater }: PhraseBoxProps) {
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
            copyThenClear(mnemonic, {
              clipboard: clipboard ?? navigator.clipboard,
              ...(clearAfterMs !== undefined ? { delayMs: clearAfterMs } : {}),
            }).then(
              ({ cleared }) => {
                if (clearLater)
                  void clipboardDigest(mnemonic)
                    .then(clearLater)
                    .catch(() => undefined);
                setCopied(
                  'Copied. Paste it only somewhere offline. Swaplane clears it from the clipboard in 30 seconds.',
                );
                void cleared.then((outcome) => {
                  if (outcome === 'cleared') setCopied('The recovery phrase was cleared from the clipboard.');
                });
              },
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
