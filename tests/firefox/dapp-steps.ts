// The dapp steps of the Firefox smoke, on a local dapp page: it finds Swaplane through EIP-6963 and
// connects; personal_sign verified with viem; a closed window answers 4001. Then, connected: a
// transaction reviewed (amount, recipient, simulated balance change, fee) and mined on the devnet,
// typed data shown and verified with viem, and a switch to the Base replica heard as chainChanged.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { createPublicClient, type Hex, http, verifyMessage, verifyTypedData } from 'viem';
import { EXTENSION_ORIGIN } from './firefox.ts';
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

/**
 * The window Swaplane opened on `file`, among pages not in `before`. Firefox reports a window that
 * an extension opens on a moz-extension:// page as about:blank to BiDi, so each page is asked.
 */
async function newExtensionWindow(browser: Browser, before: Set<Page>, file: string): Promise<Page> {
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
async function askAndApprove(
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
  await approve(prompt);
  return answerOf(page, request.name);
}

async function ask(page: Page, request: { name: string; method: string; params?: unknown[] }) {
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

async function answerOf(page: Page, name: string): Promise<unknown> {
  const answer = await page.waitForFunction(
    (wanted: string) => (window as unknown as { answers: Record<string, unknown> }).answers[wanted],
    { timeout: STEP_TIMEOUT_MS },
    name,
  );
  return answer.jsonValue();
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
  // Closing the window refuses: the event page hears the window go (windows.onRemoved), answers 4001.
  const closed = await askAndApprove(
    browser,
    page,
    { name: 'closed', method: 'personal_sign', params: [hex, account] },
    async (prompt) => {
      await waitForText(prompt, approval.signHeading);
      await prompt.close();
    },
  );
  if ((closed as { error?: { code?: number } }).error?.code !== 4001)
    throw new Error(`closing the approval window answered ${JSON.stringify(closed)}, not 4001`);
}

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SENT_WEI = 10n ** 16n; // 0.01 ETH
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

/** A send of 0.01 ETH reviewed and confirmed; its hash mined on the devnet with what was shown. */
async function sendFromDapp(browser: Browser, page: Page, account: string, rpcUrl: string) {
  const sent = await askAndApprove(
    browser,
    page,
    {
      name: 'send',
      method: 'eth_sendTransaction',
      params: [{ from: account, to: RECIPIENT, value: `0x${SENT_WEI.toString(16)}` }],
    },
    async (prompt) => {
      await waitForText(prompt, approval.transactionHeading);
      await waitForRegion(prompt, 'What is sent', '0.01 ETH');
      await waitForRegion(prompt, 'Transaction', RECIPIENT);
      await waitForRegion(prompt, 'Transaction', /Network fee\s*up to 0\.\d+ ETH/);
      // The change comes from the node's simulation (eth_simulateV1 tracing the transfer), not
      // from the value alone: the window says "Not simulated" when it only has the value.
      const changes = await waitForRegion(prompt, 'Balance changes', '−0.01 ETH');
      if (changes.includes('Not simulated')) throw new Error(`the send was not simulated: ${changes}`);
      await expectWindowFits(prompt, 'approval window (transaction)', approval.confirmButton);
      // The longest window, also at the popup's sizes: a narrower window must not cut it off.
      await expectPopupFits(prompt, 'approval window (transaction)', approval.confirmButton);
      await approval.confirm(prompt);
    },
  );
  const hash = (sent as { result?: Hex }).result;
  if (!hash || !/^0x[0-9a-f]{64}$/.test(hash))
    throw new Error(`eth_sendTransaction answered ${JSON.stringify(sent)}`);
  const chain = createPublicClient({ transport: http(rpcUrl) });
  const receipt = await chain.waitForTransactionReceipt({
    hash,
    timeout: STEP_TIMEOUT_MS,
    pollingInterval: 250,
  });
  const tx = await chain.getTransaction({ hash });
  if (
    receipt.status !== 'success' ||
    tx.from.toLowerCase() !== account.toLowerCase() ||
    tx.to?.toLowerCase() !== RECIPIENT.toLowerCase() ||
    tx.value !== SENT_WEI
  )
    throw new Error(
      `the mined transaction is not what was shown: ${receipt.status} ${tx.from} -> ${tx.to} ${tx.value}`,
    );
}

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
  await signTypedFromDapp(browser, dapp.page, account);
  await switchToBase(dapp.page);
}
