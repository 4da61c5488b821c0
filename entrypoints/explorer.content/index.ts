// Thin wiring; the logic is in lib/explorer. Kept tiny (docs/PERFORMANCE.md, <= 8 kB gzip): no viem,
// no zod, no Preact in this bundle; the messenger checks the background's answers by hand.
import { createMessenger } from '@/lib/explorer/messenger';
import { startScanner } from '@/lib/explorer/scanner';
import { explorerChainOf, explorerMatches } from '@/lib/explorer/site';

// One file serves both ways: the manifest lists it for the built-in hosts (below), and the background
// registers the same built file at run time (scripting.registerContentScripts) for the hosts the user
// adds in settings once their permission is granted (lib/background/explorer-hosts.ts).
export default defineContentScript({
  matches: explorerMatches(),
  runAt: 'document_idle',
  main(ctx) {
    const messenger = createMessenger();
    const start = (chainId: number) => {
      const scanner = startScanner({ chainId, messenger });
      // pushState/popstate (Navigation API, or WXT's polling where it's missing): the token may change.
      ctx.addEventListener(window, 'wxt:locationchange', () => scanner.refresh());
      ctx.onInvalidated(() => scanner.stop());
    };
    // Built-in hosts: exactly as hosts.ts matches them (look-alikes fail), decided here, no round trip.
    const chainId = explorerChainOf(location);
    if (chainId !== undefined) return start(chainId);
    // Anywhere else we run because the user added the host: the background names its chain from the
    // URL the browser reports for this frame (not one the page could supply), or null.
    messenger.explorerChain().then((answer) => {
      if (answer.ok && answer.result !== null && ctx.isValid) start(answer.result);
    });
  },
});
