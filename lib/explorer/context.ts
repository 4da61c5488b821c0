// The content scripts' context: the part of WXT's ContentScriptContext they use, in a fraction of its
// bytes (wxt.config.ts aliases it in for content-script builds; the explorer script's budget is 8 kB
// gzip). It stops a script when the extension is updated, reloaded or removed (a newer copy announces
// itself, or the runtime is gone), and reports SPA navigation ('wxt:locationchange').
import { browser } from 'wxt/browser';

type Listener = () => void;

export class ContentScriptContext {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();

  constructor(name: string) {
    this.signal = this.#controller.signal;
    // WXT's event and detail: a copy of this script built with WXT's own context stops too.
    const started = `${browser.runtime?.id}:${name}:wxt:content-script-started`;
    const messageId = Math.random().toString(36).slice(2);
    document.dispatchEvent(new CustomEvent(started, { detail: { contentScriptName: name, messageId } }));
    // Listening only after our own announcement: any later one is a newer copy of this script.
    document.addEventListener(started, () => this.#controller.abort(), { signal: this.signal });
  }

  get isValid(): boolean {
    if (browser.runtime?.id == null) this.#controller.abort();
    return !this.signal.aborted;
  }

  onInvalidated(callback: Listener): () => void {
    this.signal.addEventListener('abort', callback);
    return () => this.signal.removeEventListener('abort', callback);
  }

  /**
   * Only 'wxt:locationchange': `handler` runs after the page's URL changed without a load (pushState,
   * popstate), seen through the Navigation API where it exists, else by polling once a second.
   */
  addEventListener(_target: unknown, _type: 'wxt:locationchange', handler: Listener): void {
    let last = location.href;
    const check = () => {
      if (location.href === last || !this.isValid) return;
      last = location.href;
      handler();
    };
    const navigation = (globalThis as { navigation?: EventTarget }).navigation;
    if (typeof navigation?.addEventListener === 'function') {
      // After the entry changed, so `location` already is the new URL.
      navigation.addEventListener('currententrychange', check, { signal: this.signal });
    } else {
      const timer = setInterval(check, 1000);
      this.onInvalidated(() => clearInterval(timer));
    }
  }
}
