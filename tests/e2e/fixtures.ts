import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, test as base, type Page, type TestInfo, type Worker } from '@playwright/test';
import type { HistoryEntry } from '@/lib/state/pipeline-state';
import { historyCore } from '@/lib/swap/entry-seal';
import { deriveTrustKey, fieldMac } from '@/lib/wallet/trust-mac';
import * as TOKENS from '../support/addresses';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy';
import { extensionIdOf, type LaunchedChromium, launchWithExtension, serviceWorkerOf } from './launch';
import {
  expectNewWorker,
  markWorker,
  openHelperTab,
  restartServiceWorker,
  stopServiceWorker,
  stopWorkerFromBlankTab,
  WORKER_STOP_RETRIES,
  wakeServiceWorker,
} from './worker-restart';
import { selectE2eEnvironment } from './workers';

// This worker's own devnet and service (global-setup.ts starts one per worker).
selectE2eEnvironment();

export {
  expectNewWorker,
  extensionIdOf,
  launchWithExtension,
  markWorker,
  openHelperTab,
  restartServiceWorker,
  serviceWorkerOf,
  stopServiceWorker,
  stopWorkerFromBlankTab,
  WORKER_STOP_RETRIES,
  wakeServiceWorker,
};

/** Collects console errors, page errors and CSP violations of a page for a final assertion. */
export async function watchPageProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.exposeFunction('__swaplaneReportCsp', (text: string) => problems.push(`csp: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __swaplaneReportCsp: (text: string) => void })
        .__swaplaneReportCsp;
      report(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  return problems;
}

/** A popup opened in a browser of its own, on a profile no test has touched (onboarding shows). */
export interface FreshPopup {
  context: BrowserContext;
  extensionId: string;
  popup: Page;
}

type Fixtures = {
  context: BrowserContext;
  extensionId: string;
  serviceWorker: Worker;
  freshPopup: FreshPopup;
};

/**
 * Runs a test on a launched Chromium; should Chromium exit under it (Playwright then only says "Target
 * page, context or browser has been closed"), the test carries Chromium's own log of why.
 */
async function useChromium(launched: LaunchedChromium, testInfo: TestInfo, run: () => Promise<void>) {
  let exited = false;
  launched.context.on('close', () => {
    exited = true;
  });
  try {
    await run();
  } finally {
    if (exited) {
      await testInfo.attach('chromium-exited.log', {
        body: launched.chromiumLog(),
        contentType: 'text/plain',
      });
    }
    await launched.close();
  }
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  context: async ({}, use, testInfo) => {
    const launched = await launchWithExtension();
    await useChromium(launched, testInfo, () => use(launched.context));
  },
  serviceWorker: async ({ context }, use) => {
    await use(await serviceWorkerOf(context));
  },
  extensionId: async ({ serviceWorker }, use) => {
    await use(extensionIdOf(serviceWorker));
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  freshPopup: async ({}, use, testInfo) => {
    const fresh = await launchWithExtension();
    await useChromium(fresh, testInfo, async () => {
      const { context } = fresh;
      const extensionId = extensionIdOf(await serviceWorkerOf(context));
      const popup = await context.newPage();
      await popup.goto(`chrome-extension://${extensionId}/popup.html`);
      await use({ context, extensionId, popup });
    });
  },
});

export const expect = test.expect;

/** Sends one protocol message from an extension page (a view), as the popup would. */
export async function sendFromView(page: Page, message: unknown): Promise<unknown> {
  return page.evaluate((payload) => {
    type Runtime = { sendMessage(message: unknown): Promise<unknown> };
    return (globalThis as unknown as { chrome: { runtime: Runtime } }).chrome.runtime.sendMessage(payload);
  }, message);
}

/** The quote session as the popup gets it on opening (popupStart), in a message answer's shape. */
export async function quoteSessionAnswer(page: Page): Promise<unknown> {
  const answer = (await sendFromView(page, { type: 'popupStart' })) as {
    ok: boolean;
    result?: { session: unknown };
  };
  return { ok: answer.ok, result: answer.result?.session };
}

/** The swap under way (or the last one) as the popup gets it on opening (popupStart). */
export async function swapAnswer(page: Page): Promise<unknown> {
  const answer = (await sendFromView(page, { type: 'popupStart' })) as {
    ok: boolean;
    result?: { swap: unknown };
  };
  return { ok: answer.ok, result: answer.result?.swap };
}

/**
 * Light and dark: axe finds nothing on `page`, and a screenshot of each into the test's output (and
 * into $SWAPLANE_SCREENS when set, for a person to look at).
 */
