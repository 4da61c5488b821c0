// A copied recovery phrase does not stay on the clipboard: 30 s after the copy it is cleared, but
// only if the clipboard still holds it (whatever the user copied since is left alone).

import * as z from 'zod/mini';

export const PHRASE_CLIPBOARD_MS = 30_000;

/** The worker's request to Chromium's offscreen document (entrypoints/offscreen-clipboard/), and its answer. */
export const OffscreenClearSchema = z.object({
  target: z.literal('offscreen-clipboard'),
  digest: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});
export const ClearOutcomeSchema = z.enum(['cleared', 'changed', 'unreadable']);
export type ClearOutcome = z.infer<typeof ClearOutcomeSchema>;

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

/** SHA-256 of a copied secret, hex: what the clear outside the popup compares against (never the secret). */
export async function clipboardDigest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Clears the clipboard if it still holds the text whose digest is `digest`; leaves anything else. */
export async function clearIfStill(clipboard: ClipboardAccess, digest: string): Promise<ClearOutcome> {
  let now: string;
  try {
    now = await clipboard.readText();
  } catch {
    return 'unreadable';
  }
  if ((await clipboardDigest(now)) !== digest) return 'changed';
  await clipboard.writeText('');
  return 'cleared';
}
