// Pages are hostile (SECURITY.md, "Web pages and the in-page provider"): through the built
// extension, a page cannot read accounts before connecting, cannot sign or send without the
// window, cannot pass for another origin, cannot flood the queue; closing the window rejects
// with 4001, a locked wallet answers [] and asks for the password in the window.
import type { BrowserContext, Frame, Page } from '@playwright/test';
import {
  answerOf,
  axeViolations,
  BLANK_PAGE,
  clickClosing,
  connectPage,
  nextApprovalWindow,
  providerRequest,
  type StaticSite,
  serveStatic,
  startRequests,
} from './dapp/support';
import { ACCOUNT, expect, sendFromView, setUpWallet, test } from './fixtures';

const HELLO = '0x48656c6c6f'; // "Hello"

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveStatic('/nonexistent', { '/index.html': BLANK_PAGE });
});
test.afterAll(async () => site.close());

// Two origins served by the same server: 127.0.0.1:port and localhost:port.
const originA = () => site.url;
const originB = () => site.url.replace('127.0.0.1', 'localhost');

async function setUp(context: BrowserContext, extensionId: string) {
  return (await setUpWallet(context, extensionId)).page;
}

/** A tab on `origin` (originA() unless said), open on the blank page. */
async function openSite(context: BrowserContext, origin = originA()) {
  const page = await context.newPage();
  await page.goto(`${origin}/index.html`);
  return page;
}

/** The wallet set up, and a tab on originA() connected to it (the user approved). */
async function setUpConnected(context: BrowserContext, extensionId: string) {
  const setup = await setUp(context, extensionId);
  const page = await openSite(context);
  await connectPage(page, context, extensionId);
  return { setup, page };
}

const approvalWindows = (context: BrowserContext, extensionId: string) =>
  context.pages().filter((page) => page.url().startsWith(`chrome-extension://${extensionId}/approve.html`));

/**
 * The approval windows as the browser's windows API reports them (read from an extension page):
 * how many are open, and whether the one open is the focused window, the one in front.
 */
async function approvalWindowFocus(extensionPage: Page, extensionId: string) {
  return extensionPage.evaluate(async (url) => {
    type Window = { id?: number; focused: boolean; tabs?: { url?: string }[] };
    type Windows = {
      getAll(info: { populate: boolean }): Promise<Window[]>;
      getLastFocused(): Promise<Window>;
    };
    const { windows } = (globalThis as unknown as { chrome: { windows: Windows } }).chrome;
    const open = (await windows.getAll({ populate: true })).filter((window) =>
      window.tabs?.some((tab) => tab.url?.startsWith(url)),
    );
    const last = await windows.getLastFocused();
    return { open: open.length, inFront: open[0]?.focused === true && open[0]?.id === last.id };
  }, `chrome-extension://${extensionId}/approve.html`);
}

test('an unconnected page reads no account and cannot sign or send: 4100, and no window opens', async ({
  context,
  extensionId,
}) => {
  await setUp(context, extensionId);
  const page = await openSite(context);
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ result: [] });
  expect(await providerRequest(page, 'eth_chainId')).toEqual({ result: '0x1' });
  expect(await providerRequest(page, 'personal_sign', [HELLO, ACCOUNT])).toMatchObject({
    error: { code: 4100 },
  });
  expect(
    await providerRequest(page, 'eth_signTypedData_v4', [
      ACCOUNT,
      JSON.stringify({ types: {}, message: {} }),
    ]),
  ).toMatchObject({ error: { code: 4100 } });
  expect(
    await providerRequest(page, 'eth_sendTransaction', [{ from: ACCOUNT, to: ACCOUNT, value: '0x1' }]),
  ).toMatchObject({ error: { code: 4100 } });
  // Methods outside the allowlist: 4200, whatever the page says.
  expect(await providerRequest(page, 'eth_sign', [ACCOUNT, HELLO])).toMatchObject({ error: { code: 4200 } });
  expect(await providerRequest(page, 'eth_sendRawTransaction', ['0x00'])).toMatchObject({
    error: { code: 4200 },
  });
  expect(approvalWindows(context, extensionId)).toEqual([]);
  // Read-only calls are served from the chain's configured RPC.
  expect(await providerRequest(page, 'eth_blockNumber')).toMatchObject({
    result: expect.stringMatching(/^0x/),
  });
});

