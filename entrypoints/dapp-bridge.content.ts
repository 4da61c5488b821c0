// The bridge (isolated world, document_start): forwards the in-page provider's well-formed
// requests to the background, which reads the page's origin from the browser (never from the
// message), and relays the background's answers and events for this origin back to the page.
import { browser } from 'wxt/browser';
import { INIT_METHOD, parseChannelRequest, replyFor, TO_PROVIDER } from '@/lib/dapp/channel';

export default defineContentScript({
  matches: ['https://*/*', 'http://*/*'],
  runAt: 'document_start',
  main() {
    const post = (message: unknown) => window.postMessage(message, location.origin);
    window.addEventListener('message', (event: MessageEvent) => {
      if (event.source !== window) return;
      const request = parseChannelRequest(event.data);
      if (!request) return;
      const message =
        request.method === INIT_METHOD
          ? { type: 'dappInit' }
          : {
              type: 'dappRequest',
              method: request.method,
              ...(request.params === undefined ? {} : { params: request.params }),
            };
      browser.runtime.sendMessage(message).then(
        (answer: unknown) => post(replyFor(request.id, answer)),
        // The extension was updated or removed: this page's provider is disconnected (4900).
        () => post(replyFor(request.id, null)),
      );
    });
    browser.runtime.onMessage.addListener((message: unknown) => {
      const event = message as { type?: unknown; origin?: unknown; event?: unknown; data?: unknown } | null;
      if (event?.type !== 'swaplane:dapp-event' || event.origin !== location.origin) return;
      if (event.event !== 'accountsChanged' && event.event !== 'chainChanged') return;
      post({ target: TO_PROVIDER, event: event.event, data: event.data });
    });
  },
});
