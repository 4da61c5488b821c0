// Thin wiring; the logic is in lib/explorer. Kept tiny (docs/PERFORMANCE.md, <= 8 kB gzip): no viem,
// no zod, no Preact in this bundle; the messenger checks the background's answers by hand.
import { createMessenger } from '@/lib/explorer/messenger';
import { type Scanner, startScanner } from '@/lib/explorer/scanner';
import { explorerChainOf, explorerMatches } from '@/lib/explorer/site';

// One file serves both ways: the manifest lists it for the built-in hosts (below), and the background
// registers the same built file at run time (scripting.registerContentScripts) for the hosts the user
// adds in settings once their permission is granted (lib/background/explorer-hosts.ts).
export default defineContentScript({
  matches: explorerMatches(),
  runAt: 'document_idle',
  // Token pages load their transfers and holders tabs in same-origin frames (`generic-tokentxns2`,
  // `generic-tokenholders2`): their links get controls there too.
  allFrames: true,
  main(ctx) {
    const messenger = createMessenger();
    let scanner: Scanner | undefined;
    let chain: number | undefined;
    const start = (chainId: number | undefined) => {
      if (chainId === chain && scanner) return scanner.refresh();
      scanner?.stop();
      chain = chainId;
      scanner = chainId === undefined ? undefined : startScanner({ chainId, messenger });
    };
    ctx.onInvalidated(() => scanner?.stop());
    // Built-in hosts: exactly as hosts.ts matches them (look-alikes fail), decided here, no round trip.
    // routescan.io names its chain in the URL, which SPA navigation (pushState, popstate; WXT polls
    // where the Navigation API is missing) can change: the buttons then start over on the new chain.
    const builtIn = explorerChainOf(location);
    if (builtIn !== undefined || /(^|\.)routescan\.io$/.test(location.hostname)) {
      ctx.addEventListener(window, 'wxt:locationchange', () => start(explorerChainOf(location)));
      return start(builtIn);
    }
    // Anywhere else we run because the user added the host: the background names its chain from the
    // URL the browser reports for this frame (not one the page could supply), or null.
    messenger.explorerChain().then((answer) => {
      if (!answer.ok || answer.result === null || !ctx.isValid) return;
      const chainId = answer.result;
      ctx.addEventListener(window, 'wxt:locationchange', () => start(chainId));
      start(chainId);
    });
  },
});
