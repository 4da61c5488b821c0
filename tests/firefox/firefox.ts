// Firefox ESR with the built Firefox extension (.output/firefox-mv3), driven by puppeteer-core over
// WebDriver BiDi (no geckodriver in Debian; Playwright's Firefox is a patched build it downloads).
// The add-on is installed as a temporary add-on under a fixed UUID, so its pages have a known
// moz-extension:// origin; extension pages' console and errors reach Firefox's stdout only (not
// puppeteer's events), so every line is read from there and kept for the final check.
import { existsSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const FIREFOX_EXTENSION_PATH = path.resolve('.output/firefox-mv3');
const GECKO_ID = 'swaplane@swaplane.dev';
/** Any fixed UUID: the extension's origin is moz-extension://<this>. */
export const EXTENSION_UUID = '5c0ffee0-5a1e-4a9e-8d2c-0123456789ab';
export const EXTENSION_ORIGIN = `moz-extension://${EXTENSION_UUID}`;
/** Seconds of idleness before Firefox unloads the extension's event page (its default is 30). */
export const BACKGROUND_IDLE_SECONDS = 3;

export interface Firefox {
  browser: Browser;
  version: string;
  /** Errors from extension pages and web pages that Firefox printed, one per line, in order. */
  problems: string[];
  /** Every line Firefox printed, in order (for a failure's report). */
  output: string[];
  close(): Promise<void>;
}

/**
 * What on Firefox's stdout counts as an error of ours: a console.error/warn of any page (extension
 * page, background, content script or test page: Firefox's own chrome code logs without quotes) or
 * an uncaught error in a moz-extension:// or http(s) document.
 */
export function isPageProblem(line: string): boolean {
  if (/^JavaScript (error|warning): (moz-extension|https?):\/\//.test(line)) return true;
  return /^console\.(error|warn): "/.test(line);
}

export async function launchFirefox(): Promise<Firefox> {
  if (!existsSync(path.join(FIREFOX_EXTENSION_PATH, 'manifest.json'))) {
    throw new Error(`No Firefox build at ${FIREFOX_EXTENSION_PATH}: run \`wxt build -b firefox\` first.`);
  }
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    protocol: 'webDriverBiDi',
    headless: true,
    // Navigating to moz-extension:// pages over BiDi.
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: EXTENSION_UUID }),
      'devtools.console.stdout.content': true,
      'extensions.background.idle.timeout': BACKGROUND_IDLE_SECONDS * 1000,
    },
  });
  const output: string[] = [];
  const problems: string[] = [];
  const process = browser.process();
  let pending = '';
  const read = (chunk: Buffer) => {
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      output.push(line);
      if (isPageProblem(line)) problems.push(line);
    }
  };
  process?.stdout?.on('data', read);
  process?.stderr?.on('data', read);
  const version = (await browser.version()).trim();
  const installed = await browser.installExtension(FIREFOX_EXTENSION_PATH);
  if (installed !== GECKO_ID) throw new Error(`installed ${installed}, expected ${GECKO_ID}`);
  return { browser, version, problems, output, close: () => browser.close() };
}

/**
 * Navigates to `url` and waits for its load. page.goto waits for events Firefox does not send for
 * moz-extension:// pages; BiDi's browsingContext.navigate(url, 'complete') returns on load.
 */
export async function navigate(page: Page, url: string): Promise<void> {
  const frame = page.mainFrame() as unknown as {
    browsingContext: { navigate(url: string, wait: 'complete'): Promise<void> };
  };
  await frame.browsingContext.navigate(url, 'complete');
}

/** A new tab at 360x600 on an extension page (`popup.html`, `options.html`). */
export async function openExtensionPage(browser: Browser, file: string): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 360, height: 600 });
  await navigate(page, `${EXTENSION_ORIGIN}/${file}`);
  return page;
}

/** Sends one protocol message from an extension page, as the popup does. */
export async function sendFromPage(page: Page, message: unknown): Promise<unknown> {
  return page.evaluate(
    (payload) =>
      (
        globalThis as unknown as { browser: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }
      ).browser.runtime.sendMessage(payload),
    message as never,
  );
}

// ----- the extension as Firefox's parent process sees it (chrome scope; --remote-allow-system-access) -----

/** Runs `expression` (privileged JavaScript, awaited) in the browser window's chrome context. */
async function evaluateInChrome(firefox: Firefox, expression: string): Promise<unknown> {
  type Connection = { send(method: string, params: unknown): Promise<{ result: unknown }> };
  const connection = (firefox.browser as unknown as { connection: Connection }).connection;
  const tree = (await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' })).result as {
    contexts: { context: string }[];
  };
  const context = tree.contexts[0]?.context;
  if (!context) throw new Error('no chrome browsing context');
  const answer = (
    await connection.send('script.evaluate', { target: { context }, awaitPromise: true, expression })
  ).result as { type: string; result?: { value?: unknown }; exceptionDetails?: { text: string } };
  if (answer.type !== 'success')
    throw new Error(`chrome evaluation failed: ${answer.exceptionDetails?.text}`);
  return answer.result?.value;
}

const EXTENSION = `ChromeUtils.importESModule('resource://gre/modules/ExtensionParent.sys.mjs').ExtensionParent.GlobalManager.getExtension('${GECKO_ID}')`;

/** The event page's state in Firefox: 'running', 'suspending' or 'stopped' (unloaded). */
export async function backgroundState(firefox: Firefox): Promise<string> {
  return String(await evaluateInChrome(firefox, `String(${EXTENSION}.backgroundState)`));
}

/**
 * The keys of the extension's storage.session and whether each holds null, read in the parent
 * process: a look that neither wakes the background nor runs any of its code.
 */
export async function sessionStorageShape(firefox: Firefox): Promise<Record<string, 'null' | 'value'>> {
  const json = await evaluateInChrome(
    firefox,
    `JSON.stringify(Object.fromEntries(Object.entries(ChromeUtils.importESModule('resource://gre/modules/ExtensionStorage.sys.mjs').extensionStorageSession.get(${EXTENSION}, null) ?? {}).map(([key, value]) => [key, value === null ? 'null' : 'value'])))`,
  );
  return JSON.parse(String(json)) as Record<string, 'null' | 'value'>;
}

/** Waits until Firefox has unloaded the idle event page (BACKGROUND_IDLE_SECONDS after its last use). */
export async function waitForBackgroundStopped(firefox: Firefox, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let state = await backgroundState(firefox);
  while (state !== 'stopped') {
    if (Date.now() > deadline) throw new Error(`the event page is still ${state} after ${timeoutMs / 1000}s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    state = await backgroundState(firefox);
  }
}
