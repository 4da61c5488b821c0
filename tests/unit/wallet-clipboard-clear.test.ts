import { describe, expect, it } from 'vitest';
import { copyThenClear, PHRASE_CLIPBOARD_MS } from '@/lib/wallet/clipboard-clear';

function fakeClipboard(readable = true) {
  const state = { text: '' };
  return {
    state,
    clipboard: {
      writeText: async (text: string) => {
        state.text = text;
      },
      readText: async () => {
        if (!readable) throw new Error('NotAllowedError');
        return state.text;
      },
    },
  };
}

describe('copyThenClear', () => {
  it('clears the phrase after 30 s when the clipboard still holds it', async () => {
    const { state, clipboard } = fakeClipboard();
    let delay = 0;
    let fire = () => {};
    const { cleared } = await copyThenClear('the phrase', {
      clipboard,
      setTimer: (run, ms) => {
        delay = ms;
        fire = run;
      },
    });
    expect(state.text).toBe('the phrase');
    expect(delay).toBe(PHRASE_CLIPBOARD_MS);
    expect(PHRASE_CLIPBOARD_MS).toBe(30_000);
    fire();
    expect(await cleared).toBe('cleared');
    expect(state.text).toBe('');
  });

  it('leaves whatever the user copied since', async () => {
    const { state, clipboard } = fakeClipboard();
    let fire = () => {};
    const { cleared } = await copyThenClear('the phrase', { clipboard, setTimer: (run) => (fire = run) });
    state.text = 'something else';
    fire();
    expect(await cleared).toBe('changed');
    expect(state.text).toBe('something else');
  });

  it('does not overwrite a clipboard it cannot read', async () => {
    const { state, clipboard } = fakeClipboard(false);
    let fire = () => {};
    const { cleared } = await copyThenClear('the phrase', { clipboard, setTimer: (run) => (fire = run) });
    fire();
    expect(await cleared).toBe('unreadable');
    expect(state.text).toBe('the phrase');
  });
});
