// Dapp e2e support: a static server on loopback for real dapps (MetaMask's test dapp ships as
// static files), a page guard that keeps every request on this machine, and the approval window.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, type Frame, type Locator, type Page } from '@playwright/test';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

export interface StaticSite {
  url: string;
  close(): Promise<void>;
}

/** Serves `root` (and any extra in-memory files) on 127.0.0.1 at a free port. */
export async function serveStatic(root: string, extra: Record<string, string> = {}): Promise<StaticSite> {
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const name = pathname === '/' ? '/index.html' : pathname;
    const inline = extra[name];
    if (inline !== undefined) {
      response.writeHead(200, { 'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream' });
      response.end(inline);
      return;
    }
    const file = path.join(root, path.normalize(name));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** No test reaches the internet: the test dapp's CDN stylesheets and fonts are refused. */
export async function keepOnLoopback(page: Page): Promise<void> {
  await page.route(
    (url) => !/^(127\.0\.0\.1|localhost)$/.test(url.hostname) && url.protocol.startsWith('http'),
    (route) => route.abort(),
  );
}

/** The approval window the extension opens next (a popup window: a new page of the context). */
export async function nextApprovalWindow(context: BrowserContext, extensionId: string): Promise<Page> {
  const page = await context.waitForEvent('page', {
    predicate: (candidate) => candidate.url().startsWith(`chrome-extension://${extensionId}/approve.html`),
  });
  await page.waitForLoadState('domcontentloaded');
  return page;
}

export type PageAnswer = { result: unknown } | { error: { code: number; message: string } };

/** A request through the provider the page discovers by EIP-6963 (rdns app.swaplane), as a dapp would. */
export async function providerRequest(
  page: Page | Frame,
  method: string,
  params?: unknown,
): Promise<PageAnswer> {
  return page.evaluate(
    async ([method, params]) => {
      type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> };
      const provider = await new Promise<Provider>((resolve) => {
        window.addEventListener('eip6963:announceProvider', (event) => {
          const detail = (event as CustomEvent).detail as { info: { rdns: string }; provider: Provider };
          if (detail.info.rdns === 'app.swaplane') resolve(detail.provider);
        });
        window.dispatchEvent(new Event('eip6963:requestProvider'));
      });
      return provider.request({ method: method as string, ...(params === undefined ? {} : { params }) }).then(
        (result) => ({ result }),
        (error: { code: number; message: string }) => ({
          error: { code: error.code, message: error.message },
        }),
      );
    },
    [method, params] as const,
  );
}

/**
 * Starts requests without waiting: each settles into window.__answers[name] (read with `answerOf`),
 * so a test can look at the approval window while the page still waits.
 */
export async function startRequests(
  page: Page | Frame,
  requests: { name: string; method: string; params?: unknown }[],
): Promise<void> {
  await page.evaluate(async (list) => {
    type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> };
    const holder = window as unknown as { __answers?: Record<string, unknown> };
    holder.__answers ??= {};
    const answers = holder.__answers;
    const provider = await new Promise<Provider>((resolve) => {
      window.addEventListener('eip6963:announceProvider', (event) => {
        const detail = (event as CustomEvent).detail as { info: { rdns: string }; provider: Provider };
        if (detail.info.rdns === 'app.swaplane') resolve(detail.provider);
      });
      window.dispatchEvent(new Event('eip6963:requestProvider'));
    });
    for (const { name, method, params } of list) {
      provider.request({ method, ...(params === undefined ? {} : { params }) }).then(
        (result) => {
          answers[name] = { result };
        },
        (error: { code: number; message: string }) => {
          answers[name] = { error: { code: error.code, message: error.message } };
        },
      );
    }
  }, requests);
}

/** The answer of a request started with `startRequests`, or null while it waits. */
export async function answerOf(page: Page | Frame, name: string): Promise<PageAnswer | null> {
  return page.evaluate(
    (key) =>
      ((window as unknown as { __answers?: Record<string, unknown> }).__answers?.[key] ?? null) as never,
    name,
  );
}

/**
 * Clicks a button that closes its own window (Connect, Sign, Confirm, Reject on the last request) and
 * waits for the close. On a loaded machine the close can come before the browser acknowledges the
 * click, and Playwright's click then fails with "Target page ... closed": that, and only that, is
 * the click's success here.
 */
export async function clickClosing(window: Page, button: Locator): Promise<void> {
  const closed = window.waitForEvent('close');
  await button.click().catch((error: unknown) => {
    if (!window.isClosed()) throw error;
  });
  await closed;
}

/** A page of a given origin with nothing on it but what the test runs. */
export const BLANK_PAGE =
  '<!doctype html><html lang="en"><head><title>Some page</title></head><body><h1>Some page</h1></body></html>';

/** Connects `page` through the window (approving it) and returns the accounts the page got. */
export async function connectPage(
  page: Page,
  context: BrowserContext,
  extensionId: string,
): Promise<unknown> {
  const approval = nextApprovalWindow(context, extensionId);
  await startRequests(page, [{ name: 'connect', method: 'eth_requestAccounts' }]);
  const window = await approval;
  await clickClosing(window, window.getByRole('button', { name: 'Connect' }));
  await expect.poll(() => answerOf(page, 'connect')).not.toBeNull();
  return answerOf(page, 'connect');
}

/** Axe's violations on an approval window, as readable lines (none expected). */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  // Guards against axe silently not running (e.g. blocked by the extension page's CSP).
  expect(results.passes.length).toBeGreaterThan(5);
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} -> ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
