import '@/lib/zod-config';
import { render } from 'preact';
import { App } from './App';
import { bootPopup } from './start';
import '@/assets/tokens.css';
import './style.css';

/** Longest the first render waits for the background; after it, "Loading…" shows as usual. */
const BOOT_WAIT_MS = 300;

// Phases of the start-up, read by scripts/bench-popup.ts to say where the time goes.
performance.mark('swaplane:popup-module');
bootPopup(BOOT_WAIT_MS).then(() => {
  performance.mark('swaplane:popup-start-in');
  render(<App />, document.getElementById('app') as HTMLElement);
  performance.mark('swaplane:popup-rendered');
});
