// Chromium's offscreen document (reason CLIPBOARD): the worker has no DOM, so it opens this page to
// clear a copied recovery phrase (lib/background/clipboard-clear.ts). An offscreen document is never
// focused, so navigator.clipboard refuses it; execCommand('paste') / ('copy') work with the
// clipboardRead / clipboardWrite permissions.
import '@/lib/zod-config';
import { browser } from 'wxt/browser';
import { type ClipboardAccess, clearIfStill, OffscreenClearSchema } from '@/lib/wallet/clipboard-clear';

const area = document.getElementById('clipboard') as HTMLTextAreaElement;

const domClipboard: ClipboardAccess = {
  async readText() {
    area.value = '';
    area.select();
    if (!document.execCommand('paste')) throw new Error('the clipboard cannot be read here');
    return area.value;
  },
  async writeText(text) {
    // A copy event sets the data itself: copying an empty selection would leave the clipboard as it was.
    const put = (event: ClipboardEvent) => {
      event.clipboardData?.setData('text/plain', text);
      event.preventDefault();
    };
    document.addEventListener('copy', put, { once: true });
    if (!document.execCommand('copy')) throw new Error('the clipboard cannot be written here');
  },
};

browser.runtime.onMessage.addListener((message: unknown) => {
  const request = OffscreenClearSchema.safeParse(message);
  if (!request.success) return undefined; // not for this page
  return clearIfStill(domClipboard, request.data.digest);
});
