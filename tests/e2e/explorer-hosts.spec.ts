// Explorer hosts the user adds on the options page: the optional host permission, the content script
// registered at run time (the manifest's own file), the chain the background names for the host, the
// configurable one-click amount; all in the built extension against the devnet + reference service.
//
// The permission prompt: headless Chromium shows chrome.permissions.request's dialog where nothing can
// answer it (no CDP target; Playwright has no API for it: microsoft/playwright#32755), and the request
// stays pending. So the test grants the site the way a user can outside the prompt: chrome://extensions
// > Details > Site access > "On specific sites" > Add, i.e. the page's own chrome.developerPrivate
// .addHostPermission. The options page then calls the real permissions.request from the real click,
// which Chromium resolves `true` without a dialog because the user already granted that site.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page, Route } from '@playwright/test';
import { formatAmount } from '../../lib/amounts/index.ts';
import { ETH, fixtureHtml, PAGES } from '../fixtures/explorer/pages.ts';
import {
  expect,
  grantSiteAccess,
  pageSettled,
  quoteEthDirectly,
  restrictSiteAccess,
  revokeSiteAccess,
  stopServiceWorker,
  test,
  useEmbeddedDefault,
  WORKER_STOP_RETRIES,
  watchPageProblems,
} from './fixtures';
import { EXTENSION_PATH } from './launch';

test.describe.configure({ retries: WORKER_STOP_RETRIES });

const HOST = 'explorer.example.org';
const TOKEN_PAGE = `https://${HOST}/token/${ETH.usdc}`;
const BUTTON = 'swaplane-swap';

/** The Etherscan token-page fixture, served at the user's own explorer host. */
async function serve(route: Route): Promise<void> {
  if (route.request().resourceType() !== 'document') return route.fulfill({ status: 204, body: '' });
  const url = new URL(route.request().url());
  const body =
    url.pathname === new URL(TOKEN_PAGE).pathname
      ? fixtureHtml(PAGES.token.file)
      : `<!doctype html><title>landed</title><h1 id="landed">${url.pathname}</h1>`;
  return route.fulfill({ contentType: 'text/html; charset=utf-8', body });
}

async function extensionEval<T>(page: Page, script: string): Promise<T> {
  return page.evaluate(script) as Promise<T>;
}

/**
 * Site access set to "On specific sites", every https page answered empty but HOST's, which serves
 * the token page fixture; gives a new tab for the options page.
 */
