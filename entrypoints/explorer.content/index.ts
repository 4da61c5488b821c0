// Kept tiny: no viem, no zod in this bundle (DESIGN.md section 2). Detection lives in lib/explorer.
export default defineContentScript({
  matches: [
    '*://etherscan.io/*',
    '*://*.etherscan.io/*',
    '*://bscscan.com/*',
    '*://*.bscscan.com/*',
    '*://polygonscan.com/*',
    '*://*.polygonscan.com/*',
    '*://arbiscan.io/*',
    '*://*.arbiscan.io/*',
    '*://basescan.org/*',
    '*://*.basescan.org/*',
    '*://snowscan.xyz/*',
    '*://*.snowscan.xyz/*',
    '*://*.blockscout.com/*',
  ],
  runAt: 'document_idle',
  main() {
    document.documentElement.dataset.swaplane = 'ready';
  },
});
