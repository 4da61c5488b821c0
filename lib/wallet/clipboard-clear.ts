// A copied recovery phrase does not stay on the clipboard: 30 s after the copy it is cleared, but
// only if the clipboard still holds it (whatever the user copied since is left alone).

export const PHRASE_CLIPBOARD_MS = 30_000;

export interface ClipboardAccess {
  readText(): Promise<string>;
  writeText(text: string): Promise<void>;
}

export interface ClearLaterOptions {
  clipboard: ClipboardAccess;
  delayMs?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
}

/**
 * Copies `secret`, then clears the clipboard after the delay if it is unchanged. Resolves once the
 * copy is done; `cleared` resolves after the check with what happened.
 */
export async function copyThenClear(
  secret: string,
  options: ClearLaterOptions,
): Promise<{ cleared: Promise<'cleared' | 'changed' | 'unreadable'> }> {
  const { clipboard, delayMs = PHRASE_CLIPBOARD_MS, setTimer = setTimeout } = options;
  await clipboard.writeText(secret);
  const cleared = new Promise<'cleared' | 'changed' | 'unreadable'>((resolve) => {
    setTimer(() => {
      clipboard.readText().then(
        async (now) => {
          if (now !== secret) return resolve('changed');
          await clipboard.writeText('').catch(() => undefined);
          resolve('cleared');
        },
        // Without read access we cannot tell whether it changed: leave it, the message said to clear it.
        () => resolve('unreadable'),
      );
    }, delayMs);
  });
  return { cleared };
}
