import '@/lib/zod-config';
import { render } from 'preact';
import { App } from './App';
import { bootPopup } from './start';
import '@/assets/tokens.css';
import './style.css';

/** Longest the first render waits for the background; after it, "Loading…" shows as usual. */
const BOOT_WAIT_MS = 300;

bootPopup(BOOT_WAIT_MS).then(() => render(<App />, document.getElementById('app') as HTMLElement));
