// Thin wiring; the logic is in lib/explorer. Kept tiny (DESIGN.md section 7, <= 8 kB gzip): no viem,
// no zod, no Preact in this bundle; the messenger checks the background's answers by hand.
import { createMessenger } from '@/lib/explorer/messenger';
import { startScanner } from '@/lib/explorer/scanner';
import { explorerChainOf, explorerMatches } from '@/lib/explorer/site';

// TODO(issue 8): explorer hosts the user adds in settings are not wired yet. They need an optional
// host permission requested at run time (permissions.request from the options page), a content script
// registered dynamically for them (scripting.registerContentScripts, re-registered on start and on
// settings change), and the settings' host -> chain map passed to chainForExplorerHost as `extraHosts`
// (which is why explorerChainOf would grow a second argument). Pending a decision.
export default defineContentScript({
  matches: explorerMatches(),
  runAt: 'document_idle',
  main(ctx) {
    // The manifest already limits hosts; this also refuses anything hosts.ts doesn't match exactly.
    const chainId = explorerChainOf(location);
    if (chainId === undefined) return;
    const scanner = startScanner({ chainId, messenger: createMessenger() });
    // pushState/popstate (Navigation API, or WXT's polling where it's missing): the token may change.
    ctx.addEventListener(window, 'wxt:locationchange', () => scanner.refresh());
    ctx.onInvalidated(() => scanner.stop());
  },
});
