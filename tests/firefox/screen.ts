// The smoke's view of Swaplane's pages: by role and visible text, as a person reads them, each label
// in one place here (when a screen's wording changes, this file changes). Puppeteer's ::-p-aria
// selectors read Firefox's accessibility tree (and pierce shadow roots, where the explorer's
// controls live).
import type { ElementHandle, Frame, Page } from 'puppeteer-core';

export const STEP_TIMEOUT_MS = 30_000;
type Scope = Page | Frame;

const aria = (name: string, role?: string) => `::-p-aria(${name}${role ? `[role="${role}"]` : ''})`;

/** Runs one action; when it fails, says which and what the page read then. */
async function act(page: Scope, what: string, action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    const shown = await page.evaluate(() => document.body?.textContent ?? '').catch(() => '(unreadable)');
    throw new Error(
      `${what}: ${error instanceof Error ? error.message : String(error)}; the page read:\n${shown}`,
    );
  }
}

export async function click(page: Scope, name: string, role = 'button'): Promise<void> {
  await act(page, `click ${role} "${name}"`, () =>
    page.locator(aria(name, role)).setTimeout(STEP_TIMEOUT_MS).click(),
  );
}

/** Types `value` into the field labelled `label` (replacing what it held). */
export async function fill(page: Scope, label: string, value: string): Promise<void> {
  await act(page, `fill "${label}"`, async () => {
    const field = (
      await page.waitForFunction(fieldLabelled, { timeout: STEP_TIMEOUT_MS }, label)
    ).asElement();
    if (!field) throw new Error('not a field');
    await (field as ElementHandle<HTMLInputElement>).evaluate((input) => {
      input.focus();
      input.select();
    });
    await field.type(value);
  });
}

/**
 * The input, textarea or select whose label (label[for], a wrapping label, aria-label or
 * aria-labelledby) reads exactly `label`. Runs in the page, so it holds no inner functions (tsx would
 * wrap them in a helper the page does not have).
 */
