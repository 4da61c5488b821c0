// The "Swap" button beside a detected element and its quote card. Each button lives in its own shadow
// root with its own styles (page CSS can't reach in, ours can't leak out); the host element goes after
// the link, never inside it, so the page's links keep working. Page-controlled and service text is
// only ever written with textContent.
import { formatUnits } from './format';
import type { Failure, Messenger, OneClickQuote } from './messenger';

/** Tag of the injected host elements; they carry `data-swaplane-token` and `data-swaplane-chain`. */
export const HOST_TAG = 'swaplane-swap';

// `!important` on :host beats the page's own !important rules on the host element (shadow context
// wins for important declarations), so page CSS such as `* { display: block !important }` can't break it.
// The host is a zero-size inline box right after its link and the button overlays the space beside it:
// inserting one costs what an empty span costs (no column widens, no line grows), yet the button stays
// next to its link in the tab order and for screen readers, and moves with it on any relayout.
const CSS = `:host{all:initial!important;display:inline-block!important;position:relative!important;width:0!important;height:0!important;font:13px system-ui,sans-serif!important}
.s,.go{all:unset;padding:0 6px;border:1px solid #65f;border-radius:8px;color:#54e;font:600 11px/16px system-ui;cursor:pointer}
.s{position:absolute;left:4px;bottom:-4px;z-index:2147483647;white-space:nowrap;background:#fff}
.s:hover,.s:focus-visible,.go{background:#65f;color:#fff}
div{position:absolute;inset:auto;width:250px;margin:4px 0 0;padding:10px;border:1px solid #ccc;border-radius:8px;background:#fff;color:#222}
p{margin:0 0 4px;overflow-wrap:anywhere}
.b{font-weight:600}
.go{display:block;margin-top:8px;padding:4px;text-align:center}
.u{border-style:dashed;border-color:#999;color:#555}`;

/** Said on a button (tooltip) and its card when the token is not on the swap service's list. */
export const NOT_LISTED = 'Not on the swap service’s list';

export interface Placement {
  element: Element;
  address: string;
  /** The token's chain when it is not the page's (a link to another chain's explorer). */
  chainId?: number;
}

/** The token a button is for. */
interface Target {
  address: string;
  chainId: number;
}

export interface Injector {
  /** Puts a button beside each element (or re-points an existing one). Reads first, then writes. */
  place(items: readonly Placement[]): void;
  has(element: Element): boolean;
  /** Records which of `asked` (on `chainId`, the page's by default) are on the service's list; the others' buttons are marked as not. */
  mark(asked: readonly string[], listed: ReadonlySet<string>, chainId?: number): void;
  remove(element: Element): void;
  /** Removes the buttons of these tokens (the page showed them as NFTs). */
  drop(addresses: ReadonlySet<string>): void;
  /** Removes the buttons whose element the page took out (an app re-rendering a cell keeps ours). */
  prune(): void;
  /** Removes every button of this injector and closes its card. */
  clear(): void;
}

/**
 * The card's words for a failed request: the user message's title and next step when the error has
 * one (service errors), else the background's own specific message (e.g. NOT_WHITELISTED's
 * "This token is not on the swap service’s list.", or the messenger's "not responding").
 */
export function failureText(error: Failure): [string, string?] {
  return error.user ? [error.user.title, error.user.action] : [error.message];
}

/** "1 ETH ≈ 2,950.12 USDC" and the minimum received, from a one-click quote. */
export function quoteText(quote: OneClickQuote): [string, string, string, string] {
  const { inSymbol, outSymbol } = quote;
  return [
    `${formatUnits(quote.inAmount, quote.inDecimals)} ${inSymbol} ≈ ${formatUnits(quote.outAmount, quote.outDecimals)} ${outSymbol}`,
    `Minimum received: ${formatUnits(quote.minReceived, quote.outDecimals)} ${outSymbol}`,
    `On ${quote.network}, slippage ${quote.slippage}%`,
    `Quote from ${quote.service}`,
  ];
}

/** An element of our own: page-controlled and service text only ever goes in as textContent. */
function node<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, className?: string) {
  const created = doc.createElement(tag);
  if (className) created.className = className;
  return created;
}

function line(doc: Document, className: string, content: string): HTMLParagraphElement {
  const created = node(doc, 'p', className);
  created.textContent = content;
  return created;
}

/** The one open quote card of an injector: opens it beside a button, fills it, closes it. */
interface Cards {
  toggle(host: HTMLElement, button: HTMLElement, target: Target | undefined): void;
  /** Closes the open card if it is `host`'s (any card without `host`). */
  close(host?: HTMLElement): void;
}

