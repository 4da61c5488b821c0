// Waiting approvals outlive the service worker (storage.session): Chrome stops the worker while a
// personal_sign and then an eth_sendTransaction wait in the window; the same window still shows
// each, and the answer still reaches the page (its bridge asks the new worker again). A page that
// reloads while its send waits across a stop rejects it: nothing is sent. The recipient line says
// "First interaction" until Swaplane has recorded a send to that address.
import { type Hex, parseEther, toHex, verifyMessage } from 'viem';
import {
  answerOf,
  BLANK_PAGE,
  connectPage,
  keepOnLoopback,
  nextApprovalWindow,
  type StaticSite,
  serveStatic,
  startRequests,
} from './dapp/support';
import {
  ACCOUNT,
  expect,
  openHelperTab,
  restartServiceWorker,
  rpcCall,
  setUpWallet,
  test,
  WORKER_STOP_RETRIES,
} from './fixtures';

test.describe.configure({ retries: WORKER_STOP_RETRIES });

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveStatic('/nonexistent', { '/index.html': BLANK_PAGE });
});
test.afterAll(async () => site.close());

test('a waiting signature and a waiting send survive a worker stop; a page that reloads meanwhile gets nothing sent', async ({
  context,
  extensionId,
}) => {
  test.setTimeout(120_000);
  const { rpcUrls } = await setUpWallet(context, extensionId);
  const rpc = rpcUrls['1'] as string;
  const page = await context.newPage();
  await keepOnLoopback(page);
  await page.goto(`${site.url}/index.html`);
  await connectPage(page, context, extensionId);
  // Chrome stops the worker while a request waits; the test wakes the new one itself (the window's
  // poll would too) and checks it is new. The CDP session is on a web page, not an extension page.
  const helper = await openHelperTab(context);
  const restartWorker = () => restartServiceWorker(context, helper, extensionId);

  // personal_sign waits; the worker stops; the window still shows it and Sign answers the page.
  let approval = nextApprovalWindow(context, extensionId);
  const text = 'Sign across a worker restart';
  await startRequests(page, [{ name: 'sign', method: 'personal_sign', params: [toHex(text), ACCOUNT] }]);
  let prompt = await approval;
  await expect(prompt.getByRole('region', { name: 'Message' })).toContainText(text);
  await restartWorker();
  await expect(prompt.getByRole('region', { name: 'Message' })).toContainText(text);
  await prompt.getByRole('button', { name: 'Sign' }).click();
  await expect.poll(() => answerOf(page, 'sign')).not.toBeNull();
  const signed = (await answerOf(page, 'sign')) as { result: Hex };
  expect(await verifyMessage({ address: ACCOUNT, message: text, signature: signed.result })).toBe(true);

  // eth_sendTransaction waits; the worker stops; Confirm sends what the window showed, once: the
  // page's nonce and its access list too (shown in the window, kept across the restart).
  const before = BigInt((await rpcCall(rpc, 'eth_getBalance', [RECIPIENT, 'latest'])) as string);
  const value = toHex(parseEther('0.01'));
  const pageNonce = (await rpcCall(rpc, 'eth_getTransactionCount', [ACCOUNT, 'pending'])) as Hex;
  const slot = toHex(7, { size: 32 });
  const accessList = [{ address: RECIPIENT, storageKeys: [slot] }];
  approval = nextApprovalWindow(context, extensionId);
  await startRequests(page, [
    {
      name: 'send',
      method: 'eth_sendTransaction',
      params: [{ from: ACCOUNT, to: RECIPIENT, value, nonce: pageNonce, accessList }],
    },
  ]);
  prompt = await approval;
  await expect(prompt.getByRole('region', { name: 'Balance changes' })).toContainText('−0.01 ETH');
  await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText('First interaction');
  const shownAccessList = `Access list${RECIPIENT}: 1 storage slot`;
  await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText(shownAccessList);
  await restartWorker();
  await expect(prompt.getByRole('region', { name: 'Balance changes' })).toContainText('−0.01 ETH');
  await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText(shownAccessList);
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(() => answerOf(page, 'send')).not.toBeNull();
  const sent = (await answerOf(page, 'send')) as { result: Hex };
  expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/);
  await expect
    .poll(() => rpcCall(rpc, 'eth_getTransactionReceipt', [sent.result]))
    .toMatchObject({ status: '0x1' });
  const after = BigInt((await rpcCall(rpc, 'eth_getBalance', [RECIPIENT, 'latest'])) as string);
  expect(after - before).toBe(parseEther('0.01'));
  expect(await rpcCall(rpc, 'eth_getTransactionByHash', [sent.result])).toMatchObject({
    nonce: pageNonce,
    accessList: [{ address: RECIPIENT.toLowerCase(), storageKeys: [slot] }],
  });

  // A send waits, the worker stops, the page reloads: the request is rejected and nothing is sent.
  const nonce = await rpcCall(rpc, 'eth_getTransactionCount', [ACCOUNT, 'pending']);
  approval = nextApprovalWindow(context, extensionId);
  await startRequests(page, [
    { name: 'gone', method: 'eth_sendTransaction', params: [{ from: ACCOUNT, to: RECIPIENT, value }] },
  ]);
  prompt = await approval;
  await expect(prompt.getByRole('region', { name: 'Balance changes' })).toContainText('−0.01 ETH');
  // Swaplane recorded the send above: this recipient is no longer a first interaction.
  await expect(prompt.getByRole('region', { name: 'Transaction' })).toContainText(
    'This account sent to this address before, from Swaplane.',
  );
  await restartWorker();
  const closed = prompt.waitForEvent('close');
  await page.reload();
  await closed; // nothing left to approve: the window goes
  expect(await rpcCall(rpc, 'eth_getTransactionCount', [ACCOUNT, 'pending'])).toBe(nonce);
});