export async function checkAndShoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${name} (${scheme})`,
    ).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${scheme}.png`) });
    const screens = process.env.SWAPLANE_SCREENS;
    if (screens) await page.screenshot({ path: `${screens}/${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Resolves once the page has loaded, gone idle and painted a frame: by then a document_idle content
 * script has run on it and its first scan (one animation frame) is done. What a negative check waits
 * for instead of a fixed time.
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestIdleCallback(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), {
          timeout: 2_000,
        }),
      ),
  );
}

/** Points the extension at the devnet and service started by global-setup.ts. */
export async function useEmbeddedDefault(
  page: Page,
): Promise<{ serviceUrl: string; rpcUrls: Record<string, string> }> {
  const serviceUrl = process.env.SWAPLANE_E2E_SERVICE_URL;
  const rpcUrls = JSON.parse(process.env.SWAPLANE_E2E_RPC_URLS ?? 'null') as Record<string, string> | null;
  if (!serviceUrl || !rpcUrls) throw new Error('global-setup.ts did not start the embedded default');
  await patchSettings(page, { serviceBaseUrl: serviceUrl, rpcOverrides: rpcUrls });
  return { serviceUrl, rpcUrls };
}

/**
 * Points the extension at the embedded default and serves `pages` (keyed by origin + path) at their
 * real https URLs through context.route; every other https request gets an empty 204.
 */
export async function serveExplorerPages(
  context: BrowserContext,
  extensionId: string,
  pages: Record<string, string>,
): Promise<void> {
  const settings = await context.newPage();
  await settings.goto(`chrome-extension://${extensionId}/options.html`);
  await useEmbeddedDefault(settings);
  await settings.close();
  await context.route(/^https:\/\//, (route) => {
    const url = new URL(route.request().url());
    const body = route.request().resourceType() === 'document' ? pages[url.origin + url.pathname] : undefined;
    return body
      ? route.fulfill({ contentType: 'text/html; charset=utf-8', body })
      : route.fulfill({ status: 204, body: '' });
  });
}

/** Resolves after two animation frames: the scanner's passes and observers have had their turn. */
export const frames = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
export const E2E_PASSWORD = 'e2e correct horse battery';
/** anvil's first funded account: the imported wallet's first account. */
export const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** The tokens the popup tests pick, in lower case as the pickers' data-token attributes write them. */
export const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
export const USDC = TOKENS.lowercase.USDC;
export const DAI = TOKENS.lowercase.DAI;

/** Imports anvil's funded test wallet through the protocol, as the import screen would. */
export async function importAnvilWallet(page: Page): Promise<void> {
  const answer = (await sendFromView(page, {
    type: 'walletImport',
    kind: 'mnemonic',
    secret: ANVIL_MNEMONIC,
    password: E2E_PASSWORD,
    confirmation: E2E_PASSWORD,
  })) as { ok: boolean; error?: unknown };
  if (!answer.ok) throw new Error(`wallet import failed: ${JSON.stringify(answer.error)}`);
}

// ----- faults (popup-errors.spec.ts, faults.spec.ts) -----

/**
 * What the reference service at `serviceUrl` quotes for `inAmount` wei of ETH into `outToken` on
 * Ethereum at 0.5% slippage, asked directly (not through the extension).
 */
