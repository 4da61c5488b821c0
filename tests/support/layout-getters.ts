// The property reads that force a synchronous layout, counted the same way by the unit tests (happy-dom)
// and the explorer benchmark's page (Chromium): one list, so neither counts less than the other.

const LAYOUT_GETTERS: readonly [() => object, string][] = [
  [() => HTMLElement.prototype, 'offsetWidth'],
  [() => HTMLElement.prototype, 'offsetHeight'],
  [() => HTMLElement.prototype, 'offsetTop'],
  [() => HTMLElement.prototype, 'offsetLeft'],
  [() => HTMLElement.prototype, 'innerText'],
  [() => Element.prototype, 'clientWidth'],
  [() => Element.prototype, 'clientHeight'],
  [() => Element.prototype, 'scrollTop'],
  [() => Element.prototype, 'scrollHeight'],
];

/** Calls `count` on every read of those getters (where the DOM has them); returns the undo. */
export function countLayoutGetters(count: () => void): () => void {
  const restore: (() => void)[] = [];
  for (const [prototypeOf, name] of LAYOUT_GETTERS) {
    const proto = prototypeOf();
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (!descriptor?.get) continue;
    const get = descriptor.get;
    Object.defineProperty(proto, name, {
      ...descriptor,
      get() {
        count();
        return get.call(this);
      },
    });
    restore.push(() => Object.defineProperty(proto, name, descriptor));
  }
  return () => {
    for (const undo of restore) undo();
  };
}