test('signing waits for the window; closing the window rejects with 4001', async ({
  context,
  extensionId,
}) => {
  await setUp(context, extensionId);
  const page = await openSite(context);
  expect(await connectPage(page, context, extensionId)).toEqual({ result: [ACCOUNT] });

  const approval = nextApprovalWindow(context, extensionId);
  await startRequests(page, [{ name: 'sign', method: 'personal_sign', params: [HELLO, ACCOUNT] }]);
  const prompt = await approval;
  await expect(prompt.getByRole('heading', { name: 'Sign this message?' })).toBeVisible();
  await expect(prompt.getByRole('region', { name: 'Message' })).toContainText('Hello');
  await expect(prompt.getByRole('region', { name: 'Requesting site' })).toContainText(originA());
  // Nothing is signed while the window waits.
  expect(await answerOf(page, 'sign')).toBeNull();
  await prompt.close();
  await expect.poll(() => answerOf(page, 'sign')).toMatchObject({ error: { code: 4001 } });

  // "Reject" rejects too.
  const again = nextApprovalWindow(context, extensionId);
  await startRequests(page, [{ name: 'sign2', method: 'personal_sign', params: [HELLO, ACCOUNT] }]);
  const second = await again;
  await second.getByRole('button', { name: 'Reject' }).click();
  await expect.poll(() => answerOf(page, 'sign2')).toMatchObject({ error: { code: 4001 } });
});

test('a frame of another site asks as itself: the window names the frame and the page around it, shows every signed domain field, and only the frame is connected', async ({
  context,
  extensionId,
}) => {
  await setUp(context, extensionId);
  const page = await openSite(context);
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    frame.title = 'Embedded app';
    document.body.append(frame);
  }, `${originB()}/index.html`);
  await expect.poll(() => page.frames().some((each) => each.url().startsWith(originB()))).toBe(true);
  const embedded = page.frames().find((each) => each.url().startsWith(originB())) as Frame;
  await embedded.waitForLoadState();

  const approval = nextApprovalWindow(context, extensionId);
  await startRequests(embedded, [{ name: 'connect', method: 'eth_requestAccounts' }]);
  const prompt = await approval;
  const asking = prompt.getByRole('region', { name: 'Requesting site' });
  await expect(asking).toContainText(`${originB()} asks for a connection`);
  await expect(asking).toContainText(
    `It asks from a frame inside ${originA()}. Your answer is for ${originB()} only.`,
  );
  for (const colorScheme of ['light', 'dark'] as const) {
    await prompt.emulateMedia({ colorScheme });
    expect(await axeViolations(prompt)).toEqual([]);
  }
  for (const height of [600, 480]) {
    await prompt.setViewportSize({ width: 360, height });
    expect(await prompt.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  }
  await clickClosing(prompt, prompt.getByRole('button', { name: 'Connect' }));
  await expect.poll(() => answerOf(embedded, 'connect')).toEqual({ result: [ACCOUNT] });
  // The page around the frame is not connected by the frame's yes.
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ result: [] });

  // Typed data from the frame: the domain's version and salt are signed, so they are shown.
  const salt = `0x${'5a'.repeat(32)}`;
  const typed = {
    types: { Note: [{ name: 'text', type: 'string' }] },
    primaryType: 'Note',
    domain: { name: 'Embedded', version: '7', chainId: 1, salt },
    message: { text: 'hello' },
  };
  const signing = nextApprovalWindow(context, extensionId);
  await startRequests(embedded, [
    { name: 'typed', method: 'eth_signTypedData_v4', params: [ACCOUNT, JSON.stringify(typed)] },
  ]);
  const sign = await signing;
  const shown = sign.getByRole('region', { name: 'Typed data' });
  const term = (name: string) =>
    shown.locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(term('App version')).toHaveText('7');
  await expect(term('Salt')).toHaveText(salt);
  await expect(sign.getByRole('region', { name: 'Requesting site' })).toContainText(`inside ${originA()}`);
  await clickClosing(sign, sign.getByRole('button', { name: 'Reject' }));
  await expect.poll(() => answerOf(embedded, 'typed')).toMatchObject({ error: { code: 4001 } });
});

