// First import: sends the first screen's requests before the rest of the popup's code is evaluated
// (it uses no zod, so it may precede zod-config).
import './preload-start';
import '@/lib/zod-config';
import { render } from 'preact';
import { App } from './App';
import { boot } from './boot';
import '@/assets/tokens.css';
import './style.css';

/** Longest the first render waits for the background; after it, "Loading…" shows as usual. */
const BOOT_WAIT_MS = 300;

boot(BOOT_WAIT_MS).then(() => render(<App />, document.getElementById('app') as HTMLElement));
