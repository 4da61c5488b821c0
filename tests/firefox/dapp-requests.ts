// How the Firefox smoke's dapp page asks Swaplane and finds the window that answers: a provider
// request started on the page, the approval window it opens (which must come to the front), and
// the page's answer once the window is answered.
import type { Browser, Page } from 'puppeteer-core';
import { EXTENSION_ORIGIN } from './firefox.ts';
import { STEP_TIMEOUT_MS } from './screen.ts';

/**
 * The window Swaplane opened on `file`, among pages not in `before`. Firefox reports a window that
 * an extension opens on a moz-extension:// page as about:blank to BiDi, so each page is asked.
 */
export async function newExtensionWindow(browser: Browser, before: Set<Page>, file: string): Promise<Page> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    for (const candidate of await browser.pages()) {
      if (before.has(candidate)) continue;
      const href = await candidate.evaluate(() => location.href).catch(() => '');
      if (href.startsWith(`${EXTENSION_ORIGIN}/${file}`)) return candidate;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no new window on ${file} within ${STEP_TIMEOUT_MS / 1000}s`);
}

/** Starts a provider request on the dapp page and answers the approval window Swaplane opens. */
export async function askAndApprove(
  browser: Browser,
  page: Page,
  request: { name: string; method: string; params?: unknown[] },
  approve: (window: Page) => Promise<void>,
): Promise<unknown> {
  const before = new Set(await browser.pages());
  // Started, not awaited: the request settles only once the window is answered.
  await ask(page, request);
  const prompt = await newExtensionWindow(browser, before, 'approve.html').catch(async (error) => {
    throw new Error(
      `no approval window for ${request.method} (${String(error)}); answers: ${await answers(page)}`,
    );
  });
  await expectInFront(prompt, page, `the approval window for ${request.method}`);
  await approve(prompt);
  return answerOf(page, request.name);
}

/**
 * The approval window is the focused one and the dapp's tab is not: a window opened behind the
 * browser is a request the user never sees. document.hasFocus() is true only in the active window's
 * selected tab (it turns false when the dapp's tab is brought to the front).
 */
export async function expectInFront(prompt: Page, dappPage: Page, what: string): Promise<void> {
  const focused = await prompt
    .waitForFunction(() => document.hasFocus(), { timeout: FOCUS_TIMEOUT_MS, polling: 100 })
    .then(() => true)
    .catch(() => false);
  if (!focused) throw new Error(`${what} is not in front: it does not have the focus`);
  if (await dappPage.evaluate(() => document.hasFocus()))
    throw new Error(`${what} is open but the dapp's tab still has the focus`);
}

/** Focus moves within a second; a window still unfocused after this never came to the front. */
export const FOCUS_TIMEOUT_MS = 5_000;

/** The pages showing Swaplane's approval window (Firefox names them about:blank to BiDi). */
export async function approvalWindows(browser: Browser): Promise<Page[]> {
  const found: Page[] = [];
  for (const candidate of await browser.pages()) {
    const href = await candidate.evaluate(() => location.href).catch(() => '');
    if (href.startsWith(`${EXTENSION_ORIGIN}/approve.html`)) found.push(candidate);
  }
  return found;
}

export async function ask(page: Page, request: { name: string; method: string; params?: unknown[] }) {
  await page.evaluate(
    (name, method, params) => {
      void (window as unknown as { ask: (...a: unknown[]) => Promise<void> }).ask(name, method, params);
    },
    request.name,
    request.method,
    request.params as never,
  );
}

function answers(page: Page): Promise<string> {
  return page.evaluate(() => JSON.stringify((window as unknown as { answers: unknown }).answers));
}

export async function answerOf(page: Page, name: string): Promise<unknown> {
  const answer = await page.waitForFunction(
    (wanted: string) => (window as unknown as { answers: Record<string, unknown> }).answers[wanted],
    { timeout: STEP_TIMEOUT_MS },
    name,
  );
  return answer.jsonValue();
}
