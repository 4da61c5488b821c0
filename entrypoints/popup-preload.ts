// popup.html's classic script in <head>: sends the popup's first requests before its modules load
// (popup/preload.ts says why). Built with the browser's own promise API, not the polyfill (wxt.config.ts).
import { startPreload } from './popup/preload';

export default defineUnlistedScript(() => {
  startPreload();
});
