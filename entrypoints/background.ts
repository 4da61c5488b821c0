import '@/lib/zod-config';
import { browser } from 'wxt/browser';
import { browserClipboardClearer, CLIPBOARD_ALARM } from '@/lib/background/clipboard-clear';
import { registerBackgroundHandlers } from '@/lib/background/router';
import { createBackgroundServices } from '@/lib/background/services';
import { restrictToTrustedContexts } from '@/lib/background/storage-access';

const AUTO_LOCK_ALARM = 'auto-lock';

// Wiring only: listeners are registered synchronously so a restarted worker answers at once;
// the services restore their state from storage behind `services.ready`.
export default defineBackground(() => {
  // Before anything else: where the browser allows it, no content script may read or write storage.local.
  void restrictToTrustedContexts(browser.storage.local);
  const services = createBackgroundServices({
    notify: (title, message) =>
      void browser.notifications
        .create({ type: 'basic', iconUrl: browser.runtime.getURL('/icon/128.png'), title, message })
        .catch(() => undefined),
    scheduleLock: (at) => {
      if (at === null) void browser.alarms.clear(AUTO_LOCK_ALARM);
      else void browser.alarms.create(AUTO_LOCK_ALARM, { when: at });
    },
  });
  registerBackgroundHandlers(services);
  // Scripts registered for the user's explorer hosts persist across sessions; a start (after an update
  // too) and any permission change re-align them with the settings and what is still granted.
  const syncExplorerHosts = () => void services.ready.then(() => services.explorerHosts.sync());
  syncExplorerHosts();
  browser.permissions.onRemoved.addListener(syncExplorerHosts);
  browser.permissions.onAdded.addListener(syncExplorerHosts);
  // Closing the approval window rejects what it was asking about (4001).
  // The queue is revived from storage.session behind `ready` (settings and the seal loaded first).
  browser.windows.onRemoved.addListener(
    (windowId) => void services.ready.then(() => services.dapp.windowClosed(windowId)),
  );
  // A page that reloads, navigates or closes rejects what it was still waiting for.
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.status === 'loading') void services.ready.then(() => services.dapp.tabNavigated(tabId));
  });
  browser.tabs.onRemoved.addListener(
    (tabId) => void services.ready.then(() => services.dapp.tabNavigated(tabId)),
  );
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === AUTO_LOCK_ALARM) void services.ready.then(() => services.wallet.checkAutoLock());
    if (alarm.name === CLIPBOARD_ALARM) void browserClipboardClearer().onAlarm();
  });
});
