// The bridge (isolated world, document_start): forwards the in-page provider's well-formed
// requests to the background, which reads the page's origin from the browser (never from the
// message), and relays the background's answers and events for this origin back to the page.
// Each request carries a random key: when the browser stops the worker while a request waits for
// the user, the answer's channel dies, and the bridge asks the restarted worker for it again.
import { browser } from 'wxt/browser';
import { INIT_METHOD, parseChannelRequest, replyFor, TO_PROVIDER } from '@/lib/dapp/channel';

/** Worker restarts one request may outlive before the page is told Swaplane is unreachable. */
const MAX_RESUMES = 5;

/** 128 random bits as hex (crypto.randomUUID needs a secure context; http pages are not). */
function requestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export default defineContentScript({
  matches: ['https://*/*', 'http://*/*'],
  // Frames too (an app embedded in another site's page, as wallets do): the frame's own origin is
  // the one that asks, is connected and is shown, with the top page's beside it.
  allFrames: true,
  runAt: 'document_start',
  main() {
    const post = (message: unknown) => window.postMessage(message, location.origin);
    window.addEventListener('message', (event: MessageEvent) => {
      if (event.source !== window) return;
      const request = parseChannelRequest(event.data);
      if (!request) return;
      const key = request.method === INIT_METHOD ? null : requestKey();
      const message =
        key === null
          ? { type: 'dappInit' }
          : {
              type: 'dappRequest',
              method: request.method,
              key,
              ...(request.params === undefined ? {} : { params: request.params }),
            };
      const send = (message: unknown, resumes: number) =>
        browser.runtime.sendMessage(message).then(
          (answer: unknown) => post(replyFor(request.id, answer)),
          () => {
            // The extension was updated or removed (its id is gone): disconnected (4900). Else the
            // worker stopped under the request: the restarted one answers it by key.
            if (key === null || !browser.runtime?.id || resumes >= MAX_RESUMES)
              post(replyFor(request.id, null));
            else void send({ type: 'dappResume', key }, resumes + 1);
          },
        );
      void send(message, 0);
    });
    browser.runtime.onMessage.addListener((message: unknown) => {
      const event = message as { type?: unknown; origin?: unknown; event?: unknown; data?: unknown } | null;
      if (event?.type !== 'swaplane:dapp-event' || event.origin !== location.origin) return;
      if (event.event !== 'accountsChanged' && event.event !== 'chainChanged') return;
      post({ target: TO_PROVIDER, event: event.event, data: event.data });
    });
  },
});
