// The dapp steps of the Firefox smoke, on a local dapp page: it finds Swaplane through EIP-6963 and
// connects; personal_sign verified with viem; a second request while the window is behind brings it
// back (one window); a closed window answers 4001. Then, connected: an ETH send and a token transfer
// reviewed and mined (./dapp-send-steps.ts), typed data shown and verified with viem, and a switch
// to the Base replica heard as chainChanged. Every approval window must open in front.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { type Hex, verifyMessage, verifyTypedData } from 'viem';
import {
  answerOf,
  approvalWindows,
  ask,
  askAndApprove,
  expectInFront,
  FOCUS_TIMEOUT_MS,
  newExtensionWindow,
} from './dapp-requests.ts';
import { sendFromDapp, sendTokenFromDapp } from './dapp-send-steps.ts';
import { expectPopupFits, expectWindowFits } from './layout.ts';
import { approval, find, STEP_TIMEOUT_MS, waitForRegion, waitForText } from './screen.ts';
import type { Embedded } from './wallet-steps.ts';

const DAPP_PAGE = `<!doctype html><html lang="en"><head><title>Firefox dapp</title></head>
<body><h1>Firefox dapp</h1><script>
window.swaplane = new Promise((resolve) => {
  window.addEventListener('eip6963:announceProvider', (event) => {
    if (event.detail.info.rdns === 'app.swaplane') resolve(event.detail);
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));
});
window.answers = {};
window.chainChanges = [];
window.swaplane.then(({ provider }) => provider.on('chainChanged', (id) => window.chainChanges.push(id)));
window.ask = (name, method, params) =>
  window.swaplane.then(({ provider }) => provider.request({ method, params })).then(
    (result) => { window.answers[name] = { result }; },
    (error) => { window.answers[name] = { error: { code: error.code, message: error.message } }; },
  );
</script></body></html>`;

/** The dapp page, served from a local port; `close` closes the page and the server. */
export interface Dapp {
  page: Page;
  close(): Promise<void>;
}

export async function openDapp(browser: Browser): Promise<Dapp> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(DAPP_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const closeServer = () => new Promise<unknown>((resolve) => server.close(resolve));
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { waitUntil: 'load' });
    return {
      page,
      close: async () => {
        await page.close().catch(() => undefined);
        await closeServer();
      },
    };
  } catch (error) {
    await closeServer();
    throw error;
  }
}

export async function dappConnectAndSign(browser: Browser, dapp: Dapp, account: string): Promise<void> {
  const { page } = dapp;
  const info = await page.evaluate(() =>
    (window as unknown as { swaplane: Promise<{ info: { name: string } }> }).swaplane.then(
      (d) => d.info.name,
    ),
  );
  if (info !== 'Swaplane') throw new Error(`EIP-6963 announced "${info}"`);
  const connected = await askAndApprove(
    browser,
    page,
    { name: 'connect', method: 'eth_requestAccounts' },
    async (prompt) => {
      await find(prompt, approval.connectButton, 'button');
      await expectWindowFits(prompt, 'approval window (connect)', approval.connectButton);
      await approval.connect(prompt);
    },
  );
  const accounts = (connected as { result?: string[] }).result ?? [];
  if (accounts[0]?.toLowerCase() !== account.toLowerCase())
    throw new Error(`connect answered ${JSON.stringify(connected)}`);
  const message = 'Hello from Firefox';
  const hex = `0x${Buffer.from(message).toString('hex')}`;
  const signed = await askAndApprove(
    browser,
    page,
    { name: 'sign', method: 'personal_sign', params: [hex, account] },
    async (prompt) => {
      await waitForText(prompt, approval.signHeading);
      await waitForText(prompt, message);
      await expectWindowFits(prompt, 'approval window (sign)', approval.signButton);
      await approval.sign(prompt);
    },
  );
  const signature = (signed as { result?: Hex }).result;
  if (!signature) throw new Error(`personal_sign answered ${JSON.stringify(signed)}`);
  if (!(await verifyMessage({ address: account as Hex, message, signature })))
    throw new Error('the signature does not verify for the account');
  await queuedRequestRefocusesAndCloseRejects(browser, page, account, message);
}

/**
 * Two signatures asked while the dapp's tab is in front: the second waits in the one open window
 * (no second window), which comes back to the front. The first signed; closing the window then
 * refuses the second: the event page hears the window go (windows.onRemoved) and answers 4001.
 */
