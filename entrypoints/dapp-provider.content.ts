// The in-page provider (MAIN world, document_start): an EIP-1193 provider announced through
// EIP-6963, and window.ethereum when the user allows it and no other wallet holds it. Thin wiring;
// no extension API here (the page's world has none), no secrets, no zod: <= 10 kB gzip.
import iconSvg from '@/assets/icon.svg?raw';
import { createPageTransport } from '@/lib/dapp/page-transport';
import { announceProvider, createProvider, exposeAsWindowEthereum } from '@/lib/dapp/provider';

export default defineContentScript({
  matches: ['https://*/*', 'http://*/*'],
  // Frames too (an app embedded in another site's page, as wallets do): the frame's own origin is
  // the one that asks, is connected and is shown, with the top page's beside it.
  allFrames: true,
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    let handle: ReturnType<typeof createProvider> | undefined;
    const transport = createPageTransport(window, (reply) => handle?.onEvent(reply));
    handle = createProvider(transport);
    const { provider } = handle;
    announceProvider(
      window,
      {
        // EIP-6963: a UUIDv4 per page session.
        uuid: crypto.randomUUID(),
        name: 'Swaplane',
        icon: `data:image/svg+xml,${encodeURIComponent(iconSvg.trim())}`,
        rdns: 'app.swaplane',
      },
      provider,
    );
    handle.init().then(
      ({ exposeWindowEthereum }) => {
        if (exposeWindowEthereum) exposeAsWindowEthereum(window, provider);
      },
      () => undefined,
    );
  },
});