function createCards(
  messenger: Messenger,
  doc: Document,
  isListed: (target: Target) => boolean | undefined,
): Cards {
  let open: { host: HTMLElement; close(): void } | undefined;
  const text = (className: string, content: string) => line(doc, className, content);

  function showFailure(card: HTMLElement, error: Failure, keep: Node[] = []): void {
    const [title, next] = failureText(error);
    card.replaceChildren(...keep, text('b', title), ...(next ? [text('', next)] : []));
  }

  /** The card, in the top layer where the browser has popovers; its `close` forgets it. */
  function show(host: HTMLElement, button: HTMLElement) {
    const view = doc.defaultView as Window;
    const card = node(doc, 'div');
    card.setAttribute('role', 'dialog');
    card.setAttribute('aria-label', 'Swaplane quote');
    card.append(text('', 'Getting a quote…'));
    // One layout read, on a click (never in a scan pass).
    const rect = button.getBoundingClientRect();
    const current = {
      host,
      card,
      close() {
        card.remove();
        button.setAttribute('aria-expanded', 'false');
        if (open === current) open = undefined;
      },
    };
    open = current;
    button.after(card);
    button.setAttribute('aria-expanded', 'true');
    if (card.showPopover) {
      // The top layer escapes the page's overflow clipping and stacking contexts; absolute there means
      // document coordinates, so the card scrolls with its button. An auto popover closes on Escape
      // and on a press elsewhere; `source` makes a press on our button toggle rather than reopen.
      card.popover = 'auto';
      card.style.left = `${Math.min(rect.left, view.innerWidth - 280) + view.scrollX}px`;
      card.style.top = `${rect.bottom + view.scrollY}px`;
      card.addEventListener(
        'toggle',
        (event) => (event as ToggleEvent).newState === 'closed' && current.close(),
      );
      (card.showPopover as (options: { source: Element }) => void)({ source: button });
    }
    return current;
  }

  /**
   * A token not on the service's list gets no quote (the service has no route for it): the card
   * checks it instead, so the user sees a transfer tax or a blocked sell before going anywhere.
   */
  function check(current: ReturnType<typeof show>, { address, chainId }: Target): void {
    const { card } = current;
    card.replaceChildren(text('b', NOT_LISTED), text('', 'Checking the token…'));
    messenger.tokenSafety(chainId, address).then((outcome) => {
      if (open !== current) return;
      if (!outcome.ok) return showFailure(card, outcome.error, [text('b', NOT_LISTED)]);
      const { headline, detail } = outcome.result;
      const status = text('b', headline);
      status.setAttribute('role', 'status');
      card.replaceChildren(text('', NOT_LISTED), status, text('', detail));
    });
  }

  function quote(current: ReturnType<typeof show>, target: Target): void {
    const { card } = current;
    const { address, chainId } = target;
    messenger.oneClickQuote(chainId, address).then((outcome) => {
      if (open !== current) return;
      if (!outcome.ok && outcome.error.code === 'NOT_WHITELISTED') return check(current, target);
      if (!outcome.ok) return showFailure(card, outcome.error);
      const [rate, minimum, network, source] = quoteText(outcome.result);
      const go = node(doc, 'button', 'go');
      go.type = 'button';
      go.textContent = 'Swap in Swaplane';
      go.addEventListener('click', (event) => {
        if (!event.isTrusted) return;
        go.disabled = true;
        messenger.openPopupPrefilled(chainId, address, outcome.result.inAmount).then((opened) => {
          if (opened.ok) current.close();
          else if (open === current) showFailure(card, opened.error, [text('b', rate)]);
        });
      });
      card.replaceChildren(text('b', rate), text('', minimum), text('', network), text('', source), go);
    });
  }

  return {
    toggle(host, button, target) {
      const wasOpen = open?.host === host;
      open?.close();
      if (wasOpen || !target) return;
      const current = show(host, button);
      if (isListed(target) === false) check(current, target);
      else quote(current, target);
    },
    close(host) {
      if (!host || open?.host === host) open?.close();
    },
  };
}

