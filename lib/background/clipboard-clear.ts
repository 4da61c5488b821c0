// A copied recovery phrase is cleared 30 s later even if the popup that copied it has closed: the
// worker keeps the phrase's digest in storage.session and sets an alarm (both outlive the popup and
// the worker). When it fires, the clipboard is read and cleared where a DOM can do it:
// - Chromium: the worker has no DOM and no clipboard; an offscreen document (reason CLIPBOARD,
//   entrypoints/offscreen-clipboard/) reads and clears it with the clipboardRead/clipboardWrite
//   permissions, then is closed;
// - Firefox: no chrome.offscreen, but the background is an event page with a DOM, and
//   navigator.clipboard there reads and writes with the same permissions.
import { browser } from 'wxt/browser';
import { clipboardClearItem } from '@/lib/storage/items';
import {
  type ClearOutcome,
  ClearOutcomeSchema,
  type ClipboardAccess,
  clearIfStill,
  PHRASE_CLIPBOARD_MS,
} from '@/lib/wallet/clipboard-clear';

export const CLIPBOARD_ALARM = 'clear-clipboard';
export const OFFSCREEN_CLIPBOARD_PATH = 'offscreen-clipboard.html';

export interface ClipboardClearDeps {
  alarms: { create(name: string, info: { when: number }): unknown };
  /** Reads and clears the clipboard where this browser can (offscreen document or event page). */
  clearNow(digest: string): Promise<ClearOutcome>;
  now?: () => number;
}

export function createClipboardClearer(deps: ClipboardClearDeps) {
  const now = deps.now ?? Date.now;
  return {
    /** Remembers what was copied (its digest) and sets the alarm that clears it. */
    async schedule(digest: string): Promise<{ at: number }> {
      const at = now() + PHRASE_CLIPBOARD_MS;
      await clipboardClearItem.set({ digest, at });
      await deps.alarms.create(CLIPBOARD_ALARM, { when: at });
      return { at };
    },
    /** The alarm: clears the clipboard if it still holds what was copied. Once. */
    async onAlarm(): Promise<ClearOutcome | null> {
      const pending = await clipboardClearItem.get();
      if (!pending) return null;
      await clipboardClearItem.set(null);
      return deps.clearNow(pending.digest).catch(() => 'unreadable' as const);
    },
  };
}

interface OffscreenApi {
  createDocument(options: { url: string; reasons: string[]; justification: string }): Promise<void>;
  closeDocument(): Promise<void>;
  hasDocument?(): Promise<boolean>;
}

/** Chromium: the offscreen document does the DOM work; the answer comes back over runtime messaging. */
export async function clearThroughOffscreen(
  offscreen: OffscreenApi,
  send: (message: unknown) => Promise<unknown>,
  digest: string,
): Promise<ClearOutcome> {
  if (!(await offscreen.hasDocument?.())) {
    await offscreen.createDocument({
      url: OFFSCREEN_CLIPBOARD_PATH,
      reasons: ['CLIPBOARD'],
      justification: 'Clear a copied recovery phrase from the clipboard after 30 seconds.',
    });
  }
  try {
    const answer = ClearOutcomeSchema.safeParse(await send({ target: 'offscreen-clipboard', digest }));
    return answer.success ? answer.data : 'unreadable';
  } finally {
    await offscreen.closeDocument().catch(() => undefined);
  }
}

/** Firefox's event page (and any context with a DOM): its own clipboard. */
export function clearInPage(clipboard: ClipboardAccess, digest: string): Promise<ClearOutcome> {
  return clearIfStill(clipboard, digest);
}

/** The clearer of this browser: its alarms, and the offscreen document where there is one. */
export function browserClipboardClearer() {
  const offscreen = (globalThis as { chrome?: { offscreen?: OffscreenApi } }).chrome?.offscreen;
  return createClipboardClearer({
    alarms: browser.alarms,
    clearNow: (digest) =>
      offscreen
        ? clearThroughOffscreen(offscreen, (message) => browser.runtime.sendMessage(message), digest)
        : clearInPage(navigator.clipboard, digest),
  });
}