function fieldLabelled(label: string): Element | null {
  for (const field of document.querySelectorAll('input, textarea, select')) {
    const names = [field.getAttribute('aria-label') ?? ''];
    const ids = field.getAttribute('aria-labelledby')?.split(' ') ?? [];
    names.push(ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '));
    for (const owner of (field as HTMLInputElement).labels ?? []) names.push(owner.textContent ?? '');
    if (names.some((name) => name.replace(/\s+/g, ' ').trim() === label)) return field;
  }
  return null;
}

/** Waits until the element named `name` (with `role`) is on the page; returns it. */
export async function find(page: Scope, name: string, role?: string): Promise<ElementHandle<Element>> {
  const handle = await page.waitForSelector(aria(name, role), { timeout: STEP_TIMEOUT_MS });
  if (!handle) throw new Error(`no ${role ?? 'element'} named "${name}"`);
  return handle;
}

/** Waits until the page's visible text contains `text` (a string or a pattern); returns that text. */
export async function waitForText(page: Scope, text: string | RegExp, timeout = STEP_TIMEOUT_MS) {
  const source = typeof text === 'string' ? { plain: text } : { pattern: text.source, flags: text.flags };
  try {
    await page.waitForFunction(
      (wanted: { plain?: string; pattern?: string; flags?: string }) => {
        const shown = document.body?.textContent ?? '';
        return wanted.plain !== undefined
          ? shown.includes(wanted.plain)
          : new RegExp(wanted.pattern ?? '', wanted.flags).test(shown);
      },
      { timeout, polling: 100 },
      source,
    );
  } catch (error) {
    const shown = await page.evaluate(() => document.body?.textContent ?? '').catch(() => '');
    throw new Error(`"${String(text)}" never showed (${String(error)}); the page read:\n${shown}`);
  }
  return page.evaluate(() => document.body.textContent);
}

/** Waits until the region named `name` holds `text` (a string or a pattern); returns its text. */
export async function waitForRegion(page: Scope, name: string, text: string | RegExp): Promise<string> {
  const region = await find(page, name, 'region');
  const source = typeof text === 'string' ? { plain: text } : { pattern: text.source, flags: text.flags };
  try {
    await page.waitForFunction(
      (element: Element, wanted: { plain?: string; pattern?: string; flags?: string }) => {
        const shown = element.textContent ?? '';
        return wanted.plain !== undefined
          ? shown.includes(wanted.plain)
          : new RegExp(wanted.pattern ?? '', wanted.flags).test(shown);
      },
      { timeout: STEP_TIMEOUT_MS, polling: 100 },
      region,
      source,
    );
  } catch (error) {
    const shown = await region.evaluate((element) => element.textContent).catch(() => '(unreadable)');
    throw new Error(`region "${name}" never held "${String(text)}" (${String(error)}); it read:\n${shown}`);
  }
  return region.evaluate((element) => element.textContent ?? '');
}

// ----- the popup's screens -----

export const popup = {
  /** Fills the import screen; its primary action is `importButton`. */
  async fillImport(page: Page, phrase: string, password: string): Promise<void> {
    await click(page, 'Import a recovery phrase or private key');
    await fill(page, 'Recovery phrase (12 or 24 words)', phrase);
    await fill(page, 'New password (at least 8 characters)', password);
    await fill(page, 'Confirm password', password);
  },
  importButton: 'Import',
  createButton: 'Create a new wallet',
  copyPhraseButton: 'Copy',
  phraseCopied: 'clears it from the clipboard in 30 seconds',
  async unlock(page: Page, password: string): Promise<void> {
    await fill(page, 'Password', password);
    await click(page, 'Unlock');
  },
  /** Chooses a token in the "From" or "To" picker by searching for it. */
  async pickToken(page: Page, picker: 'From' | 'To', query: string, address: string): Promise<void> {
    const search = `Search ${picker} token by symbol, name or address`;
    // The home's holdings fold to one line as the form fills, which can move the picker's button
    // under a click already aimed (seen once in CI: no picker opened): click again, at most twice.
    for (let attempt = 1; attempt <= 3; attempt++) {
      await page.locator(`[data-testid="${picker.toLowerCase()}-picker"]`).click();
      const opened = await page
        .waitForFunction(fieldLabelled, { timeout: 5_000 }, search)
        .then(() => true)
        .catch(() => false);
      if (opened) break;
    }
    await fill(page, search, query);
    await page.locator(`button[data-token="${address.toLowerCase()}"]`).setTimeout(STEP_TIMEOUT_MS).click();
  },
  async enterAmount(page: Page, amount: string): Promise<void> {
    await fill(page, 'Amount', amount);
  },
  reviewButton: 'Review swap',
  confirmButton: 'Confirm swap',
  /** A tick in the review that trusts the swap's router, when the review asks for one (unticked). */
  async tickRouterTrustIfShown(page: Page): Promise<void> {
    const tick = await page.evaluateHandle(() =>
      [...document.querySelectorAll('[role="dialog"] label')]
        .filter((label) => /trust/i.test(label.textContent ?? ''))
        .map((label) => label.querySelector('input[type="checkbox"]') ?? (label as HTMLLabelElement).control)
        .find((input) => input instanceof HTMLInputElement && input.type === 'checkbox' && !input.checked),
    );
    const element = tick.asElement();
    if (element) await (element as ElementHandle<HTMLInputElement>).click();
  },
  swapDone: /Swap confirmed|Swapped/,
  async done(page: Page): Promise<void> {
    await click(page, 'Done');
  },
  async openActivity(page: Page): Promise<string> {
    await click(page, 'Activity');
    return waitForText(page, 'Swap 1 ETH →');
  },
};

// ----- the approval window -----

export const approval = {
  connectButton: 'Connect',
  signButton: 'Sign',
  confirmButton: 'Confirm',
  connect: (page: Page) => click(page, 'Connect'),
  sign: (page: Page) => click(page, 'Sign'),
  confirm: (page: Page) => click(page, 'Confirm'),
  signHeading: 'Sign this message?',
  typedDataHeading: 'Sign this data?',
  transactionHeading: 'Confirm this transaction?',
  waitingRegion: 'Waiting requests',
  oneMoreWaiting: '1 more request waiting',
};

// ----- the explorer page -----

export const explorer = {
  swapButton: 'Swap',
  card: 'Swaplane quote',
};