test('a page cannot pass for another origin: the background uses the origin the browser reports', async ({
  context,
  extensionId,
}) => {
  await setUpConnected(context, extensionId);

  const hostile = await openSite(context, originB());
  // Claims to be the connected origin on the page<->bridge channel, in every field it can think of.
  const forged = await hostile.evaluate(async (claimed) => {
    const replies: unknown[] = [];
    window.addEventListener('message', (event) => {
      const data = event.data as { target?: string; id?: number };
      if (data?.target === 'swaplane:provider' && data.id === 990) replies.push(data);
    });
    window.postMessage(
      {
        target: 'swaplane:bridge',
        id: 990,
        method: 'eth_accounts',
        origin: claimed,
        sender: { origin: claimed, url: `${claimed}/` },
      },
      location.origin,
    );
    await new Promise((resolve) => {
      const check = () => (replies.length > 0 ? resolve(null) : setTimeout(check, 20));
      check();
    });
    return replies[0];
  }, originA());
  expect(forged).toEqual({ target: 'swaplane:provider', id: 990, result: [] });
  expect(await providerRequest(hostile, 'personal_sign', [HELLO, ACCOUNT])).toMatchObject({
    error: { code: 4100 },
  });

  // Its connect request names its own origin in the window.
  const approval = nextApprovalWindow(context, extensionId);
  await startRequests(hostile, [{ name: 'connect', method: 'eth_requestAccounts' }]);
  const prompt = await approval;
  await expect(prompt.getByRole('region', { name: 'Requesting site' })).toContainText(originB());
  await expect(prompt.getByRole('region', { name: 'Requesting site' })).not.toContainText(originA());
  await prompt.getByRole('button', { name: 'Reject' }).click();
  await expect.poll(() => answerOf(hostile, 'connect')).toMatchObject({ error: { code: 4001 } });
});

test('a page cannot flood the queue: three wait, the rest get -32005, one window in front shows the queue', async ({
  context,
  extensionId,
}) => {
  const { setup, page } = await setUpConnected(context, extensionId);

  const approval = nextApprovalWindow(context, extensionId);
  await startRequests(
    page,
    Array.from({ length: 50 }, (_, i) => ({
      name: `s${i}`,
      method: 'personal_sign',
      params: [HELLO, ACCOUNT],
    })),
  );
  const prompt = await approval;
  // Opened in front (windows.create focused): a window behind the browser is a request never seen.
  await expect.poll(() => approvalWindowFocus(setup, extensionId)).toEqual({ open: 1, inFront: true });
  const answers = async () => Promise.all(Array.from({ length: 50 }, (_, i) => answerOf(page, `s${i}`)));
  await expect.poll(async () => (await answers()).filter((answer) => answer !== null).length).toBe(47);
  for (const answer of (await answers()).filter((entry) => entry !== null)) {
    expect(answer).toMatchObject({ error: { code: -32005 } });
  }
  await expect(prompt.getByRole('region', { name: 'Waiting requests' })).toContainText(
    '2 more requests waiting',
  );
  expect(approvalWindows(context, extensionId)).toHaveLength(1);
  expect(await approvalWindowFocus(setup, extensionId)).toEqual({ open: 1, inFront: true });
  for (let left = 3; left > 0; left--) {
    await prompt.getByRole('button', { name: 'Reject' }).click();
    if (left > 1) await expect(prompt.getByRole('heading', { name: 'Sign this message?' })).toBeVisible();
  }
  await expect.poll(async () => (await answers()).filter((answer) => answer === null).length).toBe(0);
  expect((await answers()).filter((answer) => JSON.stringify(answer).includes('4001'))).toHaveLength(3);
});

