// @vitest-environment happy-dom
// The content scripts' own context (aliased in for WXT's): a newer copy stops the older one, and SPA
// navigation reaches the handler after the URL changed.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ContentScriptContext } from '@/lib/explorer/context';

afterEach(() => vi.useRealTimers());

describe('ContentScriptContext', () => {
  it('a newer copy of the same script invalidates the older one, not itself', () => {
    fakeBrowser.runtime.id = 'test-extension';
    const older = new ContentScriptContext('explorer');
    const stopped = vi.fn();
    older.onInvalidated(stopped);
    expect(older.isValid).toBe(true);
    const newer = new ContentScriptContext('explorer');
    expect(stopped).toHaveBeenCalledOnce();
    expect(older.isValid).toBe(false);
    expect(newer.isValid).toBe(true);
    // Another script's announcement is not ours.
    new ContentScriptContext('dapp-bridge');
    expect(newer.isValid).toBe(true);
  });

  it('calls the location handler once per URL change, after the change (polling without the Navigation API)', () => {
    vi.useFakeTimers();
    fakeBrowser.runtime.id = 'test-extension';
    const context = new ContentScriptContext('explorer');
    const seen: string[] = [];
    context.addEventListener(window, 'wxt:locationchange', () => seen.push(location.pathname));
    history.pushState(null, '', '/token/0x1');
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual(['/token/0x1']);
    new ContentScriptContext('explorer'); // a newer copy: this one stops listening
    history.pushState(null, '', '/token/0x2');
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual(['/token/0x1']);
  });
});
