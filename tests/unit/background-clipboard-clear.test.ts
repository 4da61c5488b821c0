// The clipboard clear that outlives the popup (lib/background/clipboard-clear.ts): the worker keeps
// only the copied text's digest, sets an alarm 30 s out, and on the alarm clears the clipboard through
// the browser's DOM (Chromium's offscreen document, or Firefox's event page) if it still holds it.
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  CLIPBOARD_ALARM,
  clearInPage,
  clearThroughOffscreen,
  createClipboardClearer,
  OFFSCREEN_CLIPBOARD_PATH,
} from '@/lib/background/clipboard-clear';
import { clipboardClearItem } from '@/lib/storage/items';
import { clipboardDigest, PHRASE_CLIPBOARD_MS } from '@/lib/wallet/clipboard-clear';

const PHRASE = 'test test test test test test test test test test test junk';

function fakeClipboard(text: string) {
  const state = { text };
  return {
    state,
    clipboard: {
      readText: async () => state.text,
      writeText: async (next: string) => {
        state.text = next;
      },
    },
  };
}

beforeEach(() => fakeBrowser.reset());

describe('createClipboardClearer', () => {
  it('keeps only the digest, sets the alarm 30 s out, and on the alarm clears once', async () => {
    const alarms: [string, number][] = [];
    const { state, clipboard } = fakeClipboard(PHRASE);
    const clearer = createClipboardClearer({
      alarms: { create: (name, info) => alarms.push([name, info.when]) },
      clearNow: (digest) => clearInPage(clipboard, digest),
      now: () => 1_000,
    });
    const digest = await clipboardDigest(PHRASE);
    expect(await clearer.schedule(digest)).toEqual({ at: 1_000 + PHRASE_CLIPBOARD_MS });
    expect(alarms).toEqual([[CLIPBOARD_ALARM, 1_000 + PHRASE_CLIPBOARD_MS]]);
    expect(JSON.stringify(await clipboardClearItem.get())).not.toContain('test');
    expect(await clearer.onAlarm()).toBe('cleared');
    expect(state.text).toBe('');
    expect(await clearer.onAlarm()).toBeNull(); // done: a second alarm does nothing
  });

  it('leaves whatever the user copied since', async () => {
    const { state, clipboard } = fakeClipboard('something else');
    const clearer = createClipboardClearer({
      alarms: { create: () => undefined },
      clearNow: (digest) => clearInPage(clipboard, digest),
    });
    await clearer.schedule(await clipboardDigest(PHRASE));
    expect(await clearer.onAlarm()).toBe('changed');
    expect(state.text).toBe('something else');
  });
});

describe('clearThroughOffscreen', () => {
  it('opens the offscreen document for the clipboard, asks it, and closes it', async () => {
    const calls: unknown[] = [];
    const offscreen = {
      hasDocument: async () => false,
      createDocument: async (options: unknown) => void calls.push(['create', options]),
      closeDocument: async () => void calls.push(['close']),
    };
    const digest = await clipboardDigest(PHRASE);
    const outcome = await clearThroughOffscreen(
      offscreen,
      async (message) => {
        calls.push(['send', message]);
        return 'cleared';
      },
      digest,
    );
    expect(outcome).toBe('cleared');
    expect(calls).toEqual([
      ['create', expect.objectContaining({ url: OFFSCREEN_CLIPBOARD_PATH, reasons: ['CLIPBOARD'] })],
      ['send', { target: 'offscreen-clipboard', digest }],
      ['close'],
    ]);
  });

  it('takes an answer it cannot read as unreadable, and still closes the document', async () => {
    let closed = false;
    const offscreen = {
      createDocument: async () => undefined,
      closeDocument: async () => {
        closed = true;
      },
    };
    expect(await clearThroughOffscreen(offscreen, async () => ({ lies: true }), 'a'.repeat(64))).toBe(
      'unreadable',
    );
    expect(closed).toBe(true);
  });
});