async function queuedRequestRefocusesAndCloseRejects(
  browser: Browser,
  page: Page,
  account: string,
  message: string,
): Promise<void> {
  const params = [`0x${Buffer.from(message).toString('hex')}`, account];
  const before = new Set(await browser.pages());
  await ask(page, { name: 'first', method: 'personal_sign', params });
  const prompt = await newExtensionWindow(browser, before, 'approve.html');
  await waitForText(prompt, approval.signHeading);
  await expectInFront(prompt, page, 'the approval window (first of two)');
  // The user goes back to the dapp: the window is now behind it.
  await page.bringToFront();
  const leftBehind = await prompt
    .waitForFunction(() => !document.hasFocus(), { timeout: FOCUS_TIMEOUT_MS, polling: 100 })
    .then(() => true)
    .catch(() => false);
  if (!leftBehind) throw new Error("the dapp's tab was brought to the front but the window kept the focus");
  await ask(page, { name: 'closed', method: 'personal_sign', params });
  await waitForRegion(prompt, approval.waitingRegion, approval.oneMoreWaiting);
  await expectInFront(prompt, page, 'the approval window, asked again while behind');
  const windows = await approvalWindows(browser);
  if (windows.length !== 1) throw new Error(`${windows.length} approval windows open, not one`);
  await approval.sign(prompt);
  const first = (await answerOf(page, 'first')) as { result?: Hex };
  const signature = first.result;
  if (!signature || !(await verifyMessage({ address: account as Hex, message, signature })))
    throw new Error(`the first of two signatures answered ${JSON.stringify(first)}`);
  // The window stays open on the second request; closing it refuses that one.
  await waitForText(prompt, approval.signHeading);
  await prompt.close();
  const closed = await answerOf(page, 'closed');
  if ((closed as { error?: { code?: number } }).error?.code !== 4001)
    throw new Error(`closing the approval window answered ${JSON.stringify(closed)}, not 4001`);
}

const BASE_CHAIN_ID = '0x2105';

/** The MetaMask docs' "Ether Mail" message, on the devnet's Ethereum (chain 1). */
const MAIL = {
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 1,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const;

/** Typed data shown (its domain and message) and signed; viem verifies the signature. */
async function signTypedFromDapp(browser: Browser, page: Page, account: string) {
  const signed = await askAndApprove(
    browser,
    page,
    { name: 'typed', method: 'eth_signTypedData_v4', params: [account, JSON.stringify(MAIL)] },
    async (prompt) => {
      await waitForText(prompt, approval.typedDataHeading);
      await waitForRegion(prompt, 'Typed data', MAIL.domain.name);
      await waitForRegion(prompt, 'Typed data', MAIL.domain.verifyingContract);
      await waitForRegion(prompt, 'Typed data', MAIL.message.contents);
      await waitForRegion(prompt, 'Typed data', MAIL.message.to.name);
      await expectWindowFits(prompt, 'approval window (typed data)', approval.signButton);
      await expectPopupFits(prompt, 'approval window (typed data)', approval.signButton);
      await approval.sign(prompt);
    },
  );
  const signature = (signed as { result?: Hex }).result;
  if (!signature) throw new Error(`eth_signTypedData_v4 answered ${JSON.stringify(signed)}`);
  if (!(await verifyTypedData({ ...MAIL, address: account as Hex, signature })))
    throw new Error('the typed-data signature does not verify for the account');
}

/** wallet_switchEthereumChain (no window: the chain is one Swaplane serves); the page hears it. */
async function switchToBase(page: Page) {
  await ask(page, {
    name: 'switch',
    method: 'wallet_switchEthereumChain',
    params: [{ chainId: BASE_CHAIN_ID }],
  });
  const switched = await answerOf(page, 'switch');
  if ((switched as { result?: unknown }).result !== null)
    throw new Error(`wallet_switchEthereumChain answered ${JSON.stringify(switched)}`);
  await page
    .waitForFunction(
      (id: string) => (window as unknown as { chainChanges: string[] }).chainChanges.includes(id),
      { timeout: STEP_TIMEOUT_MS },
      BASE_CHAIN_ID,
    )
    .catch(async () => {
      const heard = await page.evaluate(() =>
        JSON.stringify((window as unknown as { chainChanges: unknown }).chainChanges),
      );
      throw new Error(`the page never heard chainChanged ${BASE_CHAIN_ID}; it heard ${heard}`);
    });
  await ask(page, { name: 'chainId', method: 'eth_chainId' });
  const chainId = await answerOf(page, 'chainId');
  if ((chainId as { result?: string }).result !== BASE_CHAIN_ID)
    throw new Error(`after the switch eth_chainId answered ${JSON.stringify(chainId)}`);
}

export async function dappSendTypedDataAndSwitch(
  dapp: Dapp,
  browser: Browser,
  account: string,
  embedded: Embedded,
) {
  const rpcUrl = embedded.rpcUrls['1'];
  if (!rpcUrl) throw new Error('no devnet RPC for Ethereum');
  await sendFromDapp(browser, dapp.page, account, rpcUrl);
  await sendTokenFromDapp(browser, dapp.page, account, rpcUrl);
  await signTypedFromDapp(browser, dapp.page, account);
  await switchToBase(dapp.page);
}