test('locked: eth_accounts is [], eth_requestAccounts asks for the password in the window; Settings disconnects', async ({
  context,
  extensionId,
}) => {
  const { setup, page } = await setUpConnected(context, extensionId);
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ result: [ACCOUNT] });

  await sendFromView(setup, { type: 'walletLock' });
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ result: [] });
  const approval = nextApprovalWindow(context, extensionId);
  await startRequests(page, [{ name: 'again', method: 'eth_requestAccounts' }]);
  const prompt = await approval;
  await expect(prompt.getByRole('button', { name: 'Connect' })).toBeDisabled();
  await prompt.getByLabel('Password').fill('wrong password entirely');
  await prompt.getByRole('button', { name: 'Connect' }).click();
  await expect(prompt.getByRole('alert').last()).toBeVisible();
  expect(await answerOf(page, 'again')).toBeNull();
  await prompt.getByLabel('Password').fill('e2e correct horse battery');
  await prompt.getByRole('button', { name: 'Connect' }).click();
  await expect.poll(() => answerOf(page, 'again')).toEqual({ result: [ACCOUNT] });

  // Connected sites in Settings: listed, and disconnecting tells the page (accountsChanged []).
  await page.evaluate(async () => {
    type Provider = { on(event: string, listener: (value: unknown) => void): void };
    const provider = await new Promise<Provider>((resolve) => {
      window.addEventListener('eip6963:announceProvider', (event) =>
        resolve((event as CustomEvent).detail.provider as Provider),
      );
      window.dispatchEvent(new Event('eip6963:requestProvider'));
    });
    provider.on('accountsChanged', (accounts) => {
      (window as unknown as { __changed: unknown }).__changed = accounts;
    });
  });
  await setup.goto(`chrome-extension://${extensionId}/options.html`);
  const list = setup.getByRole('list', { name: 'Connected sites' });
  await expect(list).toContainText(originA());
  await setup.getByRole('button', { name: `Disconnect ${originA()}` }).click();
  await expect(setup.getByText('No site is connected.')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __changed?: unknown }).__changed))
    .toEqual([]);
  expect(await providerRequest(page, 'eth_accounts')).toEqual({ result: [] });
});

test('window.ethereum only when the user allows it in Settings, and never over another wallet', async ({
  context,
  extensionId,
}) => {
  const setup = await setUp(context, extensionId);
  const before = await openSite(context);
  // Announced by EIP-6963 either way; window.ethereum is off by default.
  expect(await providerRequest(before, 'eth_chainId')).toEqual({ result: '0x1' });
  expect(await before.evaluate(() => 'ethereum' in window)).toBe(false);

  await setup.goto(`chrome-extension://${extensionId}/options.html`);
  const toggle = setup.getByRole('checkbox', { name: /Also provide window\.ethereum/ });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(toggle).toBeChecked();

  const allowed = await openSite(context);
  await expect
    .poll(() =>
      allowed.evaluate(() => (window as { ethereum?: { isSwaplane?: boolean } }).ethereum?.isSwaplane),
    )
    .toBe(true);
  expect(
    await allowed.evaluate(() =>
      (window as { ethereum?: { request(a: unknown): Promise<unknown> } }).ethereum?.request({
        method: 'eth_accounts',
      }),
    ),
  ).toEqual([]);

  // Another wallet got there first: it keeps window.ethereum.
  const taken = await context.newPage();
  await taken.addInitScript(() => {
    (window as { ethereum?: unknown }).ethereum = { isOtherWallet: true };
  });
  await taken.goto(`${originA()}/index.html`);
  expect(await providerRequest(taken, 'eth_chainId')).toEqual({ result: '0x1' });
  expect(
    await taken.evaluate(
      () => (window as { ethereum?: { isOtherWallet?: boolean } }).ethereum?.isOtherWallet,
    ),
  ).toBe(true);
});