async function restrictAndServeHost(context: BrowserContext, extensionId: string): Promise<Page> {
  await restrictSiteAccess(context, extensionId);
  await context.route(/^https:\/\//, (route) => route.fulfill({ status: 204, body: '' }));
  await context.route(`https://${HOST}/**`, serve);
  return context.newPage();
}

async function expectNoButtons(tab: Page): Promise<void> {
  await tab.goto(TOKEN_PAGE);
  await expect(tab.locator('h1')).toContainText('USDC'); // the fixture was served
  await pageSettled(tab);
  expect(await tab.locator(BUTTON).count()).toBe(0);
}

test('a host added in settings gets buttons and quotes on its chain; removing it takes them away', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const options = await restrictAndServeHost(context, extensionId);
  const problems = await watchPageProblems(options);
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  const { serviceUrl } = await useEmbeddedDefault(options);
  await options.reload();
  const tab = await context.newPage();

  // Not an explorer yet: the manifest's hosts don't cover it and nothing is registered.
  await expectNoButtons(tab);

  // Look-alikes of built-ins are refused before anything is asked.
  const hostField = options.getByLabel('Explorer host', { exact: true });
  const status = options.getByTestId('explorer-hosts-status');
  await hostField.fill('etherscan.io.evil.com');
  await options.getByRole('button', { name: 'Add explorer' }).click();
  await expect(status).toContainText('contains the built-in etherscan.io');

  // A configured one-click amount (saved with the form).
  await options.getByLabel('One-click quote amount (native coin)').fill('0.25');
  await options.getByRole('button', { name: 'Save' }).click();
  await expect(options.getByTestId('settings-status')).toHaveText('Saved.');

  await grantSiteAccess(context, extensionId, `https://${HOST}/*`);
  await hostField.fill('Explorer.Example.org');
  await options.getByLabel('Chain', { exact: true }).selectOption({ label: 'Ethereum (1)' });
  await options.getByRole('button', { name: 'Add explorer' }).click();
  await expect(status).toHaveText(`Added ${HOST} (Ethereum).`);
  await expect(options.getByRole('list', { name: 'Added explorer sites' })).toContainText(
    `${HOST} · Ethereum`,
  );

  // The registration: the manifest's own explorer content-script file, persistent, for exactly this host.
  const manifest = JSON.parse(readFileSync(path.join(EXTENSION_PATH, 'manifest.json'), 'utf8')) as {
    content_scripts: { js: string[] }[];
  };
  const registered = await extensionEval<
    { id: string; matches: string[]; js: string[]; persistAcrossSessions: boolean }[]
  >(options, 'chrome.scripting.getRegisteredContentScripts()');
  expect(registered).toEqual([
    expect.objectContaining({
      id: `explorer-host:${HOST}`,
      matches: [`https://${HOST}/*`],
      js: manifest.content_scripts.find((entry) => entry.js.some((file) => file.endsWith('/explorer.js')))
        ?.js,
      persistAcrossSessions: true,
    }),
  ]);

  // Buttons on the user's host, on its chain, and the one-click quote for the configured 0.25 ETH.
  await tab.goto(TOKEN_PAGE);
  const title = tab.locator(`h1 + ${BUTTON}`);
  await expect(title).toHaveAttribute('data-swaplane-chain', '1');
  await expect(title).toHaveAttribute('data-swaplane-token', ETH.usdc);
  const data = await quoteEthDirectly(serviceUrl, ETH.usdc, 25n * 10n ** 16n);
  await title.getByRole('button', { name: 'Swap', exact: true }).click();
  await expect(title.getByRole('dialog')).toContainText(
    `0.25 ETH ≈ ${formatAmount(BigInt(data.outAmount), data.outDecimals)} USDC`,
    { timeout: 20_000 },
  );

  // A restarted worker re-syncs and keeps the registration; the page still gets its buttons.
  await stopServiceWorker(context, options, extensionId);
  await tab.reload();
  await expect(tab.locator(`h1 + ${BUTTON}`)).toHaveAttribute('data-swaplane-chain', '1');

  // Removing the host unregisters the script. The site access itself stays: the dapp provider's
  // content scripts make every site's access a required permission, which permissions.remove refuses.
  await options.getByRole('button', { name: `Remove ${HOST}` }).click();
  await expect(status).toHaveText(`Removed ${HOST}.`);
  expect(await extensionEval(options, 'chrome.scripting.getRegisteredContentScripts()')).toEqual([]);
  await expectNoButtons(tab);
  expect(problems).toEqual([]);
});

test('access revoked in the browser: the script is unregistered and the options page offers to grant it again', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const options = await restrictAndServeHost(context, extensionId);
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await useEmbeddedDefault(options);
  await grantSiteAccess(context, extensionId, `https://${HOST}/*`);
  await options.reload();
  await options.getByLabel('Explorer host', { exact: true }).fill(HOST);
  await options.getByLabel('Chain', { exact: true }).selectOption({ label: 'Base (8453)' });
  await options.getByRole('button', { name: 'Add explorer' }).click();
  await expect(options.getByTestId('explorer-hosts-status')).toHaveText(`Added ${HOST} (Base).`);

  // The user takes the access back outside Swaplane (here through the API the browser's UI uses).
  await revokeSiteAccess(context, extensionId, `https://${HOST}/*`);
  await expect
    .poll(() => extensionEval(options, 'chrome.scripting.getRegisteredContentScripts()'))
    .toEqual([]);
  await expect(options.getByRole('button', { name: `Grant access to ${HOST}` })).toBeVisible();
  const tab = await context.newPage();
  await expectNoButtons(tab);

  // Granted again: the script comes back (permissions.onAdded) and the page gets its buttons.
  // Granted again from the browser's Site access menu: permissions.onAdded re-registers the script and
  // the options page drops its Grant button without a click.
  await grantSiteAccess(context, extensionId, `https://${HOST}/*`);
  await expect
    .poll(() => extensionEval<unknown[]>(options, 'chrome.scripting.getRegisteredContentScripts()'))
    .toHaveLength(1);
  await expect(options.getByRole('button', { name: `Grant access to ${HOST}` })).toHaveCount(0);
  await tab.goto(TOKEN_PAGE);
  await expect(tab.locator(`h1 + ${BUTTON}`)).toHaveAttribute('data-swaplane-chain', '8453');
});