/** A host element with its shadow root, its styles and its button (not yet in the page). */
function createHost(doc: Document, onActivate: (host: HTMLElement, button: HTMLElement) => void) {
  const host = doc.createElement(HOST_TAG);
  const root = host.attachShadow({ mode: 'open' });
  const style = node(doc, 'style');
  style.textContent = CSS;
  // A span with the button role, not a <button>: on a big page, native buttons make the browser's
  // pre-paint walk several times slower on every insertion (bench: 10,000-row list).
  const button = node(doc, 'span', 's');
  button.textContent = 'Swap';
  button.title = 'Swap with Swaplane';
  button.tabIndex = 0;
  button.setAttribute('role', 'button');
  button.setAttribute('aria-expanded', 'false');
  const activate = (event: Event) => {
    // Only a person's press: page script can reach an open shadow root, but can't fake isTrusted.
    if (!event.isTrusted) return;
    event.preventDefault();
    event.stopPropagation();
    onActivate(host, button);
  };
  button.addEventListener('click', activate);
  button.addEventListener(
    'keydown',
    (event) => (event.key === 'Enter' || event.key === ' ') && activate(event),
  );
  root.append(style, button);
  return host;
}

/** Where each button goes: after the outermost link enclosing its element, outside its click area. */
function anchorsOf(items: readonly Placement[]): Element[] {
  const anchors: Element[] = [];
  for (const { element } of items) {
    let anchor = element;
    for (let link = element.parentElement?.closest('a'); link; link = link.parentElement?.closest('a')) {
      anchor = link;
    }
    anchors.push(anchor);
  }
  return anchors;
}

export function createInjector(chainId: number, messenger: Messenger, doc: Document = document): Injector {
  const hosts = new WeakMap<Element, HTMLElement>();
  const owners = new WeakMap<HTMLElement, Element>();
  // The token lives here, not in the (page-writable) data attributes, which are only a hook for tests.
  const tokens = new WeakMap<HTMLElement, Target>();
  // `<chainId>:<token>` -> on the service's list, as the background answered (absent: not asked yet).
  const listed = new Map<string, boolean>();
  const keyOf = (target: Target) => `${target.chainId}:${target.address}`;
  const cards = createCards(messenger, doc, (target) => listed.get(keyOf(target)));

  function point(host: HTMLElement, target: Target): void {
    tokens.set(host, target);
    host.setAttribute('data-swaplane-token', target.address);
    host.setAttribute('data-swaplane-chain', String(target.chainId));
    showListed(host);
  }

  function showListed(host: HTMLElement): void {
    const target = tokens.get(host);
    const known = target && listed.get(keyOf(target));
    const button = host.shadowRoot?.querySelector('.s') as HTMLElement | null | undefined;
    if (known === undefined || !button) return;
    host.setAttribute('data-swaplane-listed', String(known));
    button.classList.toggle('u', !known);
    button.title = known ? 'Swap with Swaplane' : `Swap with Swaplane (${NOT_LISTED})`;
  }

  function remove(element: Element): void {
    const host = hosts.get(element);
    if (!host) return;
    cards.close(host);
    host.remove();
    hosts.delete(element);
  }

  return {
    place(items) {
      const anchors = anchorsOf(items); // reads, then writes
      items.forEach(({ element, address, chainId: itemChain = chainId }, i) => {
        const target = { address, chainId: itemChain };
        const existing = hosts.get(element);
        if (existing) {
          const current = tokens.get(existing);
          if (current && keyOf(current) === keyOf(target)) return;
          cards.close(existing);
          point(existing, target);
          return;
        }
        const anchor = anchors[i] as Element;
        if (!anchor.parentNode) return;
        const host = createHost(doc, (at, button) => cards.toggle(at, button, tokens.get(at)));
        point(host, target);
        hosts.set(element, host);
        owners.set(host, element);
        anchor.after(host);
      });
    },
    has: (element) => hosts.has(element),
    mark(asked, answer, markChain = chainId) {
      const key = (address: string) => `${markChain}:${address}`;
      const fresh = asked.filter((address) => listed.get(key(address)) !== answer.has(address));
      if (fresh.length === 0) return;
      for (const address of fresh) listed.set(key(address), answer.has(address));
      const changed = new Set(fresh.map(key));
      for (const host of doc.querySelectorAll(HOST_TAG)) {
        const target = tokens.get(host as HTMLElement);
        if (target && changed.has(keyOf(target))) showListed(host as HTMLElement);
      }
    },
    remove,
    drop(addresses) {
      if (addresses.size === 0) return;
      for (const host of doc.querySelectorAll(HOST_TAG)) {
        const element = owners.get(host as HTMLElement);
        const target = tokens.get(host as HTMLElement);
        if (element && target && addresses.has(target.address)) remove(element);
      }
    },
    prune() {
      for (const host of doc.querySelectorAll(HOST_TAG)) {
        const element = owners.get(host as HTMLElement);
        if (element && !element.isConnected) remove(element);
      }
    },
    clear() {
      cards.close();
      for (const host of doc.querySelectorAll(HOST_TAG)) {
        if (tokens.has(host as HTMLElement)) host.remove();
      }
    },
  };
}
