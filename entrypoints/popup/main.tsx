// First: sends popupStart and opens the session port before the rest of the graph is evaluated.
import './send-first';
import '@/lib/zod-config';
import { render } from 'preact';
import { holdLogos, releaseLogos } from '@/components/logo-gate';
import { App } from './App';
import { bootPopup } from './start';
import '@/assets/tokens.css';
import './style.css';

/** Longest the first render waits for the background; after it, "Loading…" shows as usual. */
const BOOT_WAIT_MS = 300;
/** Logos load once the swap screen is ready (useSwapForm), or after this on any other screen. */
const LOGOS_AT_MOST_MS = 1_000;

// Phases of the start-up, read by scripts/bench-popup.ts to say where the time goes.
performance.mark('swaplane:popup-module');
holdLogos();
setTimeout(releaseLogos, LOGOS_AT_MOST_MS);
bootPopup(BOOT_WAIT_MS).then(() => {
  performance.mark('swaplane:popup-start-in');
  render(<App />, document.getElementById('app') as HTMLElement);
  performance.mark('swaplane:popup-rendered');
});
