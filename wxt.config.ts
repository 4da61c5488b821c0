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
    define: { __SWAPLANE_BUILD__: JSON.stringify(build.defaults) },
    // scripts/bundle-sources.ts: which module each byte of a built script comes from.
    ...(process.env.SWAPLANE_SOURCEMAP ? { build: { sourcemap: true } } : {}),
  }),
  hooks: {
    // The explorer content script and the popup's preload script use the browser's own promise API
    // (`browser`, or `chrome` in Chromium MV3) instead of webextension-polyfill: they only send
    // runtime messages and open a port, which both do natively, and the polyfill alone is ~3 kB of
    // the content script's 8 kB gzip budget (and time before the popup's first request).
    'vite:build:extendConfig': (entrypoints, config) => {
      // The background too: the polyfill is ~3 kB of its 150 kB gzip budget, and every API it calls
      // returns a promise natively in Chromium MV3 and Firefox (its one message listener answers through
      // sendResponse, lib/background/router.ts). The popup, options and approval pages keep the polyfill.
      const nativeApi = (type: string) =>
        type === 'content-script' || type === 'unlisted-script' || type === 'background';
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