export async function quoteEthDirectly(
  serviceUrl: string,
  outToken: string,
  inAmount: bigint,
): Promise<{ outAmount: string; outDecimals: number }> {
  const response = await fetch(`${serviceUrl}/v1/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      chainId: 1,
      inToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      outToken,
      inAmount: inAmount.toString(),
      slippage: 0.5,
    }),
  });
  const { data } = (await response.json()) as { data: { outAmount: string; outDecimals: number } };
  return data;
}

/** Changes some settings from an extension page (e.g. the service URL or an RPC to a fault proxy). */
export async function patchSettings(page: Page, patch: Record<string, unknown>): Promise<void> {
  const current = (await sendFromView(page, { type: 'getSettings' })) as {
    ok: boolean;
    result: Record<string, unknown>;
  };
  if (!current.ok) throw new Error('could not read settings');
  const answer = (await sendFromView(page, {
    type: 'updateSettings',
    settings: { ...current.result, ...patch },
    confirmTrustChange: true,
  })) as { ok: boolean };
  if (!answer.ok) throw new Error(`could not update settings: ${JSON.stringify(answer)}`);
}

/** The review's tick that trusts a router never used with this service on this network. */
export const TRUST_ROUTER_TICK = 'I trust this router with my swaps on this service';

/** A first swap in a fresh profile: tick the router trust inside the review (before Confirm). */
export async function trustRouterInReview(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: 'Review swap' })
    .getByRole('checkbox', { name: TRUST_ROUTER_TICK })
    .check({ timeout: 30_000 });
}

/**
 * Chooses a token in the popup's "from" or "to" picker by searching for it. The picker is opened from
 * the keyboard (Enter on its button), not by a click at its position: the home's holdings load above
 * the form and move it down, and a click made during that shift landed on a holdings row instead, so
 * the picker never opened (pending-swap.spec, once at load 10). Tests that click it say so themselves.
 */
export async function pickToken(page: Page, picker: 'from' | 'to', query: string, address: string) {
  const button = page.getByTestId(`${picker}-picker`);
  await expect(button).toBeEnabled();
  await button.press('Enter');
  await page.getByLabel(new RegExp(`Search ${picker} token`, 'i')).fill(query);
  await page.locator(`button[data-token="${address.toLowerCase()}"]`).click();
}

/** ETH -> USDC for `amount` on the swap screen, until the quote shows what you receive in USDC. */
export async function quoteEthToUsdc(page: Page, amount: string): Promise<void> {
  await pickToken(page, 'from', 'ETH', ETH);
  await pickToken(page, 'to', 'USDC', USDC);
  await page.getByLabel('Amount').fill(amount);
  await expect(page.getByTestId('quote-out')).toContainText('USDC', { timeout: 20_000 });
}

/** One JSON-RPC call straight to a node (anvil), bypassing the extension and any proxy. */
export async function rpcCall(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * What a user must never see in the popup: exception names, stack frames, status lines, server
 * error codes. Asserted on the visible text of the whole page.
 */
export async function expectNoRawErrors(page: Page): Promise<void> {
  const text = (await page.locator('body').textContent()) ?? '';
  expect(text).not.toMatch(
    /\b\w*Error\b|\bat \S+ \(|:\d+:\d+\)|HTTP \d{3}|\b[A-Z]{2,}_[A-Z_]{2,}\b|undefined|\[object/,
  );
}

/**
 * The usual start of a popup test: the embedded default (with `settings` on top, e.g. a fault
 * proxy's URL), anvil's wallet imported, and a fresh popup tab watched for page problems.
 */
export async function openWalletPopup(
  context: BrowserContext,
  extensionId: string,
  settings: Record<string, unknown> = {},
): Promise<{ popup: Page; popupUrl: string; problems: string[]; rpcUrls: Record<string, string> }> {
  const popupUrl = `chrome-extension://${extensionId}/popup.html`;
  const setup = await setUpWallet(context, extensionId, 'popup.html', settings);
  await setup.page.close();
  const { page: popup, problems } = await openWatched(context, popupUrl);
  return { popup, popupUrl, problems, rpcUrls: setup.rpcUrls };
}

/**
 * openWalletPopup with Ethereum's RPC and the swap service behind the fault proxies; `rpc` is anvil's
 * own URL, for the test's direct reads.
 */
export async function openProxiedPopup(
  context: BrowserContext,
  extensionId: string,
  proxies: { rpcProxy: FaultProxy; serviceProxy: FaultProxy },
) {
  const rpcUrls = JSON.parse(process.env.SWAPLANE_E2E_RPC_URLS ?? '{}') as Record<string, string>;
  const opened = await openWalletPopup(context, extensionId, {
    serviceBaseUrl: proxies.serviceProxy.url,
    rpcOverrides: { ...rpcUrls, '1': proxies.rpcProxy.url },
  });
  return { ...opened, rpc: rpcUrls['1'] ?? '' };
}

/**
 * An extension page (`path`, e.g. options.html) with the extension on the embedded default (with
 * `settings` on top) and anvil's wallet imported through it; the page is left open.
 */
export async function setUpWallet(
  context: BrowserContext,
  extensionId: string,
  path = 'options.html',
  settings: Record<string, unknown> = {},
): Promise<{ page: Page; serviceUrl: string; rpcUrls: Record<string, string> }> {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/${path}`);
  const embedded = await useEmbeddedDefault(page);
  if (Object.keys(settings).length > 0) await patchSettings(page, settings);
  await importAnvilWallet(page);
  return { page, ...embedded };
}

/** A new tab on `url`, watched for page problems from its first load. */
export async function openWatched(
  context: BrowserContext,
  url: string,
): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems = await watchPageProblems(page);
  await page.goto(url);
  return { page, problems };
}

/**
 * A site-access grant made the way a user can outside the permission prompt: chrome://extensions >
 * Details > Site access > "On specific sites" (its `developerPrivate.addHostPermission`). Headless
 * Chromium shows permissions.request's dialog where nothing can answer it (microsoft/playwright#32755);
 * after this grant the extension's real permissions.request resolves true without a dialog.
 */
/** Runs one chrome.developerPrivate call on chrome://extensions (the page behind its Site access menu). */
async function developerPrivate(
  context: BrowserContext,
  call: 'addHostPermission' | 'removeHostPermission' | 'restrict',
  extensionId: string,
  origin = '',
): Promise<void> {
  const page = await context.newPage();
  await page.goto('chrome://extensions');
  const error = await page.evaluate(
    ([kind, id, pattern]) =>
      new Promise<string>((resolve) => {
        type Done = () => void;
        type Dev = {
          addHostPermission(id: string, host: string, done: Done): void;
          removeHostPermission(id: string, host: string, done: Done): void;
          updateExtensionConfiguration(update: { extensionId: string; hostAccess: string }, done: Done): void;
        };
        type Chrome = { developerPrivate: Dev; runtime: { lastError?: { message: string } } };
        const chrome = (globalThis as unknown as { chrome: Chrome }).chrome;
        const done = () => resolve(chrome.runtime.lastError?.message ?? '');
        if (kind === 'restrict') {
          chrome.developerPrivate.updateExtensionConfiguration(
            { extensionId: id as string, hostAccess: 'ON_SPECIFIC_SITES' },
            done,
          );
        } else chrome.developerPrivate[kind as 'addHostPermission'](id as string, pattern as string, done);
      }),
    [call, extensionId, origin],
  );
  expect(error).toBe('');
  await page.close();
}

/**
 * The user sets Swaplane's site access to "On specific sites" (chrome://extensions > Details > Site
 * access). By default the dapp provider's content scripts give Swaplane every site; restricted, each
 * site is granted or revoked one by one, which is where the explorer hosts' permission step matters.
 */
export async function restrictSiteAccess(context: BrowserContext, extensionId: string): Promise<void> {
  await developerPrivate(context, 'restrict', extensionId);
}

/** The user removes one site from Swaplane's "On specific sites" list. */
export async function revokeSiteAccess(
  context: BrowserContext,
  extensionId: string,
  origin: string,
): Promise<void> {
  await developerPrivate(context, 'removeHostPermission', extensionId, origin);
}

export async function grantSiteAccess(
  context: BrowserContext,
  extensionId: string,
  origin: string,
): Promise<void> {
  const page = await context.newPage();
  await page.goto('chrome://extensions');
  const error = await page.evaluate(
    ([id, pattern]) =>
      new Promise<string>((resolve) => {
        type Dev = { addHostPermission(id: string, host: string, done: () => void): void };
        type Chrome = { developerPrivate: Dev; runtime: { lastError?: { message: string } } };
        const chrome = (globalThis as unknown as { chrome: Chrome }).chrome;
        chrome.developerPrivate.addHostPermission(id as string, pattern as string, () =>
          resolve(chrome.runtime.lastError?.message ?? ''),
        );
      }),
    [extensionId, origin],
  );
  expect(error).toBe('');
  await page.close();
}

/** The test with the swap service behind a fault proxy of its own. */
export const serviceProxiedTest = test.extend<{ serviceProxy: FaultProxy }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  serviceProxy: async ({}, use) => {
    const target = process.env.SWAPLANE_E2E_SERVICE_URL;
    if (!target) throw new Error('global-setup.ts did not start the embedded default');
    const proxy = await startFaultProxy(target);
    await use(proxy);
    await proxy.close();
  },
});

/** The test with Ethereum's RPC and the swap service each behind a fault proxy of its own. */
export const proxiedTest = serviceProxiedTest.extend<{ rpcProxy: FaultProxy }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  rpcProxy: async ({}, use) => {
    const rpcUrls = JSON.parse(process.env.SWAPLANE_E2E_RPC_URLS ?? '{}') as Record<string, string>;
    if (!rpcUrls['1']) throw new Error('global-setup.ts did not start the embedded default');
    const proxy = await startFaultProxy(rpcUrls['1']);
    await use(proxy);
    await proxy.close();
  },
});

/**
 * Writes swap history straight into storage.local, as an earlier run recorded it: each entry sealed
 * with the anvil wallet's key, as Swaplane seals what it records (lib/swap/entry-seal.ts). `sealed:
 * false` writes them as an outside writer would, without a seal Swaplane made.
 */
export async function seedHistory(page: Page, entries: unknown[], { sealed = true } = {}): Promise<void> {
  const key = await deriveTrustKey({ mnemonic: ANVIL_MNEMONIC, importedKeys: [] });
  const written = sealed
    ? await Promise.all(
        (entries as HistoryEntry[]).map(async (entry) => ({
          ...entry,
          seal: await fieldMac(key, 'history-entry', historyCore(entry)),
        })),
      )
    : entries;
  await page.evaluate(async (data) => {
    type Area = { set(items: Record<string, unknown>): Promise<void> };
    const local = (globalThis as unknown as { chrome: { storage: { local: Area } } }).chrome.storage.local;
    await local.set({ swapHistory: { v: 1, data } });
  }, written);
}
