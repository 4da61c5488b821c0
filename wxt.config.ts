import { resolve } from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';
import { buildConfig } from './scripts/release-config';
import { abiLiterals } from './scripts/vite-abi-literals';
import { harden } from './scripts/vite-harden';

// A demo build (npm run build, npm run demo) points at the embedded default on this machine; a
// release build (SWAPLANE_RELEASE=1, npm run zip) carries only the https service and RPCs given at
// build time and no localhost host permission (scripts/release-config.ts).
const build = buildConfig(process.env);

export default defineConfig({
  ...(process.env.SWAPLANE_OUT_DIR ? { outDir: process.env.SWAPLANE_OUT_DIR } : {}),
  modules: ['@wxt-dev/webextension-polyfill'],
  srcDir: '.',
  entrypointsDir: 'entrypoints',
  publicDir: 'public',
  // MV3 for every browser, Firefox included (WXT defaults Firefox to MV2): see scripts/lint-firefox.ts.
  manifestVersion: 3,
  manifest: ({ browser }) => ({
    name: 'Swaplane',
    description: 'Swap tokens from your toolbar and from block-explorer pages.',
    // clipboardRead/clipboardWrite: a copied recovery phrase is cleared 30 s later, only if the clipboard
    // still holds it, even after the popup closed; Chromium does it in an offscreen document (`offscreen`),
    // Firefox (no chrome.offscreen) in its event page (lib/background/clipboard-clear.ts).
    permissions: [
      'storage',
      'alarms',
      'notifications',
      'unlimitedStorage',
      'scripting',
      'clipboardRead',
      'clipboardWrite',
      ...(browser === 'firefox' ? [] : ['offscreen']),
    ],
    host_permissions: build.hostPermissions,
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    action: { default_title: 'Swaplane' },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'swaplane@swaplane.dev',
              // 140 (ESR) / Android 142: the first with data_collection_permissions.
              strict_min_version: '140.0',
              // Swap amounts go to the routing service; the address, balance reads and signed
              // transactions go to the RPC node: transactions and balances leave the extension.
              data_collection_permissions: { required: ['financialAndPaymentInfo'] },
            },
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : {}),
  }),
  vite: () => ({
    plugins: [preact(), harden(), abiLiterals()],
    // Chromium and Firefox (>= 115) preload modules natively: Vite's polyfill would only run a
    // document query and watch the whole document with a MutationObserver in every page.
    build: { modulePreload: { polyfill: false } },
    define: { __SWAPLANE_BUILD__: JSON.stringify(build.defaults) },
    // scripts/bundle-sources.ts: which module each byte of a built script comes from.
    ...(process.env.SWAPLANE_SOURCEMAP ? { build: { sourcemap: true } } : {}),
  }),
  hooks: {
    // The popup is built alone, not with the other pages: a multi-page build splits every module the
    // popup shares with options or the approval page into shared chunks, each one more file the popup
    // waits for at start-up (docs/PERFORMANCE.md, "How the popup opens fast").
    'entrypoints:grouped': (_wxt, groups) => {
      for (const group of groups) {
        if (!Array.isArray(group)) continue;
        const popup = group.findIndex((entrypoint) => entrypoint.type === 'popup');
        if (popup < 0 || group.length < 2) continue;
        groups.push(group.splice(popup, 1));
        return;
      }
    },
    // The content scripts, the background and the popup use the browser's own promise API (`browser`,
    // or `chrome` in Chromium MV3) instead of webextension-polyfill: every API they call returns a
    // promise natively in Chromium MV3 and Firefox. The polyfill is ~3 kB of the content script's
    // 8 kB gzip budget and of the background's 150 kB; in the popup it was time before its first
    // request (its wrapper instantiates each API namespace it copies; it calls only runtime's
    // sendMessage, connect and openOptionsPage). The background's one message listener answers through
    // sendResponse (lib/background/router.ts). The options and approval pages keep the polyfill.
    'vite:build:extendConfig': (entrypoints, config) => {
      const nativeApi = (type: string) =>
        type === 'content-script' || type === 'unlisted-script' || type === 'background' || type === 'popup';
      if (!entrypoints.every((entrypoint) => nativeApi(entrypoint.type))) return;
      const alias = config.resolve?.alias ?? {};
      // WXT's content-script context is ~0.7 kB gzip of which the scripts use a third: our own
      // (lib/explorer/context.ts) keeps invalidation and SPA navigation only.
      const native = {
        'wxt/browser': '@wxt-dev/browser',
        'wxt/utils/content-script-context': resolve(import.meta.dirname, 'lib/explorer/context.ts'),
      };
      config.resolve = {
        ...config.resolve,
        alias: Array.isArray(alias)
          ? [...Object.entries(native).map(([find, replacement]) => ({ find, replacement })), ...alias]
          : { ...alias, ...native },
      };
    },
  },
});
