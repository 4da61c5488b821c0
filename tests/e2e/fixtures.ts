import { type BrowserContext, test as base, type Page, type Worker } from '@playwright/test';
import { extensionIdOf, launchWithExtension, serviceWorkerOf } from './launch';

export { extensionIdOf, launchWithExtension, serviceWorkerOf };

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

type Fixtures = { context: BrowserContext; extensionId: string; serviceWorker: Worker };

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring.
  context: async ({}, use) => {
    const launched = await launchWithExtension();
    await use(launched.context);
    await launched.close();
  },
  serviceWorker: async ({ context }, use) => {
    await use(await serviceWorkerOf(context));
  },
  extensionId: async ({ serviceWorker }, use) => {
    await use(extensionIdOf(serviceWorker));
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

/** Points the extension at the devnet and service started by global-setup.ts. */
export async function useEmbeddedDefault(
  page: Page,
): Promise<{ serviceUrl: string; rpcUrls: Record<string, string> }> {
  const serviceUrl = process.env.SWAPLANE_E2E_SERVICE_URL;
  const rpcUrls = JSON.parse(process.env.SWAPLANE_E2E_RPC_URLS ?? 'null') as Record<string, string> | null;
  if (!serviceUrl || !rpcUrls) throw new Error('global-setup.ts did not start the embedded default');
  const current = (await sendFromView(page, { type: 'getSettings' })) as {
    ok: boolean;
    result: Record<string, unknown>;
  };
  if (!current.ok) throw new Error('could not read settings');
  const answer = (await sendFromView(page, {
    type: 'updateSettings',
    settings: { ...current.result, serviceBaseUrl: serviceUrl, rpcOverrides: rpcUrls },
  })) as { ok: boolean };
  if (!answer.ok) throw new Error(`could not update settings: ${JSON.stringify(answer)}`);
  return { serviceUrl, rpcUrls };
}
